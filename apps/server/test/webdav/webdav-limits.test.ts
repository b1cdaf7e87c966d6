import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { describeEachDatabase } from '../support/each-database';
import { createUser } from '../support/factories';
import { createFilesTestApp, type FilesTestApp } from '../files/files-harness';
import { basic } from './webdav-harness';

const ALLPROP = '<D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>';
const lockinfo = (owner: string) =>
  `<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>${owner}</D:owner></D:lockinfo>`;
/** A PROPPATCH setting each `[name, value]` in the namespace urn:z. */
const proppatch = (properties: [string, string][]) =>
  `<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop>${properties
    .map(([name, value]) => `<Z:${name}>${value}</Z:${name}>`)
    .join('')}</D:prop></D:set></D:propertyupdate>`;

/** The issue "Trust, round two": what WebDAV bodies and dead properties may cost the server. */
describeEachDatabase('WebDAV limits', (kind) => {
  let t: FilesTestApp;
  let owner: { user: UserRow; auth: string };

  const person = async (overrides: { storageCapacity?: number } = {}) => {
    const { user } = await createUser(t.deps, overrides);
    const { password } = await t.deps.appPasswords.create(user.id, { name: 'WebDAV' });
    return { user, auth: basic(user.email, password) };
  };
  const dav = (
    auth: string,
    method: string,
    url: string,
    payload?: string,
    headers: Record<string, string> = {},
  ) => t.app.inject({ method: method as 'GET', url, payload, headers: { authorization: auth, ...headers } });
  const deadProperties = async (userId: string) =>
    t.deps.database.db
      .selectFrom('dav_properties')
      .innerJoin('items', 'items.id', 'dav_properties.item_id')
      .select(['dav_properties.name', 'dav_properties.value'])
      .where('items.user_id', '=', userId)
      .orderBy('dav_properties.name')
      .execute();

  beforeAll(async () => {
    t = await createFilesTestApp(kind, 'local');
    owner = await person();
    expect((await dav(owner.auth, 'PUT', '/dav/files/target.txt', 'target')).statusCode).toBe(201);
  });
  afterAll(() => t?.close());

  it('refuses a deeply nested PROPPATCH before parsing it, and changes nothing', async () => {
    const nested = (levels: number) => proppatch([['deep', '<a>'.repeat(levels) + '</a>'.repeat(levels)]]);
    expect((await dav(owner.auth, 'PROPPATCH', '/dav/files/target.txt', nested(1000))).statusCode).toBe(400);
    // The issue's body: 140,000 levels in about a megabyte.
    const started = performance.now();
    const huge = await dav(owner.auth, 'PROPPATCH', '/dav/files/target.txt', nested(140_000));
    expect([400, 413]).toContain(huge.statusCode);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await deadProperties(owner.user.id)).toEqual([]);
    expect((await dav(owner.auth, 'PROPPATCH', '/dav/files/target.txt', nested(8))).statusCode).toBe(207);
    await dav(
      owner.auth,
      'PROPPATCH',
      '/dav/files/target.txt',
      '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:remove><D:prop><Z:deep/></D:prop></D:remove></D:propertyupdate>',
    );
  });

  it('takes PROPFIND and LOCK bodies of a few kilobytes only (413), and no document type (400)', async () => {
    const manyNames = `<D:propfind xmlns:D="DAV:" xmlns:Z="urn:z"><D:prop>${'<Z:name/>'.repeat(2500)}</D:prop></D:propfind>`;
    expect(manyNames.length).toBeGreaterThan(16 * 1024);
    const found = await dav(owner.auth, 'PROPFIND', '/dav/files/target.txt', manyNames, { depth: '0' });
    expect(found.statusCode).toBe(413);
    const lock = await dav(owner.auth, 'LOCK', '/dav/files/target.txt', lockinfo('x'.repeat(20_000)));
    expect(lock.statusCode).toBe(413);
    expect(await t.deps.database.db.selectFrom('dav_locks').selectAll().execute()).toEqual([]);
    const entities = await dav(
      owner.auth,
      'PROPFIND',
      '/dav/files/target.txt',
      `<!DOCTYPE d [<!ENTITY a "${'a'.repeat(100)}">]>${ALLPROP}`,
      { depth: '0' },
    );
    expect(entities.statusCode).toBe(400);
    expect(
      (await dav(owner.auth, 'PROPFIND', '/dav/files/target.txt', ALLPROP, { depth: '0' })).statusCode,
    ).toBe(207);
  });

  it('takes a PROPPATCH body of a bounded size (413 past it), and changes nothing', async () => {
    const body = proppatch([['big', 'v'.repeat(300 * 1024)]]);
    expect((await dav(owner.auth, 'PROPPATCH', '/dav/files/target.txt', body)).statusCode).toBe(413);
    expect(await deadProperties(owner.user.id)).toEqual([]);
  });
});
