import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-queue';
import { storagePurgeJob } from '../../src/modules/files/files.jobs';
import type { TestAgent } from '../support/agent';
import { signedInAgent } from '../support/factories';
import { createFilesTestApp, filesMatrix, uploaded, type FilesTestApp } from './files-harness';

/**
 * Deleting for good (a forced delete, emptying the trash) removes the rows in one unit of work that
 * records their bytes with the job that deletes them; the request deletes the bytes once it has
 * committed. Where that fails (storage away, the process gone), the rows are gone, no row names bytes
 * that are gone, and the job deletes what is left.
 */
for (const [database, storage] of filesMatrix) {
  describe(`deleting for good [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let agent: TestAgent;

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage);
      ({ agent } = await signedInAgent(t.app));
    });
    afterAll(() => t.close());

    /** A folder holding a file with an earlier version: three objects (two contents, none shared). */
    async function folderWithVersionedFile() {
      const made = await agent.post('/api/create-folder', { name: `Box ${randomBytes(3).toString('hex')}` });
      expect(made.statusCode, made.body).toBe(201);
      const folderId = made.json().data.id as string;
      await uploaded(agent, randomBytes(400), { name: 'a.bin', parentId: folderId });
      await uploaded(agent, randomBytes(300), { name: 'a.bin', parentId: folderId, conflict: 'replace' });
      await uploaded(agent, randomBytes(200), { name: 'b.bin', parentId: folderId });
      return folderId;
    }

    it('removes the rows and the bytes of a folder, its files and their versions at once', async () => {
      const before = (await t.storedObjects()).sort();
      const folderId = await folderWithVersionedFile();
      expect((await t.storedObjects()).length).toBe(before.length + 3);
      const answer = await agent.post('/api/remove', {
        items: [{ id: folderId, type: 'folder', force_delete: true }],
      });
      expect(answer.statusCode, answer.body).toBe(204);
      expect((await t.storedObjects()).sort()).toEqual(before);
      expect(await t.deps.database.db.selectFrom('storage_purges').selectAll().execute()).toEqual([]);
    });

    it('leaves the bytes to the purge job when the storage fails after the rows went', async () => {
      const before = (await t.storedObjects()).sort();
      const folderId = await folderWithVersionedFile();
      await agent.post('/api/remove', { items: [{ id: folderId, type: 'folder' }] });
      const contents = await t.deps.database.db.selectFrom('file_contents').select('storage_key').execute();

      // The storage refuses every deletion while the trash is emptied.
      const store = await t.deps.storage.current();
      const deleteMany = store.deleteMany.bind(store);
      store.deleteMany = () => Promise.reject(new Error('storage away'));
      let answer;
      try {
        answer = await agent.post('/api/trash/dump', { _method: 'delete' });
      } finally {
        store.deleteMany = deleteMany;
      }
      // The rows committed: the trash is empty, and no content is left to name the bytes.
      expect(answer.statusCode, answer.body).toBe(204);
      const trash = await agent.get('/api/browse/trash/all');
      expect(trash.json().data).toEqual([]);
      expect(await t.deps.database.db.selectFrom('file_contents').select('id').execute()).toEqual([]);
      // The bytes are still stored, each recorded for the job.
      expect((await t.storedObjects()).length).toBe(before.length + 3);
      const recorded = await t.deps.database.db.selectFrom('storage_purges').select('key').execute();
      expect(recorded.map((row) => row.key).sort()).toEqual(contents.map((c) => c.storage_key).sort());

      const worker: JobWorker = t.deps.jobs.startWorker({ definitions: [storagePurgeJob], services: t.deps });
      try {
        await expect.poll(async () => (await t.storedObjects()).sort(), { timeout: 15_000 }).toEqual(before);
        await expect
          .poll(() => t.deps.database.db.selectFrom('storage_purges').selectAll().execute())
          .toEqual([]);
      } finally {
        await worker.close();
      }
    });
  });
}
