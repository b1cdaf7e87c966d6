import { ItemList, SHARE_EXPIRY_HOURS, ShareDocument } from '@atelier/contracts';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { SmtpPeer } from '../support/smtp-peer';
import { createTestApp, type TestApp } from '../support/test-app';
import { uploaded } from '../files/files-harness';
import { anonymousAgent, createShare, TestClock } from './sharing-harness';

describeEachDatabase("share links: the owner's side", (kind) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let owner: TestAgent;
  let stranger: TestAgent;
  const clock = new TestClock();

  beforeAll(async () => {
    smtp = await new SmtpPeer().start();
    t = await createTestApp({
      database: kind,
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Atelier <robot@atelier.test>' },
      clock: clock.now,
    });
    ({ agent: owner } = await signedInAgent(t.app));
    ({ agent: stranger } = await signedInAgent(t.app));
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  async function folder(name: string, parentId: string | null = null): Promise<string> {
    const res = await owner.post('/api/create-folder', { name, parent_id: parentId });
    expect(res.statusCode).toBe(201);
    return res.json().data.id;
  }

  async function ownerView(token: string) {
    const res = await owner.get(`/api/share/${token}`);
    expect(res.statusCode, res.body).toBe(200);
    return ShareDocument.parse(res.json()).data.attributes;
  }

  it('creates a link for a folder: a 32-character token, the addendum resource and its page address', async () => {
    const id = await folder('Holiday');
    const res = await owner.post('/api/share', {
      id,
      type: 'folder',
      permission: 'visitor',
      expiration: null,
    });
    expect(res.statusCode).toBe(201);
    const { data } = ShareDocument.parse(res.json());
    expect(data.id).toBe(data.attributes.token);
    expect(data.attributes.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(data.attributes).toMatchObject({
      permission: 'visitor',
      protected: false,
      expire_in: null,
      expires_at: null,
      item_id: id,
      item_type: 'folder',
      link: `http://atelier.test/share/${data.attributes.token}`,
      views: 0,
      downloads: 0,
    });
    expect(await ownerView(data.attributes.token)).toEqual(data.attributes);
  });

  it('makes a different token for every link', async () => {
    const tokens = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const id = await folder(`Many ${i}`);
      tokens.add((await createShare(owner, { id, type: 'folder', permission: 'visitor' })).token);
    }
    expect(tokens.size).toBe(8);
  });

  it('gives one link per item: a second one is refused with 422, also when two are asked at once', async () => {
    const id = await folder('Once');
    await createShare(owner, { id, type: 'folder', permission: 'visitor' });
    const again = await owner.post('/api/share', { id, type: 'folder', permission: 'editor' });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors).toHaveProperty('id');

    const racing = await folder('Raced');
    const answers = await Promise.all(
      [0, 1, 2].map(() => owner.post('/api/share', { id: racing, type: 'folder', permission: 'visitor' })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 422, 422]);
  });

  it('takes editor or visitor only: a missing, null or unknown permission is refused, never read as editor', async () => {
    const id = await folder('Permissions');
    for (const permission of [undefined, null, 'master', 'Editor', 'owner', '', 1, true]) {
      const res = await owner.post('/api/share', { id, type: 'folder', permission });
      expect(res.statusCode, String(permission)).toBe(422);
      expect(res.json().errors).toHaveProperty('permission');
    }
    expect((await owner.get('/api/browse/share')).json().data.map((i: { id: string }) => i.id)).not.toContain(
      id,
    );
  });

  it('shares a file for viewing only', async () => {
    const file = await uploaded(owner, randomBytes(64), { name: 'report.bin' });
    const asEditor = await owner.post('/api/share', { id: file.id, type: 'file', permission: 'editor' });
    expect(asEditor.statusCode).toBe(422);
    expect(asEditor.json().errors).toHaveProperty('permission');
    const link = await createShare(owner, { id: file.id, type: 'file', permission: 'visitor' });
    expect(link).toMatchObject({ item_type: 'file', permission: 'visitor' });
    const edit = await owner.patch(`/api/share/${link.token}`, { permission: 'editor' });
    expect(edit.statusCode).toBe(422);
    expect((await ownerView(link.token)).permission).toBe('visitor');
  });

  it('takes an expiry from the list (hours) or none, and refuses anything else', async () => {
    for (const hours of SHARE_EXPIRY_HOURS) {
      const link = await createShare(owner, {
        id: await folder(`Expiring ${hours}`),
        type: 'folder',
        permission: 'visitor',
        expiration: hours,
      });
      expect(link.expire_in).toBe(hours);
      expect(new Date(link.expires_at!).getTime()).toBe(clock.now().getTime() + hours * 3_600_000);
    }
    const id = await folder('Odd expiry');
    for (const expiration of [0, 3, -1, 169, 24.5, '24', 'never', 10_000]) {
      const res = await owner.post('/api/share', { id, type: 'folder', permission: 'visitor', expiration });
      expect(res.statusCode, String(expiration)).toBe(422);
      expect(res.json().errors).toHaveProperty('expiration');
    }
  });

  it('protects a link with an argon2id password, and asks for the password when it is protected', async () => {
    const id = await folder('Protected');
    const missing = await owner.post('/api/share', {
      id,
      type: 'folder',
      permission: 'visitor',
      isPassword: true,
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toHaveProperty('password');

    const link = await createShare(owner, {
      id,
      type: 'folder',
      permission: 'visitor',
      isPassword: true,
      password: 'open sesame',
    });
    expect(link.protected).toBe(true);
    const stored = await t.deps.database.db
      .selectFrom('shares')
      .select('password_hash')
      .where('token', '=', link.token)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(await ownerView(link.token))).not.toContain('argon2');
  });

  it('ends a link on a chosen day instead of after hours from the list: ahead, within a year, not both', async () => {
    const day = (days: number) => new Date(clock.now().getTime() + days * 24 * 3_600_000).toISOString();
    const link = await createShare(owner, {
      id: await folder('Until a day'),
      type: 'folder',
      permission: 'visitor',
      expires_at: day(10),
    });
    expect(link).toMatchObject({ expire_in: null, expires_at: day(10) });
    const visitor = await anonymousAgent(t.app);
    expect((await visitor.get(`/api/sharing/${link.token}`)).json().data.attributes.expires_at).toBe(day(10));

    const id = await folder('Odd days');
    for (const [expires_at, extra] of [
      [day(-1), {}],
      [day(366), {}],
      ['next tuesday', {}],
      [day(3), { expiration: 24 }],
    ] as const) {
      const res = await owner.post('/api/share', {
        id,
        type: 'folder',
        permission: 'visitor',
        expires_at,
        ...extra,
      });
      expect(res.statusCode, expires_at).toBe(422);
      expect(res.json().errors, expires_at).toHaveProperty('expires_at');
    }

    // Moved to another day, then back to a lifetime from the list.
    const moved = await owner.patch(`/api/share/${link.token}`, { expires_at: day(2) });
    expect(moved.json().data.attributes).toMatchObject({ expire_in: null, expires_at: day(2) });
    const hours = await owner.patch(`/api/share/${link.token}`, { expiration: 48 });
    expect(hours.json().data.attributes).toMatchObject({ expire_in: 48, expires_at: day(2) });
    clock.advanceHours(49);
    expect((await visitor.get(`/api/sharing/${link.token}`)).json().code).toBe('share_expired');
  });

  it('keeps what an edit leaves out — the expiry above all — and changes what it names', async () => {
    const link = await createShare(owner, {
      id: await folder('Edited'),
      type: 'folder',
      permission: 'visitor',
      isPassword: true,
      password: 'first password',
      expiration: 24,
    });
    clock.advanceHours(2);

    const permission = await owner.patch(`/api/share/${link.token}`, { permission: 'editor' });
    expect(permission.statusCode).toBe(200);
    expect(permission.json().data.attributes).toMatchObject({
      permission: 'editor',
      protected: true,
      expire_in: 24,
      expires_at: link.expires_at,
    });

    // The description's client sends the method marker on a POST; the expiry stays as well.
    const password = await owner.post(`/api/share/${link.token}`, {
      password: 'second password',
      _method: 'patch',
    });
    expect(password.statusCode).toBe(200);
    expect(password.json().data.attributes).toMatchObject({
      permission: 'editor',
      expires_at: link.expires_at,
    });

    const renewed = await owner.patch(`/api/share/${link.token}`, { expiration: 6 });
    expect(renewed.json().data.attributes).toMatchObject({
      expire_in: 6,
      expires_at: new Date(clock.now().getTime() + 6 * 3_600_000).toISOString(),
      permission: 'editor',
      protected: true,
    });

    const forever = await owner.patch(`/api/share/${link.token}`, { expiration: null, isPassword: false });
    expect(forever.json().data.attributes).toMatchObject({
      expire_in: null,
      expires_at: null,
      protected: false,
    });
  });

  it('refuses a null or unknown permission on an edit and keeps the old one', async () => {
    const link = await createShare(owner, {
      id: await folder('Kept'),
      type: 'folder',
      permission: 'visitor',
    });
    for (const permission of [null, 'master', 'EDITOR']) {
      const res = await owner.patch(`/api/share/${link.token}`, { permission });
      expect(res.statusCode, String(permission)).toBe(422);
    }
    expect((await ownerView(link.token)).permission).toBe('visitor');
  });

  it("answers 404 to a stranger for every call on someone else's link, and changes nothing", async () => {
    const id = await folder('Not yours');
    const link = await createShare(owner, { id, type: 'folder', permission: 'visitor', expiration: 24 });
    const before = await ownerView(link.token);
    const mailsBefore = smtp.messages.length;

    expect((await stranger.get(`/api/share/${link.token}`)).statusCode).toBe(404);
    expect((await stranger.patch(`/api/share/${link.token}`, { permission: 'editor' })).statusCode).toBe(404);
    expect(
      (await stranger.post(`/api/share/${link.token}`, { expiration: null, _method: 'patch' })).statusCode,
    ).toBe(404);
    expect(
      (await stranger.post(`/api/share/${link.token}/email`, { emails: ['victim@example.test'] })).statusCode,
    ).toBe(404);
    expect(
      (await stranger.post('/api/share/revoke', { tokens: [link.token], _method: 'delete' })).statusCode,
    ).toBe(404);
    expect((await stranger.post('/api/share', { id, type: 'folder', permission: 'editor' })).statusCode).toBe(
      404,
    );
    expect((await stranger.get('/api/browse/share')).json().data).toEqual([]);

    const anonymous = await anonymousAgent(t.app);
    expect((await anonymous.get(`/api/share/${link.token}`)).statusCode).toBe(401);
    expect((await anonymous.patch(`/api/share/${link.token}`, { permission: 'editor' })).statusCode).toBe(
      401,
    );

    expect(await ownerView(link.token)).toEqual(before);
    expect(smtp.messages.length).toBe(mailsBefore);
  });

  it('revokes links, all or none: a foreign token in the batch revokes nothing', async () => {
    const mine = await createShare(owner, {
      id: await folder('Revoked'),
      type: 'folder',
      permission: 'visitor',
    });
    const { agent: other } = await signedInAgent(t.app);
    const otherFolder = (await other.post('/api/create-folder', { name: 'Theirs' })).json().data.id;
    const theirs = await createShare(other, { id: otherFolder, type: 'folder', permission: 'visitor' });

    const mixed = await owner.post('/api/share/revoke', {
      tokens: [mine.token, theirs.token],
      _method: 'delete',
    });
    expect(mixed.statusCode).toBe(404);
    expect((await owner.get(`/api/share/${mine.token}`)).statusCode).toBe(200);
    expect((await other.get(`/api/share/${theirs.token}`)).statusCode).toBe(200);

    const revoked = await owner.post('/api/share/revoke', { tokens: [mine.token], _method: 'delete' });
    expect(revoked.statusCode).toBe(204);
    expect((await owner.get(`/api/share/${mine.token}`)).statusCode).toBe(404);
    expect((await (await anonymousAgent(t.app)).get(`/api/sharing/${mine.token}`)).statusCode).toBe(410);
    expect(
      (await owner.post('/api/share/revoke', { tokens: [mine.token], _method: 'delete' })).statusCode,
    ).toBe(404);
  });

  it('e-mails the link, once per address, without the password', async () => {
    const link = await createShare(owner, {
      id: await folder('Mailed'),
      type: 'folder',
      permission: 'visitor',
      isPassword: true,
      password: 'never in a mail',
    });
    const res = await owner.post(`/api/share/${link.token}/email`, {
      emails: ['friend@example.test', 'Friend@Example.test', 'colleague@example.test'],
    });
    expect(res.statusCode).toBe(204);
    const mail = await smtp.waitFor('friend@example.test');
    await smtp.waitFor('colleague@example.test');
    expect(smtp.messages.filter((m) => m.to.includes('friend@example.test'))).toHaveLength(1);
    expect(mail.subject).toContain('Mailed');
    expect(mail.text).toContain(link.link);
    expect(mail.raw).not.toContain('never in a mail');

    for (const emails of [
      [],
      ['not an address'],
      Array.from({ length: 21 }, (_, i) => `n${i}@example.test`),
    ]) {
      expect((await owner.post(`/api/share/${link.token}/email`, { emails })).statusCode).toBe(422);
    }
  });

  it('e-mails the link when it is created with addresses', async () => {
    const link = await createShare(owner, {
      id: await folder('Announced'),
      type: 'folder',
      permission: 'visitor',
      emails: ['announced@example.test'],
    });
    expect((await smtp.waitFor('announced@example.test')).text).toContain(link.link);
  });

  it("lists the owner's shared items with their links in My shared items; a revoked one leaves the list", async () => {
    const { agent } = await signedInAgent(t.app);
    const shared = (await agent.post('/api/create-folder', { name: 'Listed' })).json().data.id;
    const unshared = (await agent.post('/api/create-folder', { name: 'Unlisted' })).json().data.id;
    const binned = (await agent.post('/api/create-folder', { name: 'Binned' })).json().data.id;
    const link = await createShare(agent, {
      id: shared,
      type: 'folder',
      permission: 'editor',
      isPassword: true,
      password: 'listed secret',
      expiration: 48,
    });
    await createShare(agent, { id: binned, type: 'folder', permission: 'visitor' });
    await agent.post('/api/remove', { items: [{ id: binned, type: 'folder', force_delete: false }] });

    const list = ItemList.parse((await agent.get('/api/browse/share')).json());
    expect(list.data.map((i) => i.id)).toEqual([shared]);
    expect(list.data[0]!.relationships.shared.data).toEqual({
      token: link.token,
      permission: 'editor',
      protected: true,
      expire_in: 48,
    });
    expect(list.meta.paginate.total).toBe(1);
    expect(list.data.map((i) => i.id)).not.toContain(unshared);

    await agent.post('/api/share/revoke', { tokens: [link.token], _method: 'delete' });
    expect((await agent.get('/api/browse/share')).json().data).toEqual([]);
  });

  it("shows every item's link in listings, and a cached listing moves with every change of a link — not with its counters", async () => {
    const parent = await folder('Listing');
    const child = await folder('Child', parent);
    const url = `/api/browse/folders/${parent}`;
    const page = async () => {
      const res = await owner.get(url);
      const item = ItemList.parse(res.json()).data.find((i) => i.id === child)!;
      return { shared: item.relationships.shared.data, etag: String(res.headers.etag) };
    };
    const unshared = await page();
    expect(unshared.shared).toBeNull();

    const link = await createShare(owner, { id: child, type: 'folder', permission: 'visitor' });
    const created = await page();
    expect(created.shared).toEqual({
      token: link.token,
      permission: 'visitor',
      protected: false,
      expire_in: null,
    });

    await owner.patch(`/api/share/${link.token}`, { permission: 'editor', expiration: 12 });
    const edited = await page();
    expect(edited.shared).toMatchObject({ permission: 'editor', expire_in: 12 });
    // Inside the shared folder, the folder itself (the listing's root) shows its link too.
    const inside = ItemList.parse((await owner.get(`/api/browse/folders/${child}`)).json());
    expect(inside.meta.root?.relationships.shared.data).toMatchObject({
      token: link.token,
      permission: 'editor',
    });

    // A visitor's views count on the link but change nothing a listing shows: the page stays cached.
    const visitor = await anonymousAgent(t.app);
    expect((await visitor.get(`/api/sharing/${link.token}`)).statusCode).toBe(200);
    expect((await ownerView(link.token)).views).toBe(1);
    expect((await owner.get(url, { headers: { 'if-none-match': edited.etag } })).statusCode).toBe(304);

    await owner.post('/api/share/revoke', { tokens: [link.token], _method: 'delete' });
    const revoked = await page();
    expect(revoked.shared).toBeNull();
    expect(new Set([unshared.etag, created.etag, edited.etag]).size).toBe(3);
  });

  it('lets a link go with its item: an item deleted for good takes its link along', async () => {
    const id = await folder('Gone for good');
    const link = await createShare(owner, { id, type: 'folder', permission: 'visitor' });
    await owner.post('/api/remove', { items: [{ id, type: 'folder', force_delete: true }] });
    expect((await owner.get(`/api/share/${link.token}`)).statusCode).toBe(404);
    expect((await (await anonymousAgent(t.app)).get(`/api/sharing/${link.token}`)).statusCode).toBe(404);
  });
});
