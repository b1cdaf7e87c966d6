import { ItemList, VersionList } from '@atelier/contracts';
import { createCipheriv, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { periodicTasks } from '../../src/jobs/periodic-tasks';
import type { TestAgent } from '../support/agent';
import { databaseKinds } from '../support/databases';
import { createUser, signedInAgent } from '../support/factories';
import { basic } from '../webdav/webdav-harness';
import { createFilesTestApp, filesMatrix, uploaded, uploadFile, type FilesTestApp } from './files-harness';

const DAY = 24 * 60 * 60_000;
const MiB = 1024 * 1024;

for (const [database, storage] of filesMatrix) {
  describe(`versions [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let agent: TestAgent;
    let owner: UserRow;
    let now = new Date('2026-03-01T10:00:00Z');

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage, {}, () => now);
      ({ agent, user: owner } = await signedInAgent(t.app));
    });
    afterAll(() => t.close());

    const folder = async (name: string) =>
      (await agent.post('/api/create-folder', { name })).json().data.id as string;
    const versions = async (id: string, as = agent) => {
      const answer = await as.get(`/api/files/${id}/versions`);
      expect(answer.statusCode).toBe(200);
      return VersionList.parse(answer.json()).data;
    };
    const bytesOf = async (url: string) => (await agent.get(url)).rawPayload;
    const used = async (userId = owner.id) => (await t.deps.limits.of(userId)).used;
    const names = async (folderId: string) =>
      ItemList.parse((await agent.get(`/api/browse/folders/${folderId}`)).json())
        .data.map((item) => item.attributes.name)
        .sort();

    it('keeps both by default: a name the folder holds becomes name (1).ext, name (2).ext', async () => {
      const box = await folder('Keep both');
      const first = await uploaded(agent, Buffer.from('one'), { name: 'plan.step', parentId: box });
      const second = await uploaded(agent, Buffer.from('two'), { name: 'plan.step', parentId: box });
      const third = await uploaded(agent, Buffer.from('three'), {
        name: 'plan.step',
        parentId: box,
        conflict: 'keep-both',
      });
      expect([first, second, third].map((file) => file.attributes.name)).toEqual([
        'plan.step',
        'plan (1).step',
        'plan (2).step',
      ]);
      expect(await names(box)).toEqual(['plan (1).step', 'plan (2).step', 'plan.step']);
      // A folder of that name is never replaced by a file.
      await agent.post('/api/create-folder', { name: 'notes', parent_id: box });
      const beside = await uploaded(agent, Buffer.from('x'), {
        name: 'notes',
        parentId: box,
        conflict: 'replace',
      });
      expect(beside.attributes.name).toBe('notes (1)');
    });

    it('replace keeps the file and its id; the bytes it had become a version, listed and downloadable', async () => {
      const box = await folder('Replace');
      const before = await used();
      const v1 = randomBytes(3000);
      const v2 = randomBytes(2000);
      const file = await uploaded(agent, v1, { name: 'model.stl', parentId: box });
      now = new Date(now.getTime() + 60_000);
      const replaced = await uploaded(agent, v2, { name: 'model.stl', parentId: box, conflict: 'replace' });
      expect(replaced.id).toBe(file.id);
      expect(await names(box)).toEqual(['model.stl']);
      expect(Buffer.compare(await bytesOf(`/file/${file.id}`), v2)).toBe(0);

      const list = await versions(file.id);
      expect(list.map((v) => [v.attributes.current, v.attributes.size])).toEqual([
        [true, 2000],
        [false, 3000],
      ]);
      expect(list[0]!.attributes.author.name).toBe(owner.name);
      expect(Buffer.compare(await bytesOf(`/api/files/${file.id}/versions/${list[1]!.id}`), v1)).toBe(0);
      const ranged = await agent.get(`/api/files/${file.id}/versions/${list[1]!.id}?download=1`, {
        headers: { range: 'bytes=10-19' },
      });
      expect(ranged.statusCode).toBe(206);
      expect(ranged.headers['content-disposition']).toMatch(/^attachment/);
      expect(Buffer.compare(ranged.rawPayload, v1.subarray(10, 20))).toBe(0);
      // Both contents count against the owner's storage.
      expect(await used()).toBe(before + 5000);
    });

    it('restore brings a version back and keeps the current bytes as a version; the current one is 422', async () => {
      const box = await folder('Restore');
      const v1 = Buffer.from('first save');
      const file = await uploaded(agent, v1, { name: 'a.txt', parentId: box });
      await uploaded(agent, Buffer.from('second save'), {
        name: 'a.txt',
        parentId: box,
        conflict: 'replace',
      });
      await uploaded(agent, Buffer.from('third save!'), {
        name: 'a.txt',
        parentId: box,
        conflict: 'replace',
      });
      const [current, second, first] = await versions(file.id);
      const usedBefore = await used();

      const restored = await agent.post(`/api/files/${file.id}/versions/${first!.id}/restore`);
      expect(restored.statusCode).toBe(200);
      expect(restored.json().data).toMatchObject({
        id: file.id,
        attributes: { name: 'a.txt', filesize: v1.length },
      });
      expect((await bytesOf(`/file/${file.id}`)).toString()).toBe('first save');
      const after = await versions(file.id);
      expect(after[0]).toMatchObject({ id: first!.id, attributes: { current: true } });
      expect(
        after
          .slice(1)
          .map((v) => v.id)
          .sort(),
      ).toEqual([current!.id, second!.id].sort());
      expect(await used()).toBe(usedBefore);

      for (const [method, url] of [
        ['POST', `/api/files/${file.id}/versions/${first!.id}/restore`],
        ['DELETE', `/api/files/${file.id}/versions/${first!.id}`],
      ] as const) {
        const refused = await agent.request(method, url);
        expect(refused.statusCode).toBe(422);
      }
      expect((await agent.delete(`/api/files/${file.id}/versions/unknown-version`)).statusCode).toBe(404);
    });

    it('delete removes one version and its bytes, and frees its room', async () => {
      const file = await uploaded(agent, randomBytes(1000), { name: 'del.bin' });
      await uploaded(agent, randomBytes(400), { name: 'del.bin', conflict: 'replace' });
      const [, old] = await versions(file.id);
      const objects = (await t.storedObjects()).length;
      const before = await used();
      expect((await agent.delete(`/api/files/${file.id}/versions/${old!.id}`)).statusCode).toBe(204);
      expect((await versions(file.id)).map((v) => v.attributes.current)).toEqual([true]);
      expect(await used()).toBe(before - 1000);
      expect((await t.storedObjects()).length).toBe(objects - 1);
      expect((await agent.get(`/api/files/${file.id}/versions/${old!.id}`)).statusCode).toBe(404);
    });

    it('a WebDAV PUT onto a file keeps the bytes it had as a version', async () => {
      const { password } = await t.deps.appPasswords.create(owner.id, { name: 'dav' });
      const auth = basic(owner.email, password);
      const put = (body: string) =>
        t.app.inject({
          method: 'PUT',
          url: '/dav/files/dav-doc.txt',
          payload: body,
          headers: { authorization: auth },
        });
      expect((await put('from dav 1')).statusCode).toBe(201);
      expect((await put('from dav 2')).statusCode).toBe(204);
      const item = await t.deps.items.findLiveChild(owner.id, null, 'dav-doc.txt');
      const list = await versions(item!.id);
      expect(list).toHaveLength(2);
      expect((await bytesOf(`/api/files/${item!.id}/versions/${list[1]!.id}`)).toString()).toBe('from dav 1');
    });

    it('the trash keeps a file with its versions; purging it deletes every byte', async () => {
      const file = await uploaded(agent, randomBytes(500), { name: 'trashed.bin' });
      await uploaded(agent, randomBytes(600), { name: 'trashed.bin', conflict: 'replace' });
      const objects = (await t.storedObjects()).length;
      const before = await used();
      const remove = (force: boolean) =>
        agent.post('/api/remove', { items: [{ id: file.id, type: 'file', force_delete: force }] });
      expect((await remove(false)).statusCode).toBe(204);
      expect(
        (await agent.post('/api/trash/restore', { to_home: false, items: [{ id: file.id, type: 'file' }] }))
          .statusCode,
      ).toBe(204);
      expect(await versions(file.id)).toHaveLength(2);
      expect(await used()).toBe(before);
      expect((await remove(false)).statusCode).toBe(204);
      expect((await remove(true)).statusCode).toBe(204);
      expect(await used()).toBe(before - 1100);
      expect((await t.storedObjects()).length).toBe(objects - 2);
    });

    it('retention keeps every version for keep_all_days, then one a day until keep_daily_days', async () => {
      const retention = periodicTasks(t.deps).find((task) => task.name === 'files.version-retention')!;
      const start = new Date('2026-04-01T08:00:00Z');
      now = start;
      const { agent: saver } = await signedInAgent(t.app, owner);
      const file = await uploaded(saver, Buffer.from('v1'), { name: 'kept.txt' });
      const save = async (text: string, at: Date) => {
        now = at;
        await uploaded(saver, Buffer.from(text), { name: 'kept.txt', conflict: 'replace' });
      };
      await save('v2', new Date(start.getTime() + 60_000)); // v1 kept at 08:01
      await save('v3', new Date(start.getTime() + 3 * 60 * 60_000)); // v2 kept at 11:00, same day
      await save('v4', new Date(start.getTime() + 2 * DAY)); // v3 kept two days later
      // Later, the person signs in again to look.
      const look = async (at: Date) => {
        now = at;
        await retention.run(at);
        const { agent: later } = await signedInAgent(t.app, owner);
        return versions(file.id, later);
      };
      const kept = async (at: Date) => (await look(at)).filter((v) => !v.attributes.current).length;

      expect(await kept(new Date(start.getTime() + 29 * DAY))).toBe(3);
      // Of the first day only the newest stays.
      const list = await look(new Date(start.getTime() + 40 * DAY));
      expect(list.slice(1).map((v) => v.attributes.size)).toEqual([2, 2]);
      const { agent: later } = await signedInAgent(t.app, owner);
      expect((await later.get(`/api/files/${file.id}/versions/${list[2]!.id}`)).body).toBe('v2');
      expect(await kept(new Date(start.getTime() + 200 * DAY))).toBe(0);
    });
  });
}

for (const database of databaseKinds)
  describe(`versions and the quota [${database}]`, () => {
    let t: FilesTestApp;
    let now = new Date('2026-05-01T10:00:00Z');
    beforeAll(async () => {
      t = await createFilesTestApp(database, 'local', {}, () => now);
    });
    afterAll(() => t.close());

    it('an upload that needs room lets the oldest versions go, never one of the last day, and says so', async () => {
      const { user } = await createUser(t.deps, { storageCapacity: 10_000 });
      const { agent } = await signedInAgent(t.app, user);
      const file = await uploaded(agent, randomBytes(4000), { name: 'big.bin' });
      await uploaded(agent, randomBytes(4000), { name: 'big.bin', conflict: 'replace' });
      // 8,000 used with the version: a new file of 4,000 does not fit while the version is recent.
      const refused = await uploadFile(agent, randomBytes(4000), { name: 'other.bin' });
      expect(refused.at(-1)!.statusCode, refused.at(-1)!.body).toBe(423);
      expect(
        await t.deps.database.db
          .selectFrom('file_versions')
          .select('id')
          .where('item_id', '=', file.id)
          .execute(),
      ).toHaveLength(1);

      now = new Date(now.getTime() + 2 * 24 * 60 * 60_000);
      await uploaded(agent, randomBytes(4000), { name: 'other.bin' });
      const list = VersionList.parse((await agent.get(`/api/files/${file.id}/versions`)).json()).data;
      expect(list.map((v) => v.attributes.current)).toEqual([true]);
      expect((await t.deps.limits.of(user.id)).used).toBe(8000);
      const notices = await t.deps.database.db
        .selectFrom('notifications')
        .select(['category', 'title', 'description'])
        .where('user_id', '=', user.id)
        .execute();
      // One version went: said in the singular.
      expect(notices.filter((n) => n.category === 'versions-removed')).toEqual([
        {
          category: 'versions-removed',
          title: 'Old versions removed',
          description: 'To make room for your upload, the oldest version of your files was deleted.',
        },
      ]);
    });

    it('lets no version go for an upload its type refuses', async () => {
      const { user } = await createUser(t.deps, { storageCapacity: 10_000 });
      const { agent } = await signedInAgent(t.app, user);
      const file = await uploaded(agent, randomBytes(4000), { name: 'kept.bin' });
      await uploaded(agent, randomBytes(4000), { name: 'kept.bin', conflict: 'replace' });
      now = new Date(now.getTime() + 2 * 24 * 60 * 60_000);
      await t.deps.settings.set({ mimetypes_blacklist: ['application/x-msdownload'] });
      try {
        // 4,000 bytes with 2,000 free: room would be made by letting the version go, were the type allowed.
        const exe = Buffer.concat([Buffer.from('MZ'), randomBytes(3998)]);
        const answers = await uploadFile(agent, exe, { name: 'holiday.jpg' });
        expect(answers.map((a) => a.statusCode)).toEqual([422]);
      } finally {
        await t.deps.settings.set({ mimetypes_blacklist: [] });
      }
      expect(await versionCount(t, file.id)).toBe(1);
      expect((await noticeCategories(t, user.id)).filter((c) => c === 'versions-removed')).toEqual([]);
    });

    it("tells the owner in the language they chose, whatever the instance's, in the form the count takes", async () => {
      await t.deps.languages.add({ locale: 'de', name: 'Deutsch' });
      for (const [key, value] of [
        ['notifications.versions_removed.title', 'Alte Versionen gelöscht'],
        [
          'notifications.versions_removed.description_other',
          'Für deinen Upload wurden {{count}} alte Versionen gelöscht.',
        ],
      ])
        await t.deps.languages.update('de', { key: key!, value: value! });
      const { user } = await createUser(t.deps, { storageCapacity: 10_000 });
      const { agent } = await signedInAgent(t.app, user);
      const chose = await agent.post('/api/user/settings', { _method: 'patch', name: 'locale', value: 'de' });
      expect(chose.statusCode, chose.body).toBeLessThan(300);
      await uploaded(agent, randomBytes(3000), { name: 'draft.bin' });
      await uploaded(agent, randomBytes(3000), { name: 'draft.bin', conflict: 'replace' });
      await uploaded(agent, randomBytes(2000), { name: 'draft.bin', conflict: 'replace' });
      now = new Date(now.getTime() + 2 * 24 * 60 * 60_000);
      // 8,000 used (2,000 and two versions of 3,000): a file of 6,000 lacks 4,000, both versions' bytes.
      await uploaded(agent, randomBytes(6000), { name: 'final.bin' });

      const notices = await t.deps.database.db
        .selectFrom('notifications')
        .select(['title', 'description'])
        .where('user_id', '=', user.id)
        .where('category', '=', 'versions-removed')
        .execute();
      expect(notices).toEqual([
        {
          title: 'Alte Versionen gelöscht',
          description: 'Für deinen Upload wurden 2 alte Versionen gelöscht.',
        },
      ]);
      // The instance still speaks English to everyone else.
      expect(await t.deps.settings.get('locale')).toBe('en');
      expect(await t.deps.i18n.translate('notifications.versions_removed.title')).toBe(
        'Old versions removed',
      );
    });

    it('lets no version go when all it could free would still not make room', async () => {
      const { user } = await createUser(t.deps, { storageCapacity: 10_000 });
      const { agent } = await signedInAgent(t.app, user);
      const file = await uploaded(agent, randomBytes(4000), { name: 'kept.bin' });
      await uploaded(agent, randomBytes(4000), { name: 'kept.bin', conflict: 'replace' });
      now = new Date(now.getTime() + 2 * 24 * 60 * 60_000);
      // 2,000 free and 4,000 in an old version: a file of 7,000 cannot fit, so the version stays.
      const refused = await uploadFile(agent, randomBytes(7000), { name: 'huge.bin' });
      expect(refused.at(-1)!.statusCode, refused.at(-1)!.body).toBe(423);
      const list = VersionList.parse((await agent.get(`/api/files/${file.id}/versions`)).json()).data;
      expect(list).toHaveLength(2);
      expect(await noticeCategories(t, user.id)).not.toContain('versions-removed');
    });

    it('asks the versions only for the bytes the quota lacks, not for the whole upload', async () => {
      const { user } = await createUser(t.deps, { storageCapacity: 10_000 });
      const { agent } = await signedInAgent(t.app, user);
      const file = await uploaded(agent, randomBytes(1500), { name: 'sketch.bin' });
      await uploaded(agent, randomBytes(6500), { name: 'sketch.bin', conflict: 'replace' });
      now = new Date(now.getTime() + 2 * DAY);
      // 8,000 used, 1,500 of them the version's: a file of 3,000 lacks 1,000, which the version frees.
      await uploaded(agent, randomBytes(3000), { name: 'notes.bin' });
      const list = VersionList.parse((await agent.get(`/api/files/${file.id}/versions`)).json()).data;
      expect(list.map((v) => v.attributes.current)).toEqual([true]);
      expect((await t.deps.limits.of(user.id)).used).toBe(9500);
    });

    /** An account of 10,000 bytes holding a file of 4,000 and a version of 4,000; its WebDAV Basic header. */
    const nearlyFull = async (name: string) => {
      const { user } = await createUser(t.deps, { storageCapacity: 10_000 });
      const { agent } = await signedInAgent(t.app, user);
      const file = await uploaded(agent, randomBytes(4000), { name });
      await uploaded(agent, randomBytes(4000), { name, conflict: 'replace' });
      const { password } = await t.deps.appPasswords.create(user.id, { name: 'dav' });
      return { user, file, auth: basic(user.email, password) };
    };
    /** The version went to make room for 4,000 more bytes, and the owner was told. */
    const expectRoomMade = async (userId: string, fileId: string) => {
      expect(await versionCount(t, fileId)).toBe(0);
      expect((await t.deps.limits.of(userId)).used).toBe(8000);
      expect(await noticeCategories(t, userId)).toContain('versions-removed');
    };

    it('a WebDAV COPY that needs room lets the oldest versions go, as an upload does', async () => {
      const { user, file, auth } = await nearlyFull('base.step');
      const copy = () =>
        t.app.inject({
          method: 'COPY' as 'GET',
          url: '/dav/files/base.step',
          headers: { authorization: auth, destination: '/dav/files/copy.step' },
        });
      // 8,000 used with the version: a copy of 4,000 does not fit while the version is recent.
      expect((await copy()).statusCode).toBe(507);
      now = new Date(now.getTime() + 2 * DAY);
      const copied = await copy();
      expect(copied.statusCode, copied.body).toBe(201);
      await expectRoomMade(user.id, file.id);
    });

    it('a WebDAV PUT whose announced size needs room is let in while old versions could make it', async () => {
      const { user, file, auth } = await nearlyFull('fixture.step');
      const put = () =>
        t.app.inject({
          method: 'PUT',
          url: '/dav/files/jig.step',
          payload: randomBytes(4000),
          headers: { authorization: auth, 'content-length': '4000' },
        });
      // 8,000 used with the version: refused before its bytes while the version is recent.
      expect((await put()).statusCode).toBe(507);
      expect(await versionCount(t, file.id)).toBe(1);
      now = new Date(now.getTime() + 2 * DAY);
      const stored = await put();
      expect(stored.statusCode, stored.body).toBe(201);
      await expectRoomMade(user.id, file.id);
    });

    it('lets no version go for bytes asked ahead of those sent: an upload that fits keeps them all', async () => {
      const { user } = await createUser(t.deps, { storageCapacity: 2.5 * MiB });
      const { agent } = await signedInAgent(t.app, user);
      const file = await uploaded(agent, randomBytes(MiB), { name: 'housing.step' });
      await uploaded(agent, randomBytes(MiB), { name: 'housing.step', conflict: 'replace' });
      now = new Date(now.getTime() + 2 * DAY);
      // Half a MiB free: a chunk holds a MiB ahead while it can, but 10 KB fit without the version.
      await uploaded(agent, randomBytes(10_000), { name: 'label.txt' });
      expect(await versionCount(t, file.id)).toBe(1);
      expect((await t.deps.limits.of(user.id)).used).toBe(2 * MiB + 10_000);
      expect(await noticeCategories(t, user.id)).not.toContain('versions-removed');
    });
  });

/** The categories of the notifications the user got, oldest first. */
const noticeCategories = async (t: FilesTestApp, userId: string) =>
  (
    await t.deps.database.db
      .selectFrom('notifications')
      .select('category')
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute()
  ).map((n) => n.category);

/** How many versions, besides its current bytes, the file keeps. */
const versionCount = async (t: FilesTestApp, fileId: string) =>
  (await t.deps.database.db.selectFrom('file_versions').select('id').where('item_id', '=', fileId).execute())
    .length;

/** Noise fixed by `seed`: where the chunker cuts it, and so which blocks an edit changes, is the same on every run. */
const noise = (seed: number, length: number) =>
  createCipheriv('aes-128-ctr', Buffer.alloc(16, seed), Buffer.alloc(16)).update(Buffer.alloc(length));

for (const [database, storage] of filesMatrix) {
  describe(`versions count by their unique bytes [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let now = new Date('2026-06-01T10:00:00Z');
    beforeAll(async () => {
      t = await createFilesTestApp(database, storage, { chunk_size: 2 * MiB }, () => now);
    });
    afterAll(() => t.close());

    const db = () => t.deps.database.db;
    const contentIdOf = async (itemId: string) =>
      (await db().selectFrom('items').select('content_id').where('id', '=', itemId).executeTakeFirstOrThrow())
        .content_id!;
    const blockify = async (itemId: string) => {
      const content = await db()
        .selectFrom('file_contents')
        .select('storage_key')
        .where('id', '=', await contentIdOf(itemId))
        .executeTakeFirstOrThrow();
      expect(await t.deps.blockifier.blockify(content.storage_key)).toBe('blocks');
    };
    /** The bytes of the blocks of `contentId` that `currentId` does not hold. */
    const onlyIn = async (contentId: string, currentId: string) => {
      const blocks = (id: string) =>
        db()
          .selectFrom('content_blocks')
          .innerJoin('blocks', 'blocks.id', 'content_blocks.block_id')
          .select(['blocks.id', 'blocks.size'])
          .where('content_id', '=', id)
          .execute();
      const current = new Set((await blocks(currentId)).map((b) => b.id));
      const unique = new Map(
        (await blocks(contentId)).filter((b) => !current.has(b.id)).map((b) => [b.id, b.size]),
      );
      return [...unique.values()].reduce((sum, size) => sum + Number(size), 0);
    };
    /** A save of `data` changing 4 KiB in the middle. */
    const edited = (data: Buffer) => {
      const copy = Buffer.from(data);
      noise(99, 4096).copy(copy, copy.length >> 1);
      return copy;
    };

    it('a version of a file made blocks counts only the blocks the current bytes lack; room is counted in them', async () => {
      const { user } = await createUser(t.deps, { storageCapacity: 18 * MiB });
      const { agent } = await signedInAgent(t.app, user);
      const used = async () => (await t.deps.limits.of(user.id)).used;
      const first = noise(1, 8 * MiB);
      const file = await uploaded(agent, first, { name: 'model.step', chunkSize: 2 * MiB });
      await blockify(file.id);
      const firstContent = await contentIdOf(file.id);
      await uploaded(agent, edited(first), { name: 'model.step', chunkSize: 2 * MiB, conflict: 'replace' });
      // Until the new bytes are blocks too, the version shares nothing with them: it counts whole.
      expect(await used()).toBe(16 * MiB);
      await blockify(file.id);
      const unique = await onlyIn(firstContent, await contentIdOf(file.id));
      expect(unique).toBeGreaterThan(0);
      expect(unique).toBeLessThan(4 * MiB);
      expect(await used()).toBe(8 * MiB + unique);

      // A third save: the two versions' blocks are counted once each, the shared ones not at all. It
      // changes 2 MiB, so the version it leaves holds 2 MiB or more of its own, whatever the blocks'
      // sizes.
      const second = edited(first);
      noise(98, 2 * MiB).copy(second, 1024);
      await uploaded(agent, second, { name: 'model.step', chunkSize: 2 * MiB, conflict: 'replace' });
      await blockify(file.id);
      const counted = await used();
      expect(counted).toBeLessThan(8 * MiB + 2 * unique + 4 * MiB);
      const usage = await db()
        .selectFrom('storage_usage')
        .select(sql<number | string>`version_bytes`.as('versions'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(Number(usage.versions)).toBe(counted - 8 * MiB);

      // Room asked of versions is counted in what they free: more than all their unique bytes, none go.
      now = new Date(now.getTime() + 2 * DAY);
      const kept = counted - 8 * MiB;
      expect(await t.deps.versions.makeRoom(user.id, kept + 1)).toBe(0);
      expect([await versionCount(t, file.id), await used()]).toEqual([2, counted]);
      // Less than the oldest's unique bytes: the oldest goes, and what it freed is what the count lost.
      const freed = await t.deps.versions.makeRoom(user.id, 1);
      expect(freed).toBeGreaterThan(0);
      expect(freed).toBeLessThan(4 * MiB);
      expect([await versionCount(t, file.id), await used()]).toEqual([1, counted - freed]);

      // An upload that fits once the last version goes: it goes, and the owner is told.
      await uploaded(agent, noise(4, 18 * MiB - (counted - freed) + 1024), {
        name: 'fits.bin',
        chunkSize: 2 * MiB,
      });
      expect(await versionCount(t, file.id)).toBe(0);
      expect(await used()).toBeLessThanOrEqual(18 * MiB);
      expect((await noticeCategories(t, user.id)).filter((c) => c === 'versions-removed')).toHaveLength(2);
    });

    it('a file deleted for good hands the blocks a version of another file shares to the versions at once', async () => {
      const { user } = await createUser(t.deps, { storageCapacity: 16 * MiB });
      const { agent } = await signedInAgent(t.app, user);
      const used = async () => (await t.deps.limits.of(user.id)).used;
      const versionBytes = async () =>
        Number(
          (
            await db()
              .selectFrom('storage_usage')
              .select(sql<number | string>`version_bytes`.as('bytes'))
              .where('user_id', '=', user.id)
              .executeTakeFirstOrThrow()
          ).bytes,
        );
      const bytes = noise(6, 6 * MiB);
      const parts = (await agent.post('/api/create-folder', { name: 'Parts' })).json().data.id as string;
      const original = await uploaded(agent, bytes, {
        name: 'bracket.step',
        parentId: parts,
        chunkSize: 2 * MiB,
      });
      await blockify(original.id);
      // The same bytes under another name (the same blocks, stored once), then replaced: its version
      // names the original's blocks, which the original's current bytes count.
      const copy = await uploaded(agent, bytes, { name: 'bracket copy.step', chunkSize: 2 * MiB });
      await blockify(copy.id);
      await uploaded(agent, noise(7, 2 * MiB), {
        name: 'bracket copy.step',
        chunkSize: 2 * MiB,
        conflict: 'replace',
      });
      expect([await used(), await versionBytes()]).toEqual([8 * MiB, 0]);

      // The folder trashed, then the trash emptied: the blocks are the version's alone, and count so.
      const trashed = await agent.post('/api/remove', {
        items: [{ id: parts, type: 'folder', force_delete: false }],
      });
      expect(trashed.statusCode).toBe(204);
      expect(await used()).toBe(8 * MiB);
      expect((await agent.delete('/api/trash/dump')).statusCode).toBe(204);
      expect([await used(), await versionBytes()]).toEqual([8 * MiB, 6 * MiB]);
      // The quota decides by it: 9 MiB more do not fit (the version, of the last day, may not go).
      const refused = await uploadFile(agent, noise(8, 9 * MiB), { name: 'more.bin', chunkSize: 2 * MiB });
      expect(refused.at(-1)!.statusCode, refused.at(-1)!.body).toBe(423);
    });

    it('refuses a restore that would take the usage past the capacity, changing nothing', async () => {
      const capacity = 12 * MiB;
      const { user } = await createUser(t.deps, { storageCapacity: capacity });
      const { agent } = await signedInAgent(t.app, user);
      const used = async () => (await t.deps.limits.of(user.id)).used;
      // Blank bytes are the same block over and over: as a version they count that block once, as
      // the current bytes they count whole.
      const file = await uploaded(agent, Buffer.alloc(8 * MiB), { name: 'blank.step', chunkSize: 2 * MiB });
      await blockify(file.id);
      await uploaded(agent, Buffer.from('x'), {
        name: 'blank.step',
        chunkSize: 2 * MiB,
        conflict: 'replace',
      });
      expect(await used()).toBeLessThanOrEqual(4 * MiB + 1);
      await uploaded(agent, noise(11, capacity - (await used()) - 1024), {
        name: 'fill.bin',
        chunkSize: 2 * MiB,
      });
      const before = { used: await used(), versions: await versionCount(t, file.id) };
      const [, blank] = VersionList.parse((await agent.get(`/api/files/${file.id}/versions`)).json()).data;

      const refused = await agent.post(`/api/files/${file.id}/versions/${blank!.id}/restore`);
      expect(refused.statusCode).toBe(423);
      expect({ used: await used(), versions: await versionCount(t, file.id) }).toEqual(before);
      expect((await agent.get(`/file/${file.id}`)).body).toBe('x');
    });

    it('deleting a version frees its unique bytes only; the trash and its purge keep the count true', async () => {
      const { user } = await createUser(t.deps);
      const { agent } = await signedInAgent(t.app, user);
      const used = async () => (await t.deps.limits.of(user.id)).used;
      const first = noise(5, 6 * MiB);
      const file = await uploaded(agent, first, { name: 'part.step', chunkSize: 2 * MiB });
      await blockify(file.id);
      await uploaded(agent, edited(first), { name: 'part.step', chunkSize: 2 * MiB, conflict: 'replace' });
      await blockify(file.id);
      const [, old] = VersionList.parse((await agent.get(`/api/files/${file.id}/versions`)).json()).data;
      const unique = await onlyIn(old!.id, await contentIdOf(file.id));
      expect(await used()).toBe(6 * MiB + unique);
      // Restoring swaps which bytes are current: the count follows.
      expect((await agent.post(`/api/files/${file.id}/versions/${old!.id}/restore`)).statusCode).toBe(200);
      const [, replaced] = VersionList.parse((await agent.get(`/api/files/${file.id}/versions`)).json()).data;
      expect(await used()).toBe(6 * MiB + (await onlyIn(replaced!.id, await contentIdOf(file.id))));
      expect((await agent.delete(`/api/files/${file.id}/versions/${replaced!.id}`)).statusCode).toBe(204);
      expect(await used()).toBe(6 * MiB);
      await uploaded(agent, edited(first), { name: 'part.step', chunkSize: 2 * MiB, conflict: 'replace' });
      await blockify(file.id);
      expect(await used()).toBeGreaterThan(6 * MiB);
      const remove = (force: boolean) =>
        agent.post('/api/remove', { items: [{ id: file.id, type: 'file', force_delete: force }] });
      expect((await remove(false)).statusCode).toBe(204);
      expect(await used()).toBeGreaterThan(6 * MiB);
      expect((await remove(true)).statusCode).toBe(204);
      expect(await used()).toBe(0);
    });
  });
}
