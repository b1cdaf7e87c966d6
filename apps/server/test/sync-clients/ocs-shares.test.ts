import { ShareDocument } from '@atelier/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { uploaded } from '../files/files-harness';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { TestClock } from '../sharing/sharing-harness';

const SHARES = '/ocs/v2.php/apps/files_sharing/api/v1/shares';
const DAY_MS = 86_400_000;

interface Account {
  user: UserRow;
  agent: TestAgent;
  headers: Record<string, string>;
}

describeEachDatabase('sync clients: the OCS sharing API for public links', (kind) => {
  const clock = new TestClock();
  let t: TestApp;
  let owner: Account;
  let stranger: Account;

  const account = async (): Promise<Account> => {
    const { user, agent } = await signedInAgent(t.app);
    const { password } = await t.deps.appPasswords.create(user.id, { name: 'Nextcloud desktop' });
    return {
      user,
      agent,
      headers: {
        'ocs-apirequest': 'true',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${user.email}:${password}`).toString('base64')}`,
      },
    };
  };

  beforeAll(async () => {
    t = await createTestApp({ database: kind, clock: clock.now });
    owner = await account();
    stranger = await account();
    const photos = (await owner.agent.post('/api/create-folder', { name: 'Photos' })).json().data
      .id as string;
    await owner.agent.post('/api/create-folder', { name: 'Brief' });
    await uploaded(owner.agent, Buffer.from('a picture'), { name: 'a.jpg', parentId: photos });
    await uploaded(owner.agent, Buffer.from('notes'), { name: 'notes.txt' });
  });
  afterAll(() => t.close());

  /** A client's call: a form body as the desktop client sends it, JSON back. */
  const ocs = (
    as: Account,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    form?: Record<string, string>,
  ) =>
    t.app.inject({
      method,
      url,
      headers: {
        ...as.headers,
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
    });
  const atelierLink = async (token: string) => {
    const answer = await owner.agent.get(`/api/share/${token}`);
    return answer.statusCode === 200 ? ShareDocument.parse(answer.json()).data.attributes : null;
  };
  const day = (offsetDays: number) =>
    new Date(clock.now().getTime() + offsetDays * DAY_MS).toISOString().slice(0, 10);

  it('makes a public link of a file by its path, the same link the web app shows', async () => {
    const answer = await ocs(owner, 'POST', SHARES, { path: '/Photos/a.jpg', shareType: '3' });
    expect(answer.statusCode, answer.body).toBe(200);
    const share = answer.json().ocs.data;
    expect(share).toMatchObject({
      share_type: 3,
      permissions: 1,
      path: '/Photos/a.jpg',
      item_type: 'file',
      file_target: '/a.jpg',
      uid_owner: owner.user.id,
      share_with: null,
      expiration: null,
      url: `http://atelier.test/share/${share.token}`,
    });
    expect(share.id).toBe(share.token);
    expect(await atelierLink(share.token)).toMatchObject({
      permission: 'visitor',
      protected: false,
      expires_at: null,
    });

    const byPath = await ocs(
      owner,
      'GET',
      `${SHARES}?path=${encodeURIComponent('/Photos/a.jpg')}&reshares=true`,
    );
    expect(byPath.json().ocs.data).toEqual([share]);
    expect((await ocs(owner, 'GET', `${SHARES}/${share.id}`)).json().ocs.data).toEqual([share]);
    expect(
      (await ocs(owner, 'GET', SHARES)).json().ocs.data.map((each: { id: string }) => each.id),
    ).toContain(share.id);
    expect((await ocs(owner, 'GET', `${SHARES}?path=/Brief`)).json().ocs.data).toEqual([]);
    expect((await ocs(owner, 'GET', `${SHARES}?shared_with_me=true`)).json().ocs.data).toEqual([]);

    // One link per item, as in the web app.
    const again = await ocs(owner, 'POST', SHARES, { path: '/Photos/a.jpg', shareType: '3' });
    expect(again.statusCode).toBe(400);
    expect(again.json().ocs.meta.status).toBe('failure');
  });

  it('sets and removes a password, held to the sharing rules, never answering the hash', async () => {
    const { id } = (await ocs(owner, 'POST', SHARES, { path: '/notes.txt', shareType: '3' })).json().ocs.data;
    const short = await ocs(owner, 'PUT', `${SHARES}/${id}`, { password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().ocs.meta.message).toMatch(/8/);
    expect((await atelierLink(id))!.protected).toBe(false);

    const set = await ocs(owner, 'PUT', `${SHARES}/${id}`, { password: 'a long password' });
    expect(set.statusCode).toBe(200);
    expect(set.json().ocs.data).toMatchObject({ share_with: '********', password: '********' });
    expect(set.body).not.toMatch(/argon2/);
    expect((await atelierLink(id))!.protected).toBe(true);

    const removed = await ocs(owner, 'PUT', `${SHARES}/${id}`, { password: '' });
    expect(removed.json().ocs.data.share_with).toBeNull();
    expect((await atelierLink(id))!.protected).toBe(false);
  });

  it('sets an expiry day: the link works through that day and ends at the next midnight', async () => {
    const { id } = (await ocs(owner, 'GET', `${SHARES}?path=/notes.txt`)).json().ocs.data[0];
    const inAWeek = day(7);
    const set = await ocs(owner, 'PUT', `${SHARES}/${id}`, { expireDate: inAWeek });
    expect(set.statusCode).toBe(200);
    expect(set.json().ocs.data.expiration).toBe(`${inAWeek} 00:00:00`);
    expect((await atelierLink(id))!.expires_at).toBe(
      new Date(Date.parse(`${inAWeek}T00:00:00Z`) + DAY_MS).toISOString(),
    );

    for (const refused of [day(-2), day(400), 'next friday']) {
      const answer = await ocs(owner, 'PUT', `${SHARES}/${id}`, { expireDate: refused });
      expect(answer.statusCode, refused).toBe(400);
    }
    expect((await atelierLink(id))!.expires_at).not.toBeNull();
    const cleared = await ocs(owner, 'PUT', `${SHARES}/${id}`, { expireDate: '' });
    expect(cleared.json().ocs.data.expiration).toBeNull();
    expect((await atelierLink(id))!.expires_at).toBeNull();
  });

  it('lets a folder link take uploads; a file is shared for viewing only; a file drop is refused', async () => {
    const folder = await ocs(owner, 'POST', SHARES, { path: '/Brief', shareType: '3', permissions: '15' });
    expect(folder.json().ocs.data).toMatchObject({
      item_type: 'folder',
      permissions: 15,
      mimetype: 'httpd/unix-directory',
    });
    expect((await atelierLink(folder.json().ocs.data.id))!.permission).toBe('editor');
    const readOnly = await ocs(owner, 'PUT', `${SHARES}/${folder.json().ocs.data.id}`, {
      publicUpload: 'false',
    });
    expect(readOnly.json().ocs.data.permissions).toBe(1);

    const { id } = (await ocs(owner, 'GET', `${SHARES}?path=/notes.txt`)).json().ocs.data[0];
    expect((await ocs(owner, 'PUT', `${SHARES}/${id}`, { permissions: '15' })).statusCode).toBe(400);
    expect((await ocs(owner, 'PUT', `${SHARES}/${id}`, { permissions: '4' })).statusCode).toBe(400);
    expect((await atelierLink(id))!.permission).toBe('visitor');
  });

  it('refuses other share types, unknown paths and listing inside folders', async () => {
    expect(
      (await ocs(owner, 'POST', SHARES, { path: '/Brief', shareType: '0', shareWith: 'bob' })).statusCode,
    ).toBe(400);
    expect((await ocs(owner, 'POST', SHARES, { path: '/Nowhere', shareType: '3' })).statusCode).toBe(404);
    expect((await ocs(owner, 'GET', `${SHARES}?path=/Nowhere`)).statusCode).toBe(404);
    expect((await ocs(owner, 'GET', `${SHARES}?path=/Photos&subfiles=true`)).statusCode).toBe(400);
  });

  it('shows nobody else the links, and lets nobody else change or revoke them (404)', async () => {
    const { id } = (await ocs(owner, 'GET', `${SHARES}?path=/notes.txt`)).json().ocs.data[0];
    expect((await ocs(stranger, 'GET', `${SHARES}/${id}`)).statusCode).toBe(404);
    expect((await ocs(stranger, 'PUT', `${SHARES}/${id}`, { password: 'a long password' })).statusCode).toBe(
      404,
    );
    expect((await ocs(stranger, 'DELETE', `${SHARES}/${id}`)).statusCode).toBe(404);
    expect((await ocs(stranger, 'GET', SHARES)).json().ocs.data).toEqual([]);
    // A path names the caller's own files only.
    expect((await ocs(stranger, 'POST', SHARES, { path: '/notes.txt', shareType: '3' })).statusCode).toBe(
      404,
    );
    expect((await atelierLink(id))!.protected).toBe(false);
  });

  it('revokes a link: gone from the API and from the web app; v1 answers 404 in its envelope', async () => {
    const { id } = (await ocs(owner, 'GET', `${SHARES}?path=/notes.txt`)).json().ocs.data[0];
    const revoked = await ocs(owner, 'DELETE', `${SHARES}/${id}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().ocs.data).toEqual([]);
    expect(await atelierLink(id)).toBeNull();
    expect((await ocs(owner, 'GET', `${SHARES}/${id}`)).statusCode).toBe(404);
    const v1 = await ocs(owner, 'GET', `/ocs/v1.php/apps/files_sharing/api/v1/shares/${id}`);
    expect(v1.statusCode).toBe(200);
    expect(v1.json().ocs.meta).toMatchObject({ status: 'failure', statuscode: 404 });
  });

  it('advertises public links in the capabilities', async () => {
    const answer = await ocs(owner, 'GET', '/ocs/v2.php/cloud/capabilities');
    expect(answer.json().ocs.data.capabilities.files_sharing).toMatchObject({
      api_enabled: true,
      public: { enabled: true, password: { enforced: false }, multiple_links: false },
    });
  });
});
