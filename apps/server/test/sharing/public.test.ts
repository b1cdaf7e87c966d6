import { ItemDocument, ItemList, PublicShareDocument, SearchResults } from '@atelier/contracts';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/lib/tokens';
import { shareSessionCookie } from '../../src/modules/sharing/sharing.routes';
import type { TestAgent } from '../support/agent';
import { signedInAgent } from '../support/factories';
import {
  createFilesTestApp,
  filesMatrix,
  readZip,
  uploaded,
  type FilesTestApp,
} from '../files/files-harness';
import { anonymousAgent, createShare, TestClock, unlock, type ShareAttributes } from './sharing-harness';

/** Every call a visitor can make through a link, for the rules that hold on every one of them. */
function everyCall(token: string, inside: { folderId: string; fileId: string }) {
  return {
    reads: [
      `/api/sharing/file/${token}`,
      `/api/sharing/folders/all/${token}`,
      `/api/sharing/folders/${inside.folderId}/${token}`,
      `/api/sharing/navigation/${token}`,
      `/api/sharing/search/${token}?query=a`,
      `/api/sharing/zip/${token}`,
      `/file/${inside.fileId}/shared/${token}`,
      `/file/${inside.fileId}/shared/${token}?download=1`,
      `/thumbnail/xs/${inside.fileId}/shared/${token}`,
    ],
    changes: [
      [`/api/sharing/create-folder/${token}`, { name: 'Planted' }],
      [
        `/api/sharing/rename/${inside.fileId}/${token}`,
        { name: 'renamed.bin', type: 'file', _method: 'patch' },
      ],
      [
        `/api/sharing/move/${token}`,
        { to_id: inside.folderId, items: [{ id: inside.fileId, type: 'file' }] },
      ],
      [`/api/sharing/remove/${token}`, { items: [{ id: inside.fileId, type: 'file', force_delete: true }] }],
    ] as [string, Record<string, unknown>][],
  };
}

