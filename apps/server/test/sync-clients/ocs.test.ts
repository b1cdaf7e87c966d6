import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { capabilitiesOf, type CapabilityContribution } from '../../src/modules/sync-clients/capabilities';
import { SETTING_DEFAULTS } from '../../src/modules/settings/settings.defaults';
import { describeEachDatabase } from '../support/each-database';
import { uniqueAddress } from '../support/agent';
import { uploaded } from '../files/files-harness';
import { createUser, DEFAULT_PASSWORD, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';

const MIB = 1024 ** 2;
const OCS = { 'ocs-apirequest': 'true' };

const basic = (email: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`,
});

describeEachDatabase('sync clients: status.php and the OCS API', (kind) => {
  let t: TestApp;
  let user: UserRow;
  let appPassword: string;

  beforeAll(async () => {
    t = await createTestApp({ database: kind, redis: true, settings: { app_title: 'Studio Nord' } });
    ({ user } = await createUser(t.deps, { name: 'Ada Lovelace', storageCapacity: 4 * MIB }));
    ({ password: appPassword } = await t.deps.appPasswords.create(user.id, { name: 'Nextcloud desktop' }));
  });
  afterAll(() => t.close());

  const ocs = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers, remoteAddress: uniqueAddress() });
  const signedIn = () => ({ ...OCS, ...basic(user.email, appPassword) });

  it('status.php says the instance is installed, in its name and a version the clients accept', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/status.php' });
    expect(answer.statusCode).toBe(200);
    const status = answer.json();
    expect(status).toEqual({
      installed: true,
      maintenance: false,
      needsDbUpgrade: false,
      version: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/),
      versionstring: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      edition: '',
      productname: 'Studio Nord',
      extendedSupport: false,
    });
    // The desktop client refuses servers below 20.0.0.
    expect(Number(status.version.split('.')[0])).toBeGreaterThanOrEqual(20);
  });

  it('answers the capabilities as JSON in both envelopes, to anyone who sends the OCS header', async () => {
    const v1 = await ocs('/ocs/v1.php/cloud/capabilities?format=json', OCS);
    expect(v1.statusCode).toBe(200);
    expect(v1.json().ocs.meta).toEqual({ status: 'ok', statuscode: 100, message: 'OK' });
    const v2 = await ocs('/ocs/v2.php/cloud/capabilities', { ...signedIn(), accept: 'application/json' });
    expect(v2.statusCode).toBe(200);
    expect(v2.json().ocs.meta).toEqual({ status: 'ok', statuscode: 200, message: 'OK' });
    const { version, capabilities } = v2.json().ocs.data;
    expect(version.string).toBe(`${version.major}.${version.minor}.${version.micro}`);
    expect(capabilities.core).toEqual({ pollinterval: 60, 'webdav-root': 'remote.php/webdav' });
    expect(capabilities.theming).toMatchObject({ name: 'Studio Nord', url: 'http://atelier.test' });
    expect(v1.json().ocs.data).toEqual(v2.json().ocs.data);
  });

  it('answers XML unless JSON is asked for, with booleans and lists written as Nextcloud writes them', async () => {
    const answer = await ocs('/ocs/v2.php/cloud/user', signedIn());
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/xml/);
    const document = new DOMParser().parseFromString(answer.body, 'text/xml');
    const text = (path: string) => {
      let node: { getElementsByTagName(name: string): ArrayLike<unknown> } = document;
      for (const name of path.split('/')) node = node.getElementsByTagName(name)[0] as typeof node;
      return (node as unknown as { textContent: string }).textContent;
    };
    expect(['ocs/meta/status', 'ocs/meta/statuscode', 'ocs/meta/message'].map(text)).toEqual([
      'ok',
      '200',
      'OK',
    ]);
    expect(['ocs/data/id', 'ocs/data/display-name', 'ocs/data/enabled'].map(text)).toEqual([
      user.id,
      'Ada Lovelace',
      '1',
    ]);
    expect(answer.body).toContain('<groups></groups>');
  });

  it('tells the account its id, names and quota in bytes', async () => {
    const { agent } = await signedInAgent(t.app, user);
    await uploaded(agent, Buffer.alloc(MIB, 7), { name: 'quarter.bin', chunkSize: MIB });
    const answer = await ocs('/ocs/v1.php/cloud/user?format=json', signedIn());
    expect(answer.statusCode).toBe(200);
    expect(answer.json().ocs.data).toEqual({
      enabled: true,
      id: user.id,
      email: user.email,
      'display-name': 'Ada Lovelace',
      displayname: 'Ada Lovelace',
      quota: { free: 3 * MIB, used: MIB, total: 4 * MIB, relative: 25, quota: 4 * MIB },
      groups: [],
    });
  });

  it('says -3 (unlimited) where storage is not limited', async () => {
    await t.deps.settings.set({ storage_limitation: false });
    try {
      const answer = await ocs('/ocs/v2.php/cloud/user?format=json', signedIn());
      expect(answer.json().ocs.data.quota).toMatchObject({ free: -3, total: -3, quota: -3, relative: 0 });
    } finally {
      await t.deps.settings.set({ storage_limitation: true });
    }
  });

  it('refuses a call without the OCS header, whoever makes it (401, 997 in v1)', async () => {
    for (const url of ['/ocs/v1.php/cloud/user?format=json', '/ocs/v1.php/cloud/capabilities?format=json']) {
      const answer = await ocs(url, basic(user.email, appPassword));
      expect(answer.statusCode, url).toBe(401);
      expect(answer.json().ocs.meta).toMatchObject({ status: 'failure', statuscode: 997 });
    }
    const v2 = await ocs('/ocs/v2.php/cloud/user?format=json', basic(user.email, appPassword));
    expect(v2.statusCode).toBe(401);
    expect(v2.json().ocs.meta.statuscode).toBe(401);
  });

  it('refuses the account password, a wrong app password and no credentials alike', async () => {
    for (const headers of [
      OCS,
      { ...OCS, ...basic(user.email, DEFAULT_PASSWORD) },
      { ...OCS, ...basic(user.email, 'aaaaaa-bbbbbb-cccccc-dddddd') },
    ]) {
      const answer = await ocs('/ocs/v2.php/cloud/user?format=json', headers);
      expect(answer.statusCode).toBe(401);
      expect(answer.json().ocs.data).toEqual([]);
    }
    // Credentials sent to the open capabilities must be right too.
    const wrong = await ocs('/ocs/v2.php/cloud/capabilities', {
      ...OCS,
      ...basic(user.email, DEFAULT_PASSWORD),
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('stops answering for an app password once it is revoked', async () => {
    const { id, password } = await t.deps.appPasswords.create(user.id, { name: 'Soon revoked' });
    expect((await ocs('/ocs/v2.php/cloud/user', { ...OCS, ...basic(user.email, password) })).statusCode).toBe(
      200,
    );
    await t.deps.appPasswords.revoke(user.id, id);
    expect((await ocs('/ocs/v2.php/cloud/user', { ...OCS, ...basic(user.email, password) })).statusCode).toBe(
      401,
    );
  });
});

describeEachDatabase('sync clients: status.php before the installation and in maintenance', (kind) => {
  let t: TestApp | undefined;
  afterAll(() => t?.close());

  it('says installed false before the wizard, and maintenance while the instance is closed', async () => {
    t = await createTestApp({ database: kind, installed: false });
    expect((await t.app.inject({ method: 'GET', url: '/status.php' })).json()).toMatchObject({
      installed: false,
      maintenance: false,
    });
    await t.deps.settings.set({ installed: true, maintenance: true });
    const answer = await t.app.inject({ method: 'GET', url: '/status.php' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ installed: true, maintenance: true });
    // The OCS API itself is closed in maintenance, as every route is.
    const closed = await t.app.inject({
      method: 'GET',
      url: '/ocs/v1.php/cloud/capabilities?format=json',
      headers: OCS,
    });
    expect(closed.statusCode).toBe(503);
    expect(closed.json().code).toBe('maintenance');
  });
});

describe('capabilities document', () => {
  const context = { settings: SETTING_DEFAULTS, appUrl: 'https://files.example' };

  it('merges contributions naming the same app key by key, later ones winning', () => {
    const chunking: CapabilityContribution = () => ({ dav: { chunking: '1.0' } });
    const bulk: CapabilityContribution = () => ({ dav: { bulkupload: '1.0' } });
    const versions: CapabilityContribution = () => ({ files: { versioning: true } });
    expect(capabilitiesOf(context, [chunking, bulk, versions])).toEqual({
      dav: { chunking: '1.0', bulkupload: '1.0' },
      files: { versioning: true },
    });
  });
});
