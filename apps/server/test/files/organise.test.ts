import { ItemList, NavigationTree, StorageUsage, type ItemResource } from '@atelier/contracts';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerActor } from '../../src/modules/files/files.access';
import { InjectedFault, WriteFaults } from '../faults/write-faults';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { createFilesTestApp, filesMatrix, uploaded, type FilesTestApp } from './files-harness';

const names = (list: { data: ItemResource[] }) => list.data.map((item) => item.attributes.name);

for (const [database, storage] of filesMatrix) {
  describe(`browse and organise [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let agent: TestAgent;

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage);
      ({ agent } = await signedInAgent(t.app));
    });
    afterAll(() => t.close());

    async function folder(
      name: string,
      parentId?: string,
      extra: Record<string, unknown> = {},
    ): Promise<ItemResource> {
      const res = await agent.post('/api/create-folder', { name, parent_id: parentId ?? null, ...extra });
      expect(res.statusCode).toBe(201);
      return res.json().data;
    }
    async function file(name: string, parentId?: string, bytes = 100) {
      return uploaded(agent, randomBytes(bytes), { name, parentId });
    }
    async function list(url: string) {
      const res = await agent.get(url);
      expect(res.statusCode).toBe(200);
      return ItemList.parse(res.json());
    }
    const exists = async (id: string) => (await agent.get(`/file/${id}`)).statusCode === 200;

    it('creates folders with emoji and colour, and lists them with their item counts', async () => {
      const home = await folder('Home base', undefined, { emoji: '🏠', color: '#aa3366' });
      expect(home.attributes).toMatchObject({
        name: 'Home base',
        emoji: '🏠',
        color: '#aa3366',
        items: 0,
        parent_id: null,
      });
      await file('inside.txt', home.id);
      const root = await list('/api/browse/folders/all');
      expect(root.data.find((i) => i.id === home.id)?.attributes.items).toBe(1);
      expect(root.meta.root).toBeNull();
      const inside = await list(`/api/browse/folders/${home.id}`);
      expect(inside.meta.root?.id).toBe(home.id);
      expect(inside.meta.root?.attributes).toMatchObject({ name: 'Home base', items: 1, emoji: '🏠' });
      expect(names(inside)).toEqual(['inside.txt']);
    });

    it('keeps both of three uploads of one name, whatever letters it is written in', async () => {
      for (const name of ['🎉.txt', 'Größe.txt', '版本.txt']) {
        const box = await folder(`Both ${name}`);
        for (let i = 0; i < 3; i++) await file(name, box.id);
        const dot = name.lastIndexOf('.');
        const [base, extension] = [name.slice(0, dot), name.slice(dot)];
        expect(names(await list(`/api/browse/folders/${box.id}`)).sort()).toEqual(
          [name, `${base} (1)${extension}`, `${base} (2)${extension}`].sort(),
        );
      }
    });

    it('refuses invalid names with field errors and changes nothing', async () => {
      for (const name of ['', '   ', 'a/b', '..', 'x'.repeat(256)]) {
        const res = await agent.post('/api/create-folder', { name });
        expect(res.statusCode).toBe(422);
        expect(res.json().errors.name).toBeDefined();
      }
    });

    it('sorts folders first, then by the asked column and direction, page by page', async () => {
      const box = await folder('Sorting');
      for (const name of ['b.txt', 'C.txt', 'a.txt']) await file(name, box.id, name === 'C.txt' ? 300 : 100);
      for (const name of ['zeta', 'Alpha']) await folder(name, box.id);

      expect(names(await list(`/api/browse/folders/${box.id}?sort=name&direction=asc`))).toEqual([
        'Alpha',
        'zeta',
        'a.txt',
        'b.txt',
        'C.txt',
      ]);
      expect(names(await list(`/api/browse/folders/${box.id}?sort=name&direction=desc`))).toEqual([
        'zeta',
        'Alpha',
        'C.txt',
        'b.txt',
        'a.txt',
      ]);
      expect(names(await list(`/api/browse/folders/${box.id}`))).toEqual([
        'Alpha',
        'zeta',
        'a.txt',
        'C.txt',
        'b.txt',
      ]);
      expect(
        names(await list(`/api/browse/folders/${box.id}?sort=filesize&direction=desc`)).slice(2, 3),
      ).toEqual(['C.txt']);

      const page2 = await list(`/api/browse/folders/${box.id}?sort=name&direction=asc&per_page=2&page=2`);
      expect(names(page2)).toEqual(['a.txt', 'b.txt']);
      expect(page2.meta.paginate).toEqual({ current_page: 2, per_page: 2, total: 5, last_page: 3 });
      expect(
        names(await list(`/api/browse/folders/${box.id}?sort=name&per_page=2&page=3&direction=asc`)),
      ).toEqual(['C.txt']);
    });

    it('lists the latest files, finds names in search and builds the folder tree', async () => {
      const docs = await folder('Docs');
      const nested = await folder('Nested Reports', docs.id);
      await file('quarterly-REPORT.pdf', nested.id);
      const latest = await list('/api/browse/latest');
      expect(latest.data[0]?.attributes.name).toBe('quarterly-REPORT.pdf');
      expect(latest.data.every((i) => i.type === 'file')).toBe(true);

      const found = (await agent.get('/api/search?query=report')).json().data as ItemResource[];
      expect(found.map((i) => i.attributes.name)).toEqual(['Nested Reports', 'quarterly-REPORT.pdf']);
      expect((await agent.get(`/api/search?query=${encodeURIComponent('100%_')}`)).json().data).toEqual([]);

      const tree = NavigationTree.parse((await agent.get('/api/browse/navigation')).json());
      const docsNode = tree.data.find((n) => n.id === docs.id);
      expect(docsNode?.folders.map((f) => f.name)).toEqual(['Nested Reports']);
    });

    it('renames with emoji and colour', async () => {
      const item = await folder('Old name');
      const res = await agent.post(`/api/rename/${item.id}`, {
        name: 'New name',
        type: 'folder',
        emoji: '⭐',
        color: '#112233',
        _method: 'patch',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.attributes).toMatchObject({ name: 'New name', emoji: '⭐', color: '#112233' });
      const wrongType = await agent.post(`/api/rename/${item.id}`, {
        name: 'x',
        type: 'file',
        _method: 'patch',
      });
      expect(wrongType.statusCode).toBe(404);
    });

    it('moves items, but never a folder into itself or below itself', async () => {
      const a = await folder('Move A');
      const b = await folder('Move B', a.id);
      const c = await folder('Move C', b.id);
      const f = await file('moving.txt');
      expect(
        (await agent.post('/api/move', { to_id: c.id, items: [{ id: f.id, type: 'file' }] })).statusCode,
      ).toBe(204);
      expect(names(await list(`/api/browse/folders/${c.id}`))).toEqual(['moving.txt']);

      for (const target of [a.id, b.id, c.id]) {
        const res = await agent.post('/api/move', { to_id: target, items: [{ id: a.id, type: 'folder' }] });
        expect(res.statusCode).toBe(422);
      }
      expect((await list('/api/browse/folders/all')).data.some((i) => i.id === a.id)).toBe(true);

      expect(
        (await agent.post('/api/move', { to_id: 'all', items: [{ id: c.id, type: 'folder' }] })).statusCode,
      ).toBe(204);
      expect(
        (await list('/api/browse/folders/all')).data.find((i) => i.id === c.id)?.attributes.parent_id,
      ).toBeNull();
    });

    it('refuses to rename a file to a name the blacklist refuses at upload, changing nothing', async () => {
      const notes = await file('notes.txt');
      const box = await folder('Scripts');
      await t.deps.settings.set({ mimetypes_blacklist: ['php'] });
      try {
        const renamed = await agent.post(`/api/rename/${notes.id}`, {
          name: 'notes.PHP',
          type: 'file',
          _method: 'patch',
        });
        expect(renamed.statusCode).toBe(422);
        expect(renamed.json().code).toBe('blacklisted_type');
        expect((await t.deps.items.findFile(notes.id))!.name).toBe('notes.txt');
        // A folder's name is no file type.
        const folderRenamed = await agent.post(`/api/rename/${box.id}`, {
          name: 'scripts.php',
          type: 'folder',
          _method: 'patch',
        });
        expect(folderRenamed.statusCode).toBe(200);
      } finally {
        await t.deps.settings.set({ mimetypes_blacklist: [] });
      }
    });

    it('refuses a rename, a move or a new folder onto a name a live item holds there, changing nothing', async () => {
      const box = await folder('Names');
      const taken = await file('a.txt', box.id);
      const other = await file('b.txt', box.id);
      const sub = await folder('Sub', box.id);
      const away = await folder('Away');
      const twin = await file('a.txt', away.id);
      const free = await file('d.txt', away.id);
      const refusedOn = (
        res: { statusCode: number; json(): { message: string; errors: object } },
        field: string,
      ) => {
        expect(res.statusCode).toBe(422);
        expect(res.json().errors).toHaveProperty(field);
      };

      const rename = await agent.post(`/api/rename/${other.id}`, {
        name: 'a.txt',
        type: 'file',
        _method: 'patch',
      });
      refusedOn(rename, 'name');
      expect(rename.json().message).toBe('An item named \u201ca.txt\u201d is already in this folder.');
      // The item renamed is not in its own way.
      const recoloured = await agent.post(`/api/rename/${sub.id}`, {
        name: 'Sub',
        type: 'folder',
        color: '#112233',
        _method: 'patch',
      });
      expect(recoloured.statusCode).toBe(200);
      for (const name of ['Sub', 'a.txt'])
        refusedOn(await agent.post('/api/create-folder', { name, parent_id: box.id }), 'name');
      // A batch moves whole or not at all.
      const batch = await agent.post('/api/move', {
        to_id: box.id,
        items: [
          { id: free.id, type: 'file' },
          { id: twin.id, type: 'file' },
        ],
      });
      refusedOn(batch, 'items');
      expect(names(await list(`/api/browse/folders/${away.id}?sort=name&direction=asc`))).toEqual([
        'a.txt',
        'd.txt',
      ]);
      expect(
        (await agent.post('/api/move', { to_id: box.id, items: [{ id: taken.id, type: 'file' }] }))
          .statusCode,
      ).toBe(204);
      expect(
        (await agent.post('/api/move', { to_id: box.id, items: [{ id: free.id, type: 'file' }] })).statusCode,
      ).toBe(204);
      expect(names(await list(`/api/browse/folders/${box.id}?sort=name&direction=asc`))).toEqual([
        'Sub',
        'a.txt',
        'b.txt',
        'd.txt',
      ]);
    });

    it('moves two folders into each other at once: one goes, the other is refused, and both stay reachable', async () => {
      const a = await folder('Crossing A');
      const b = await folder('Crossing B');
      const moveInto = (moved: ItemResource, into: ItemResource) =>
        agent.post('/api/move', { to_id: into.id, items: [{ id: moved.id, type: 'folder' }] });
      const answers = await Promise.all([moveInto(a, b), moveInto(b, a)]);
      expect(answers.map((res) => res.statusCode).sort()).toEqual([204, 422]);
      expect(answers.find((res) => res.statusCode === 422)!.json().errors).toHaveProperty('to_id');
      const root = await list('/api/browse/folders/all?per_page=500');
      expect(root.data.filter((item) => item.id === a.id || item.id === b.id)).toHaveLength(1);
      for (const crossing of [a, b])
        expect((await agent.get(`/api/browse/folders/${crossing.id}`)).statusCode).toBe(200);
    });

    it('ends a walk up the tree at a cycle of parents, should one ever be there', async () => {
      const [x, y] = [await folder('Loop X'), await folder('Loop Y')];
      const db = t.deps.database.db;
      const { user_id: ownerId } = await db
        .selectFrom('items')
        .select('user_id')
        .where('id', '=', x.id)
        .executeTakeFirstOrThrow();
      const parent = (id: string, parentId: string | null) =>
        db.updateTable('items').set({ parent_id: parentId }).where('id', '=', id).execute();
      await parent(x.id, y.id);
      await parent(y.id, x.id);
      expect(await t.deps.items.ancestorIds(ownerId, x.id)).toEqual([x.id, y.id]);
      expect(await t.deps.items.namesDownTo(ownerId, x.id)).toEqual(['Loop Y', 'Loop X']);
      await parent(x.id, null);
      await parent(y.id, null);
    });

    describe('trash', () => {
      it('sends a folder to the trash with everything inside, and restores it to its place', async () => {
        const parent = await folder('Trash parent');
        const doomed = await folder('Doomed', parent.id);
        const inner = await folder('Inner', doomed.id);
        const f = await file('deep.txt', inner.id);

        expect(
          (
            await agent.post('/api/remove', {
              items: [{ id: doomed.id, type: 'folder', force_delete: false }],
            })
          ).statusCode,
        ).toBe(204);
        expect(names(await list(`/api/browse/folders/${parent.id}`))).toEqual([]);
        expect((await agent.get(`/api/browse/folders/${inner.id}`)).statusCode).toBe(404);
        const trash = await list('/api/browse/trash/all');
        expect(trash.data.map((i) => i.id)).toContain(doomed.id);
        expect(trash.data.map((i) => i.id)).not.toContain(inner.id);
        const inTrashFolder = await list(`/api/browse/trash/${doomed.id}`);
        expect(names(inTrashFolder)).toEqual(['Inner']);
        expect(inTrashFolder.data[0]?.attributes.deleted_at).not.toBeNull();
        expect(await exists(f.id)).toBe(true);

        expect(
          (
            await agent.post('/api/trash/restore', {
              to_home: false,
              items: [{ id: doomed.id, type: 'folder' }],
            })
          ).statusCode,
        ).toBe(204);
        expect(names(await list(`/api/browse/folders/${parent.id}`))).toEqual(['Doomed']);
        expect(names(await list(`/api/browse/folders/${inner.id}`))).toEqual(['deep.txt']);
        expect((await list('/api/browse/trash/all')).data.map((i) => i.id)).not.toContain(doomed.id);
      });

      it('counts a trashed folder\u2019s items in its trash page\u2019s root as the page does', async () => {
        const box = await folder('Counted in the trash');
        for (const name of ['one.txt', 'two.txt', 'three.txt']) await file(name, box.id);
        await agent.post('/api/remove', { items: [{ id: box.id, type: 'folder', force_delete: false }] });
        const page = await list(`/api/browse/trash/${box.id}`);
        expect(page.meta.paginate.total).toBe(3);
        expect(page.meta.root?.attributes.items).toBe(3);
        await agent.post('/api/trash/restore', { to_home: false, items: [{ id: box.id, type: 'folder' }] });
      });

      it('restores home when asked, or when the old folder is itself in the trash', async () => {
        const parent = await folder('Gone parent');
        const a = await file('home-a.txt', parent.id);
        const b = await file('home-b.txt', parent.id);
        await agent.post('/api/remove', { items: [{ id: a.id, type: 'file', force_delete: false }] });
        await agent.post('/api/remove', { items: [{ id: b.id, type: 'file', force_delete: false }] });
        await agent.post('/api/remove', { items: [{ id: parent.id, type: 'folder', force_delete: false }] });

        await agent.post('/api/trash/restore', { to_home: false, items: [{ id: a.id, type: 'file' }] });
        await agent.post('/api/trash/restore', { to_home: true, items: [{ id: b.id, type: 'file' }] });
        const root = await list('/api/browse/folders/all?per_page=500');
        expect(root.data.find((i) => i.id === a.id)?.attributes.parent_id).toBeNull();
        expect(root.data.find((i) => i.id === b.id)?.attributes.parent_id).toBeNull();
        expect(root.data.some((i) => i.id === parent.id)).toBe(false);
      });

      it('restores an item whose name was taken meanwhile under a free name, never as a second item of it', async () => {
        const shelf = await folder('Shelf');
        const old = await file('report.txt', shelf.id);
        const sub = await folder('Drafts', shelf.id);
        await agent.post('/api/remove', {
          items: [
            { id: old.id, type: 'file', force_delete: false },
            { id: sub.id, type: 'folder', force_delete: false },
          ],
        });
        await file('report.txt', shelf.id);
        await folder('Drafts', shelf.id);
        const restored = await agent.post('/api/trash/restore', {
          to_home: false,
          items: [
            { id: old.id, type: 'file' },
            { id: sub.id, type: 'folder' },
          ],
        });
        expect(restored.statusCode, restored.body).toBe(204);
        expect(names(await list(`/api/browse/folders/${shelf.id}`)).sort()).toEqual([
          'Drafts',
          'Drafts (1)',
          'report (1).txt',
          'report.txt',
        ]);
        expect(
          (await list(`/api/browse/folders/${shelf.id}`)).data.find((i) => i.id === old.id)?.attributes.name,
        ).toBe('report (1).txt');
      });

      it('restores a folder named together with an item trashed inside it once, the item back inside as it was', async () => {
        const pair = await folder('Restored pair');
        const inside = await file('c.txt', pair.id);
        await agent.post('/api/remove', { items: [{ id: pair.id, type: 'folder', force_delete: false }] });
        const restored = await agent.post('/api/trash/restore', {
          to_home: false,
          items: [
            { id: pair.id, type: 'folder' },
            { id: inside.id, type: 'file' },
          ],
        });
        expect(restored.statusCode, restored.body).toBe(204);
        expect(names(await list(`/api/browse/folders/${pair.id}`))).toEqual(['c.txt']);
      });

      it('restores one item out of a trashed folder on its own, to home, leaving the folder in the trash', async () => {
        const box = await folder('Trashed box');
        const keep = await folder('Keep me', box.id);
        const inside = await file('kept.txt', keep.id);
        await agent.post('/api/remove', { items: [{ id: box.id, type: 'folder', force_delete: false }] });
        await agent.post('/api/trash/restore', { to_home: false, items: [{ id: keep.id, type: 'folder' }] });

        const root = await list('/api/browse/folders/all?per_page=500');
        expect(root.data.find((i) => i.id === keep.id)?.attributes.parent_id).toBeNull();
        expect(names(await list(`/api/browse/folders/${keep.id}`))).toEqual(['kept.txt']);
        expect((await list('/api/browse/trash/all')).data.map((i) => i.id)).toContain(box.id);
        expect(await exists(inside.id)).toBe(true);
      });

      it('reads force_delete "false" from a form as false, never as a permanent delete', async () => {
        const kept = await file('kept-in-trash.txt');
        const res = await agent.post('/api/remove', {
          items: [{ id: kept.id, type: 'file', force_delete: 'false' }],
        });
        expect(res.statusCode).toBe(204);
        expect((await list('/api/browse/trash/all')).data.map((i) => i.id)).toContain(kept.id);
        expect(await exists(kept.id)).toBe(true);
        await agent.post('/api/trash/restore', { to_home: 'false', items: [{ id: kept.id, type: 'file' }] });
        expect((await list('/api/browse/trash/all')).data.map((i) => i.id)).not.toContain(kept.id);
      });

      it('force delete removes the items and their bytes', async () => {
        const before = (await t.storedObjects()).length;
        const box = await folder('Forced');
        await file('gone-1.bin', box.id, 5000);
        const loose = await file('gone-2.bin', undefined, 5000);
        expect((await t.storedObjects()).length).toBe(before + 2);
        const res = await agent.post('/api/remove', {
          items: [
            { id: box.id, type: 'folder', force_delete: true },
            { id: loose.id, type: 'file', force_delete: true },
          ],
        });
        expect(res.statusCode).toBe(204);
        expect((await t.storedObjects()).length).toBe(before);
        expect(await exists(loose.id)).toBe(false);
        expect((await list('/api/browse/trash/all')).data.map((i) => i.id)).not.toContain(box.id);
      });

      it('deletes for good only what went to the trash with the folder, keeping what was trashed on its own before', async () => {
        const trashAll = async () => (await list('/api/browse/trash/all')).data.map((i) => i.id);
        const remove = (id: string, type: 'file' | 'folder', force_delete: boolean) =>
          agent.post('/api/remove', { items: [{ id, type, force_delete }] });
        const box = await folder('Drafts box');
        const bytes = randomBytes(3000);
        const kept = await uploaded(agent, bytes, { name: 'keep-me.bin', parentId: box.id });
        const going = await file('with-the-box.bin', box.id);
        expect((await remove(kept.id, 'file', false)).statusCode).toBe(204);
        expect((await remove(box.id, 'folder', false)).statusCode).toBe(204);
        expect(await trashAll()).toEqual(expect.arrayContaining([kept.id, box.id]));

        expect((await remove(box.id, 'folder', true)).statusCode).toBe(204);
        expect(await trashAll()).toContain(kept.id);
        expect(await trashAll()).not.toContain(box.id);
        expect(await exists(going.id)).toBe(false);
        // Restored, to My files as its folder is gone, with its bytes.
        const restored = await agent.post('/api/trash/restore', {
          to_home: false,
          items: [{ id: kept.id, type: 'file' }],
        });
        expect(restored.statusCode).toBe(204);
        expect(names(await list('/api/browse/folders/all'))).toContain('keep-me.bin');
        expect((await agent.get(`/file/${kept.id}`)).rawPayload.equals(bytes)).toBe(true);

        // The same while the folder is live: deleting it for good keeps what its trash holds.
        const live = await folder('Live box');
        const trashed = await file('trashed-inside.bin', live.id);
        expect((await remove(trashed.id, 'file', false)).statusCode).toBe(204);
        expect((await remove(live.id, 'folder', true)).statusCode).toBe(204);
        expect(await trashAll()).toContain(trashed.id);
        // Named itself, it goes.
        expect((await remove(trashed.id, 'file', true)).statusCode).toBe(204);
        expect(await trashAll()).not.toContain(trashed.id);
      });

      it('empties the trash, bytes and all', async () => {
        const f = await file('dump-me.bin', undefined, 5000);
        const box = await folder('Dump box');
        await file('dump-inner.bin', box.id, 5000);
        const before = (await t.storedObjects()).length;
        await agent.post('/api/remove', {
          items: [
            { id: f.id, type: 'file', force_delete: false },
            { id: box.id, type: 'folder', force_delete: false },
          ],
        });
        const res = await agent.post('/api/trash/dump', { _method: 'delete' });
        expect(res.statusCode).toBe(204);
        expect((await list('/api/browse/trash/all')).data).toEqual([]);
        expect((await t.storedObjects()).length).toBe(before - 2);
        expect(await exists(f.id)).toBe(false);
      });
    });

    it('adds and removes favourites', async () => {
      const fav = await folder('Favourite folder');
      expect((await agent.post('/api/favourites', { ids: [fav.id] })).statusCode).toBe(204);
      expect((await agent.post('/api/favourites', { ids: [fav.id] })).statusCode).toBe(204);
      const listed = (await list('/api/browse/folders/all?per_page=500')).data.find((i) => i.id === fav.id);
      expect(listed?.relationships.favourites.data).toEqual({ id: fav.id, type: 'favourite' });
      expect((await agent.get('/api/browse/favourites')).json().data.map((i: ItemResource) => i.id)).toEqual([
        fav.id,
      ]);

      expect(
        (await list(`/api/browse/folders/${fav.id}`)).meta.root?.relationships.favourites.data,
      ).not.toBeNull();

      expect((await agent.post(`/api/favourites/${fav.id}`, { _method: 'delete' })).statusCode).toBe(204);
      expect((await agent.get('/api/browse/favourites')).json().data).toEqual([]);
    });

    it('reports storage by category, largest first', async () => {
      const { agent: fresh } = await signedInAgent(t.app);
      await uploaded(fresh, Buffer.from('%PDF-1.7\n' + 'x'.repeat(3000)), { name: 'paper.pdf' });
      await uploaded(fresh, Buffer.alloc(1000), { name: 'blob.bin' });
      const res = await fresh.get('/api/user/storage');
      const usage = StorageUsage.parse(res.json()).data;
      expect(usage.used).toBe(4009);
      expect(usage.categories.map((c) => c.category)).toEqual([
        'empty',
        'documents',
        'others',
        'images',
        'videos',
        'audios',
      ]);
      expect(usage.categories.find((c) => c.category === 'documents')?.used).toBe(3009);
      const percentages = usage.categories.map((c) => c.percentage);
      expect([...percentages].sort((x, y) => y - x)).toEqual(percentages);
    });
  });
}

describeEachDatabase('removing several items', (kind) => {
  const faults = new WriteFaults();
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ database: kind, plugins: [faults] });
  });
  afterAll(() => t.close());

  it('trashes all of them or none: a failure after the first leaves every one where it was', async () => {
    const { agent, user } = await signedInAgent(t.app);
    const first = await uploaded(agent, randomBytes(100), { name: 'one.txt' });
    const second = await uploaded(agent, randomBytes(100), { name: 'two.txt' });
    const { error } = await faults.run(1, 'throw', () =>
      t.deps.files.remove(ownerActor(user.id), [
        { id: first.id, type: 'file', force_delete: false },
        { id: second.id, type: 'file', force_delete: false },
      ]),
    );
    expect(error).toBeInstanceOf(InjectedFault);
    const live = ItemList.parse((await agent.get('/api/browse/folders/all')).json()).data;
    expect(live.map((item) => item.id).sort()).toEqual([first.id, second.id].sort());
  });
});