for (const [database, storage] of filesMatrix) {
  describe(`share pages: what a visitor reads [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let owner: TestAgent;
    const clock = new TestClock();
    const notes = Buffer.from('notes inside the shared folder\n'.repeat(200));
    const ids = {} as Record<
      'shared' | 'docs' | 'notes' | 'photo' | 'outside' | 'secret' | 'single' | 'nearby',
      string
    >;
    let link: ShareAttributes;

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage, {}, clock.now);
      ({ agent: owner } = await signedInAgent(t.app));
      const folder = async (name: string, parentId: string | null = null) =>
        (await owner.post('/api/create-folder', { name, parent_id: parentId })).json().data.id as string;
      ids.shared = await folder('Shared');
      ids.docs = await folder('Docs', ids.shared);
      ids.outside = await folder('Outside');
      ids.notes = (await uploaded(owner, notes, { name: 'notes.txt', parentId: ids.docs })).id;
      const png = await sharp({
        create: { width: 320, height: 200, channels: 3, background: { r: 200, g: 40, b: 40 } },
      })
        .png()
        .toBuffer();
      ids.photo = (await uploaded(owner, png, { name: 'photo.png', parentId: ids.shared })).id;
      await t.deps.thumbnails.generate(ids.photo);
      ids.secret = (
        await uploaded(owner, randomBytes(500), { name: 'secret-plan.txt', parentId: ids.outside })
      ).id;
      ids.single = (await uploaded(owner, Buffer.from('a single shared file'), { name: 'single.txt' })).id;
      ids.nearby = (await uploaded(owner, randomBytes(300), { name: 'nearby.txt' })).id;
      link = await createShare(owner, { id: ids.shared, type: 'folder', permission: 'visitor' });
    });
    afterAll(() => t.close());

    async function ownerView(token: string) {
      return (await owner.get(`/api/share/${token}`)).json().data.attributes as ShareAttributes;
    }

    it('shows the detail to anyone, counts each detail call as a view, and names the owner', async () => {
      const visitor = await anonymousAgent(t.app);
      const before = (await ownerView(link.token)).views;
      const res = await visitor.get(`/api/sharing/${link.token}`);
      expect(res.statusCode).toBe(200);
      expect(PublicShareDocument.parse(res.json()).data).toEqual({
        id: link.token,
        type: 'share',
        attributes: {
          permission: 'visitor',
          protected: false,
          item_type: 'folder',
          expire_in: null,
          expires_at: null,
          owner: { name: 'Test User', avatar: { xs: null, sm: null, md: null } },
          item_id: ids.shared,
        },
      });
      await visitor.get(`/api/sharing/${link.token}`);
      expect((await ownerView(link.token)).views).toBe(before + 2);
    });

    it('browses the shared folder as the root, with item addresses through the link and no other links', async () => {
      const inner = await createShare(owner, { id: ids.docs, type: 'folder', permission: 'editor' });
      // The owner's own marks are theirs: a visitor sees none of them.
      expect((await owner.post('/api/favourites', { ids: [ids.photo, ids.docs] })).statusCode).toBeLessThan(
        300,
      );
      const visitor = await anonymousAgent(t.app);
      const root = ItemList.parse((await visitor.get(`/api/sharing/folders/all/${link.token}`)).json());
      expect(root.meta.root?.id).toBe(ids.shared);
      expect(root.data.map((i) => i.attributes.name)).toEqual(['Docs', 'photo.png']);
      const photo = root.data.find((i) => i.id === ids.photo)!;
      expect(photo.attributes.file_url).toBe(`/file/${ids.photo}/shared/${link.token}`);
      expect(photo.attributes.thumbnail?.xs).toBe(`/thumbnail/xs/${ids.photo}/shared/${link.token}`);
      // The inner folder's own editor link would lift a visitor to editor: it never shows through a link.
      expect(JSON.stringify(root)).not.toContain(inner.token);
      expect(root.data.every((i) => i.relationships.shared.data === null)).toBe(true);
      expect(root.data.every((i) => i.relationships.favourites.data === null)).toBe(true);

      const docs = ItemList.parse(
        (await visitor.get(`/api/sharing/folders/${ids.docs}/${link.token}`)).json(),
      );
      expect(docs.data.map((i) => i.attributes.name)).toEqual(['notes.txt']);

      // Through the inner folder's own link, that folder is the root: what holds it stays unnamed.
      const innerRoot = ItemList.parse((await visitor.get(`/api/sharing/folders/all/${inner.token}`)).json());
      expect(innerRoot.meta.root).toMatchObject({ id: ids.docs, attributes: { parent_id: null } });
      expect(innerRoot.meta.root?.relationships.folder.data).toBeNull();
      expect(JSON.stringify(innerRoot)).not.toContain(ids.shared);
      await owner.post('/api/share/revoke', { tokens: [inner.token], _method: 'delete' });

      const nestedFile = await createShare(owner, { id: ids.notes, type: 'file', permission: 'visitor' });
      const file = (await visitor.get(`/api/sharing/file/${nestedFile.token}`)).json();
      expect(file.data.attributes.parent_id).toBeNull();
      expect(JSON.stringify(file)).not.toContain(ids.docs);
      await owner.post('/api/share/revoke', { tokens: [nestedFile.token], _method: 'delete' });
    });

    it("names the shared item as item_id: the link's item for a visitor, the item itself for its owner", async () => {
      const visitor = await anonymousAgent(t.app);
      const root = ItemList.parse((await visitor.get(`/api/sharing/folders/all/${link.token}`)).json());
      const docs = ItemList.parse(
        (await visitor.get(`/api/sharing/folders/${ids.docs}/${link.token}`)).json(),
      );
      for (const item of [root.meta.root!, ...root.data, ...docs.data]) {
        expect(item.attributes.item_id).toBe(ids.shared);
      }

      const top = ItemList.parse((await owner.get('/api/browse/folders/all')).json()).data;
      const itemIds = Object.fromEntries(top.map((item) => [item.attributes.name, item.attributes.item_id]));
      expect(itemIds).toMatchObject({ Shared: ids.shared, Outside: null, 'nearby.txt': null });
      const inside = ItemList.parse((await owner.get(`/api/browse/folders/${ids.shared}`)).json()).data;
      expect(inside.every((item) => item.attributes.item_id === null)).toBe(true);
    });

    it('shows the tree below the shared folder and searches inside it only', async () => {
      const visitor = await anonymousAgent(t.app);
      const tree = (await visitor.get(`/api/sharing/navigation/${link.token}`)).json();
      expect(tree).toEqual({ data: [{ id: ids.docs, name: 'Docs', emoji: null, color: null, folders: [] }] });

      const found = SearchResults.parse(
        (await visitor.get(`/api/sharing/search/${link.token}?query=t`)).json(),
      );
      expect(found.data.map((i) => i.attributes.name).sort()).toEqual(['notes.txt', 'photo.png']);
      expect((await visitor.get(`/api/sharing/search/${link.token}?query=secret`)).json().data).toEqual([]);
      expect((await visitor.get(`/api/sharing/search/${link.token}?query=shared`)).json().data).toEqual([]);
    });

    it('serves the bytes with Range, and counts only whole downloads, not previews', async () => {
      const visitor = await anonymousAgent(t.app);
      const before = (await ownerView(link.token)).downloads;
      const whole = await visitor.get(`/file/${ids.notes}/shared/${link.token}?download=1`);
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(notes)).toBe(true);
      expect(whole.headers['content-disposition']).toMatch(/^attachment;/);
      expect(whole.headers['content-security-policy']).toMatch(/^sandbox;/);

      const part = await visitor.get(`/file/${ids.notes}/shared/${link.token}`, {
        headers: { range: 'bytes=10-99' },
      });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.equals(notes.subarray(10, 100))).toBe(true);
      expect(part.headers['content-range']).toBe(`bytes 10-99/${notes.length}`);
      const fresh = await visitor.get(`/file/${ids.notes}/shared/${link.token}`, {
        headers: { 'if-none-match': String(whole.headers.etag) },
      });
      expect(fresh.statusCode).toBe(304);

      const thumbnail = await visitor.get(`/thumbnail/sm/${ids.photo}/shared/${link.token}`);
      expect(thumbnail.statusCode).toBe(200);
      expect(thumbnail.headers['content-type']).toBe('image/webp');
      // The whole file shown in the page's preview (inline) is a view of it, not a download.
      const previewed = await visitor.get(`/file/${ids.photo}/shared/${link.token}`);
      expect(previewed.statusCode).toBe(200);
      expect(previewed.headers['content-disposition']).toMatch(/^inline;/);

      expect((await ownerView(link.token)).downloads).toBe(before + 1);
    });

    it('zips all of the share, or a selection inside it, as a download', async () => {
      const visitor = await anonymousAgent(t.app);
      const before = (await ownerView(link.token)).downloads;
      const all = await visitor.get(`/api/sharing/zip/${link.token}`);
      expect(all.statusCode).toBe(200);
      expect(all.headers['content-type']).toBe('application/zip');
      const entries = readZip(all.rawPayload);
      expect([...entries.keys()].sort()).toEqual([
        'Shared/',
        'Shared/Docs/',
        'Shared/Docs/notes.txt',
        'Shared/photo.png',
      ]);
      expect(entries.get('Shared/Docs/notes.txt')!.equals(notes)).toBe(true);

      const selection = await visitor.get(`/api/sharing/zip/${link.token}?items=${ids.notes}|file`);
      expect([...readZip(selection.rawPayload).keys()]).toEqual(['notes.txt']);
      expect((await ownerView(link.token)).downloads).toBe(before + 2);
    });

    it('reaches nothing outside the shared folder, whatever id a path or a query names', async () => {
      const visitor = await anonymousAgent(t.app);
      const { agent: someoneElse } = await signedInAgent(t.app);
      const theirs = (await uploaded(someoneElse, randomBytes(100), { name: 'theirs.bin' })).id;
      for (const id of [ids.secret, ids.single, ids.nearby, theirs]) {
        for (const url of [
          `/file/${id}/shared/${link.token}`,
          `/thumbnail/xs/${id}/shared/${link.token}`,
          `/api/sharing/zip/${link.token}?items=${id}|file`,
        ]) {
          const res = await visitor.get(url);
          expect(res.statusCode, url).toBe(404);
        }
      }
      for (const url of [
        `/api/sharing/folders/${ids.outside}/${link.token}`,
        `/api/sharing/zip/${link.token}?items=${ids.outside}|folder`,
        `/api/sharing/zip/${link.token}?items=${ids.notes}|file,${ids.secret}|file`,
        `/api/sharing/file/${link.token}`,
        `/thumbnail/xs/${ids.notes}/shared/${link.token}`,
      ]) {
        expect((await visitor.get(url)).statusCode, url).toBe(404);
      }
      // `all` and anything that is not an id mean the shared folder, never the owner's root.
      for (const ref of ['all', 'root', 'null', '00000000-0000-0000-0000-000000000000']) {
        const res = await visitor.get(`/api/sharing/folders/${ref}/${link.token}`);
        expect([200, 404]).toContain(res.statusCode);
        const names =
          res.statusCode === 200 ? ItemList.parse(res.json()).data.map((i) => i.attributes.name) : [];
        expect(names).not.toContain('Outside');
        expect(names).not.toContain('single.txt');
      }
    });

    it('hides what the owner put in the trash inside the shared folder', async () => {
      const binned = (await uploaded(owner, randomBytes(50), { name: 'binned.txt', parentId: ids.shared }))
        .id;
      await owner.post('/api/remove', { items: [{ id: binned, type: 'file', force_delete: false }] });
      const visitor = await anonymousAgent(t.app);
      expect((await visitor.get(`/file/${binned}/shared/${link.token}`)).statusCode).toBe(404);
      expect((await visitor.get(`/api/sharing/zip/${link.token}?items=${binned}|file`)).statusCode).toBe(404);
      const root = ItemList.parse((await visitor.get(`/api/sharing/folders/all/${link.token}`)).json());
      expect(root.data.map((i) => i.id)).not.toContain(binned);
    });

    it('reaches only the file itself through a file link', async () => {
      const fileLink = await createShare(owner, { id: ids.single, type: 'file', permission: 'visitor' });
      const visitor = await anonymousAgent(t.app);
      const detail = PublicShareDocument.parse((await visitor.get(`/api/sharing/${fileLink.token}`)).json());
      expect(detail.data.attributes).toMatchObject({ item_type: 'file', item_id: ids.single });

      const file = ItemDocument.parse((await visitor.get(`/api/sharing/file/${fileLink.token}`)).json());
      expect(file.data.attributes).toMatchObject({
        name: 'single.txt',
        file_url: `/file/${ids.single}/shared/${fileLink.token}`,
      });
      const bytes = await visitor.get(`/file/${ids.single}/shared/${fileLink.token}`);
      expect(bytes.body).toBe('a single shared file');
      expect([
        ...readZip((await visitor.get(`/api/sharing/zip/${fileLink.token}`)).rawPayload).keys(),
      ]).toEqual(['single.txt']);
      expect((await visitor.get(`/api/sharing/navigation/${fileLink.token}`)).json()).toEqual({ data: [] });
      expect((await visitor.get(`/api/sharing/search/${fileLink.token}?query=t`)).json()).toEqual({
        data: [],
      });
      for (const url of [
        `/api/sharing/folders/all/${fileLink.token}`,
        `/file/${ids.nearby}/shared/${fileLink.token}`,
        `/file/${ids.notes}/shared/${fileLink.token}`,
        `/api/sharing/zip/${fileLink.token}?items=${ids.nearby}|file`,
      ]) {
        expect((await visitor.get(url)).statusCode, url).toBe(404);
      }
    });

    it('answers 404 on every call for a token that never existed', async () => {
      const visitor = await anonymousAgent(t.app);
      for (const token of ['A'.repeat(32), 'unknown', link.token.toLowerCase()]) {
        const calls = everyCall(token, { folderId: ids.docs, fileId: ids.notes });
        for (const url of [`/api/sharing/${token}`, ...calls.reads]) {
          expect((await visitor.get(url)).statusCode, url).toBe(404);
        }
        for (const [url, body] of calls.changes)
          expect((await visitor.post(url, body)).statusCode, url).toBe(404);
        expect((await visitor.post(`/api/sharing/authenticate/${token}`, { password: 'x' })).statusCode).toBe(
          404,
        );
      }
    });

    it('answers 410 share_revoked with the owner to ask on every call of a revoked link', async () => {
      const revoked = await createShare(owner, { id: ids.docs, type: 'folder', permission: 'editor' });
      const visitor = await anonymousAgent(t.app);
      expect((await visitor.get(`/file/${ids.notes}/shared/${revoked.token}`)).statusCode).toBe(200);
      await owner.post('/api/share/revoke', { tokens: [revoked.token], _method: 'delete' });

      const calls = everyCall(revoked.token, { folderId: ids.docs, fileId: ids.notes });
      for (const url of [`/api/sharing/${revoked.token}`, ...calls.reads]) {
        const res = await visitor.get(url);
        expect(res.statusCode, url).toBe(410);
        expect(res.json(), url).toMatchObject({
          code: 'share_revoked',
          owner: { name: 'Test User' },
          ended_at: clock.now().toISOString(),
          message: 'Test User stopped sharing this link. Ask them for a new one.',
        });
      }
      for (const [url, body] of calls.changes)
        expect((await visitor.post(url, body)).statusCode, url).toBe(410);
      // The owner no longer has it, and may share the folder again under a new link.
      expect((await owner.get(`/api/share/${revoked.token}`)).statusCode).toBe(404);
      const again = await createShare(owner, { id: ids.docs, type: 'folder', permission: 'visitor' });
      expect((await visitor.get(`/api/sharing/${again.token}`)).statusCode).toBe(200);
      await owner.post('/api/share/revoke', { tokens: [again.token], _method: 'delete' });
    });

    it('answers 410 on every call once the link expired, at once — no cron involved', async () => {
      const expiring = await createShare(owner, {
        id: ids.docs,
        type: 'folder',
        permission: 'editor',
        isPassword: true,
        password: 'short lived',
        expiration: 1,
      });
      const visitor = await anonymousAgent(t.app);
      await unlock(visitor, expiring.token, 'short lived');
      expect((await visitor.get(`/file/${ids.notes}/shared/${expiring.token}`)).statusCode).toBe(200);

      clock.advanceHours(1);
      const calls = everyCall(expiring.token, { folderId: ids.docs, fileId: ids.notes });
      for (const url of [`/api/sharing/${expiring.token}`, ...calls.reads]) {
        const res = await visitor.get(url);
        expect(res.statusCode, url).toBe(410);
        expect(res.json(), url).toMatchObject({
          code: 'share_expired',
          owner: { name: 'Test User' },
          ended_at: expiring.expires_at,
        });
      }
      for (const [url, body] of calls.changes)
        expect((await visitor.post(url, body)).statusCode, url).toBe(410);
      expect(
        (await visitor.post(`/api/sharing/authenticate/${expiring.token}`, { password: 'short lived' }))
          .statusCode,
      ).toBe(410);
      expect((await ownerView(expiring.token)).expires_at).toBe(expiring.expires_at);

      // The owner renews it; it works again for whoever still holds a session.
      await owner.patch(`/api/share/${expiring.token}`, { expiration: 24 });
      expect((await visitor.get(`/file/${ids.notes}/shared/${expiring.token}`)).statusCode).toBe(200);
      await owner.post('/api/share/revoke', { tokens: [expiring.token], _method: 'delete' });
    });
  });

  describe(`share pages: a protected link [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let owner: TestAgent;
    const clock = new TestClock();
    const PASSWORD = 'correct password';
    const bytes = randomBytes(4000);
    let folderId: string;
    let innerId: string;
    let fileId: string;
    let link: ShareAttributes;

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage, {}, clock.now);
      ({ agent: owner } = await signedInAgent(t.app));
      folderId = (await owner.post('/api/create-folder', { name: 'Locked' })).json().data.id;
      innerId = (await owner.post('/api/create-folder', { name: 'Inner', parent_id: folderId })).json().data
        .id;
      fileId = (await uploaded(owner, bytes, { name: 'locked.bin', parentId: folderId })).id;
      link = await createShare(owner, {
        id: folderId,
        type: 'folder',
        permission: 'editor',
        isPassword: true,
        password: PASSWORD,
      });
    });
    afterAll(() => t.close());

    it('answers 401 to every call but the detail and the password until the password is given — the direct file URL too', async () => {
      const visitor = await anonymousAgent(t.app);
      const calls = everyCall(link.token, { folderId: innerId, fileId });
      for (const url of calls.reads) {
        const res = await visitor.get(url);
        expect(res.statusCode, url).toBe(401);
        expect(res.rawPayload.includes(bytes.subarray(0, 64))).toBe(false);
      }
      for (const [url, body] of calls.changes)
        expect((await visitor.post(url, body)).statusCode, url).toBe(401);

      const detail = PublicShareDocument.parse((await visitor.get(`/api/sharing/${link.token}`)).json());
      expect(detail.data.attributes.protected).toBe(true);
      expect(detail.data.attributes).not.toHaveProperty('item_id');
      expect(JSON.stringify(detail)).not.toContain(folderId);
    });

    it('opens the link for this browser with the right password: an httpOnly, SameSite=Lax cookie of its own', async () => {
      const visitor = await anonymousAgent(t.app);
      const wrong = await visitor.post(`/api/sharing/authenticate/${link.token}`, { password: 'wrong' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().errors).toHaveProperty('password');
      expect(wrong.cookies).toEqual([]);

      const right = await visitor.post(`/api/sharing/authenticate/${link.token}`, { password: PASSWORD });
      expect(right.statusCode).toBe(204);
      const cookie = right.cookies.find((c) => c.name === shareSessionCookie(link.token))!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie.secure).toBeFalsy();
      // Stored hashed: the raw value is nowhere in the database.
      const stored = await t.deps.database.db.selectFrom('share_sessions').select('id').execute();
      expect(stored.map((s) => s.id)).not.toContain(cookie.value);

      expect((await visitor.get(`/file/${fileId}/shared/${link.token}`)).rawPayload.equals(bytes)).toBe(true);
      expect((await visitor.get(`/api/sharing/folders/all/${link.token}`)).statusCode).toBe(200);
      const detail = PublicShareDocument.parse((await visitor.get(`/api/sharing/${link.token}`)).json());
      expect(detail.data.attributes.item_id).toBe(folderId);

      // Another browser still has to give the password.
      expect(
        (await (await anonymousAgent(t.app)).get(`/file/${fileId}/shared/${link.token}`)).statusCode,
      ).toBe(401);
    });

    it('keeps a session to its own link: the cookie of one link opens no other', async () => {
      const visitor = await anonymousAgent(t.app);
      await unlock(visitor, link.token, PASSWORD);
      const otherFolder = (await owner.post('/api/create-folder', { name: 'Other locked' })).json().data.id;
      const other = await createShare(owner, {
        id: otherFolder,
        type: 'folder',
        permission: 'visitor',
        isPassword: true,
        password: PASSWORD,
      });
      visitor.setCookie(shareSessionCookie(other.token), visitor.cookie(shareSessionCookie(link.token))!);
      expect((await visitor.get(`/api/sharing/folders/all/${other.token}`)).statusCode).toBe(401);
    });

    it('ends every session opened with the old password when the password changes, or is removed and set again', async () => {
      const visitor = await anonymousAgent(t.app);
      await unlock(visitor, link.token, PASSWORD);
      expect((await visitor.get(`/api/sharing/folders/all/${link.token}`)).statusCode).toBe(200);

      await owner.patch(`/api/share/${link.token}`, { password: 'a new password' });
      expect((await visitor.get(`/api/sharing/folders/all/${link.token}`)).statusCode).toBe(401);
      expect((await visitor.get(`/file/${fileId}/shared/${link.token}`)).statusCode).toBe(401);
      expect(
        (await visitor.post(`/api/sharing/authenticate/${link.token}`, { password: PASSWORD })).statusCode,
      ).toBe(401);
      await unlock(visitor, link.token, 'a new password');
      expect((await visitor.get(`/api/sharing/folders/all/${link.token}`)).statusCode).toBe(200);

      // Removed and set again, the same password opens nothing that was opened before.
      const kept = visitor.cookie(shareSessionCookie(link.token))!;
      await owner.patch(`/api/share/${link.token}`, { isPassword: false });
      expect(
        (await (await anonymousAgent(t.app)).get(`/api/sharing/folders/all/${link.token}`)).statusCode,
      ).toBe(200);
      await owner.patch(`/api/share/${link.token}`, { isPassword: true, password: PASSWORD });
      const returning = await anonymousAgent(t.app);
      returning.setCookie(shareSessionCookie(link.token), kept);
      expect((await returning.get(`/api/sharing/folders/all/${link.token}`)).statusCode).toBe(401);

      // A password given while the owner changed it is stored with the version it was checked against,
      // and that version no longer opens the link.
      const { password_version: current } = await t.deps.database.db
        .selectFrom('shares')
        .select('password_version')
        .where('token', '=', link.token)
        .executeTakeFirstOrThrow();
      const raced = 'a session value stored in the race';
      await t.deps.database.db
        .insertInto('share_sessions')
        .values({
          id: hashToken(raced),
          token: link.token,
          password_version: current - 1,
          created_at: clock.now().toISOString(),
          expires_at: new Date(clock.now().getTime() + 3_600_000).toISOString(),
        })
        .execute();
      const racer = await anonymousAgent(t.app);
      racer.setCookie(shareSessionCookie(link.token), raced);
      expect((await racer.get(`/api/sharing/folders/all/${link.token}`)).statusCode).toBe(401);
    });

    it("keeps the session within its own lifetime and the link's expiry", async () => {
      const visitor = await anonymousAgent(t.app);
      await unlock(visitor, link.token, PASSWORD);
      clock.advanceHours(25);
      expect((await visitor.get(`/api/sharing/folders/all/${link.token}`)).statusCode).toBe(401);
    });

    it('refuses the sixth wrong password in a minute with 429 — counted before checking, the right one included', async () => {
      const guesser = await anonymousAgent(t.app, '203.0.113.7');
      for (let i = 0; i < 5; i++) {
        expect(
          (await guesser.post(`/api/sharing/authenticate/${link.token}`, { password: `guess ${i}` }))
            .statusCode,
        ).toBe(401);
      }
      const blocked = await guesser.post(`/api/sharing/authenticate/${link.token}`, { password: PASSWORD });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toMatch(/Try again in \d+ seconds/);
      expect(blocked.cookies).toEqual([]);

      // Another address is not held back by this one's guesses.
      const neighbour = await anonymousAgent(t.app, '203.0.113.8');
      await unlock(neighbour, link.token, PASSWORD);

      clock.advanceSeconds(61);
      await unlock(guesser, link.token, PASSWORD);
    });

    it('checks at most five passwords when fifty guesses arrive at once', async () => {
      const guesser = await anonymousAgent(t.app, '198.51.100.9');
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          guesser.post(`/api/sharing/authenticate/${link.token}`, { password: `parallel ${i}` }),
        ),
      );
      const counts = answers.reduce<Record<number, number>>((acc, a) => {
        acc[a.statusCode] = (acc[a.statusCode] ?? 0) + 1;
        return acc;
      }, {});
      expect(counts).toEqual({ 401: 5, 429: 45 });
    });
  });
}
