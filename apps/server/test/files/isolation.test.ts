import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAgent } from '../support/agent';
import { signedInAgent } from '../support/factories';
import { createFilesTestApp, filesMatrix, uploaded, type FilesTestApp } from './files-harness';

for (const [database, storage] of filesMatrix) {
  describe(`another user can touch none of it [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let owner: TestAgent;
    let intruder: TestAgent;
    let folderId: string;
    let fileId: string;
    let trashedId: string;
    let snapshot: () => Promise<unknown>;

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage);
      ({ agent: owner } = await signedInAgent(t.app));
      ({ agent: intruder } = await signedInAgent(t.app));
      folderId = (await owner.post('/api/create-folder', { name: 'Mine' })).json().data.id;
      fileId = (await uploaded(owner, randomBytes(3000), { name: 'secret.bin', parentId: folderId })).id;
      trashedId = (await uploaded(owner, randomBytes(30), { name: 'binned.bin' })).id;
      await owner.post('/api/remove', { items: [{ id: trashedId, type: 'file', force_delete: false }] });
      await owner.post('/api/favourites', { ids: [folderId] });
      snapshot = async () => ({
        items: await t.deps.database.db.selectFrom('items').selectAll().orderBy('id').execute(),
        favourites: await t.deps.database.db
          .selectFrom('favourites')
          .selectAll()
          .orderBy('item_id')
          .execute(),
        objects: (await t.storedObjects()).sort(),
      });
    });
    afterAll(() => t.close());

    it('answers 404 to every read of a foreign id', async () => {
      for (const url of [
        `/api/browse/folders/${folderId}`,
        `/api/browse/trash/${trashedId}`,
        `/file/${fileId}`,
        `/thumbnail/xs/${fileId}`,
        `/api/zip?items=${fileId}|file`,
        `/api/zip?items=${folderId}|folder`,
      ]) {
        const res = await intruder.get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toMatchObject({ code: 'not_found' });
      }
    });

    it('shows nothing of the owner in lists, search, tree, latest, trash or usage', async () => {
      expect((await intruder.get('/api/browse/folders/all')).json().data).toEqual([]);
      expect((await intruder.get('/api/browse/latest')).json().data).toEqual([]);
      expect((await intruder.get('/api/browse/trash/all')).json().data).toEqual([]);
      expect((await intruder.get('/api/browse/favourites')).json().data).toEqual([]);
      expect((await intruder.get('/api/search?query=secret')).json().data).toEqual([]);
      expect((await intruder.get('/api/browse/navigation')).json().data).toEqual([]);
      expect((await intruder.get('/api/user/storage')).json().data.used).toBe(0);
    });

    it('answers 404 to every change naming a foreign id, and changes nothing', async () => {
      const own = (await intruder.post('/api/create-folder', { name: 'Intruder' })).json().data.id;
      const before = await snapshot();
      const attempts: [string, Record<string, unknown>][] = [
        ['/api/create-folder', { name: 'Planted', parent_id: folderId }],
        [`/api/rename/${fileId}`, { name: 'pwned', type: 'file', _method: 'patch' }],
        ['/api/move', { to_id: own, items: [{ id: fileId, type: 'file' }] }],
        ['/api/move', { to_id: folderId, items: [{ id: own, type: 'folder' }] }],
        ['/api/remove', { items: [{ id: fileId, type: 'file', force_delete: true }] }],
        [
          '/api/remove',
          {
            items: [
              { id: own, type: 'folder', force_delete: false },
              { id: folderId, type: 'folder', force_delete: false },
            ],
          },
        ],
        ['/api/trash/restore', { to_home: true, items: [{ id: trashedId, type: 'file' }] }],
        ['/api/favourites', { ids: [fileId] }],
        [`/api/favourites/${folderId}`, { _method: 'delete' }],
      ];
      for (const [url, body] of attempts) {
        const res = await intruder.post(url, body);
        expect(res.statusCode, url).toBe(404);
      }
      // Emptying one's own trash never reaches another user's.
      expect((await intruder.post('/api/trash/dump', { _method: 'delete' })).statusCode).toBe(204);
      expect(await snapshot()).toEqual(before);
      expect((await intruder.get(`/api/browse/folders/${own}`)).statusCode).toBe(200);
    });
  });
}
