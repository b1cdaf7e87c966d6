import { ItemList } from '@atelier/contracts';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAgent } from '../support/agent';
import { databaseKinds } from '../support/databases';
import { signedInAgent } from '../support/factories';
import { createFilesTestApp, uploaded, type FilesTestApp } from './files-harness';

// Listings are cached under the owner's listing version, which database triggers move. These tests
// prove a cached page is never served after any change that shows in it, whoever made the change.
for (const database of databaseKinds) {
  describe(`listing cache [${database}]`, () => {
    let t: FilesTestApp;
    let agent: TestAgent;

    beforeAll(async () => {
      t = await createFilesTestApp(database, 'local');
      ({ agent } = await signedInAgent(t.app));
    });
    afterAll(() => t.close());

    async function page(url: string) {
      const res = await agent.get(url);
      expect(res.statusCode).toBe(200);
      return { list: ItemList.parse(res.json()), etag: String(res.headers.etag) };
    }
    async function newFolder(name: string, parentId: string | null = null) {
      const res = await agent.post('/api/create-folder', { name, parent_id: parentId });
      expect(res.statusCode).toBe(201);
      return res.json().data as { id: string };
    }

    it('answers a repeated page with 304 for its ETag, and a new ETag once the folder changes', async () => {
      const box = await newFolder('Revalidated');
      await newFolder('Inner', box.id);
      const url = `/api/browse/folders/${box.id}`;
      const first = await page(url);
      expect(first.etag).toMatch(/^W\/".+"$/);

      const again = await agent.get(url, { headers: { 'if-none-match': first.etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect((await agent.get(url, { headers: { 'if-none-match': 'W/"other"' } })).statusCode).toBe(200);

      await newFolder('Second', box.id);
      const changed = await page(url);
      expect(changed.etag).not.toBe(first.etag);
      expect(changed.list.data.map((i) => i.attributes.name).sort()).toEqual(['Inner', 'Second']);
      expect((await agent.get(url, { headers: { 'if-none-match': first.etag } })).statusCode).toBe(200);
    });

    it('shows every kind of change to a cached page: nested counts, favourites, renames, trash and restore', async () => {
      const box = await newFolder('Watched');
      const inner = await newFolder('Inner', box.id);
      const url = `/api/browse/folders/${box.id}`;
      const innerOf = async () => (await page(url)).list.data.find((i) => i.id === inner.id);
      expect((await innerOf())?.attributes.items).toBe(0);

      // A file two levels down changes the count the cached page shows for its folder.
      const file = await uploaded(agent, randomBytes(64), { name: 'deep.bin', parentId: inner.id });
      expect((await innerOf())?.attributes.items).toBe(1);

      expect((await agent.post('/api/favourites', { ids: [inner.id] })).statusCode).toBe(204);
      expect((await innerOf())?.relationships.favourites.data).not.toBeNull();
      expect((await agent.delete(`/api/favourites/${inner.id}`)).statusCode).toBe(204);
      expect((await innerOf())?.relationships.favourites.data).toBeNull();

      const renamed = await agent.patch(`/api/rename/${inner.id}`, { name: 'Renamed', type: 'folder' });
      expect(renamed.statusCode).toBe(200);
      expect((await innerOf())?.attributes.name).toBe('Renamed');

      const removed = await agent.post('/api/remove', { items: [{ id: file.id, type: 'file' }] });
      expect(removed.statusCode).toBe(204);
      expect((await innerOf())?.attributes.items).toBe(0);
      const restored = await agent.post('/api/trash/restore', { items: [{ id: file.id, type: 'file' }] });
      expect(restored.statusCode).toBe(204);
      expect((await innerOf())?.attributes.items).toBe(1);
    });

    it('sees a write made outside this process, straight in the database', async () => {
      const box = await newFolder('Shared database');
      const url = `/api/browse/folders/${box.id}`;
      const before = await page(url);
      expect(before.list.meta.root?.attributes.name).toBe('Shared database');
      // Another API process of a scaled-out instance writes to the same database, not through this one.
      await t.deps.database.db
        .updateTable('items')
        .set({ name: 'Renamed elsewhere' })
        .where('id', '=', box.id)
        .execute();
      const after = await page(url);
      expect(after.list.meta.root?.attributes.name).toBe('Renamed elsewhere');
      expect(after.etag).not.toBe(before.etag);
    });

    it('never answers another user with a page cached for the owner', async () => {
      const box = await newFolder('Private');
      await newFolder('Secret', box.id);
      const url = `/api/browse/folders/${box.id}`;
      const owner = await page(url);
      const { agent: stranger } = await signedInAgent(t.app);
      expect((await stranger.get(url)).statusCode).toBe(404);
      const own = await stranger.get('/api/browse/folders/all');
      expect(own.statusCode).toBe(200);
      expect(own.json().data).toEqual([]);
      expect((await stranger.get(url, { headers: { 'if-none-match': owner.etag } })).statusCode).toBe(404);
    });

    it('builds a page asked for by many at once a single time, and each of them gets it', async () => {
      const box = await newFolder('Popular');
      await newFolder('Inside', box.id);
      const url = `/api/browse/folders/${box.id}?sort=name&direction=asc`;
      const files = t.deps.files;
      const browse = files.browseFolder.bind(files);
      let builds = 0;
      files.browseFolder = (...args) => {
        builds += 1;
        return browse(...args);
      };
      try {
        const answers = await Promise.all(Array.from({ length: 20 }, () => agent.get(url)));
        expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
        expect(new Set(answers.map((a) => a.body)).size).toBe(1);
        expect(
          answers[0]!.json().data.map((i: { attributes: { name: string } }) => i.attributes.name),
        ).toEqual(['Inside']);
        expect(builds).toBe(1);
      } finally {
        files.browseFolder = browse;
      }
    });
  });
}
