import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases';
import { seededBuffer } from '../support/seeded-noise';
import { createFilesTestApp, type FilesTestApp } from '../files/files-harness';
import { davCalls, type DavPerson } from '../webdav/webdav-harness';

const MiB = 1024 * 1024;

/**
 * What a sync client's re-upload costs in stored bytes. Nextcloud's clients send a whole file again
 * when it changed (and may, after a lost answer, send an unchanged one again); the server keeps each
 * owner's bytes as content-defined blocks, stored once per owner, so the copy that arrives is
 * stored only until the blockify job finds its blocks already held.
 */
for (const database of databaseKinds) {
  describe(`stored bytes of a sync client's re-uploads [${database}]`, () => {
    let t: FilesTestApp;
    let owner: DavPerson;
    const url = '/remote.php/webdav/model.bin';

    /** Every byte the storage folder holds: objects, blocks as stored (compressed where that saves space). */
    const storedBytes = async () => {
      const root = join(t.dataDir, 'storage');
      let total = 0;
      for (const entry of await readdir(root, { recursive: true, withFileTypes: true }))
        if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
      return total;
    };
    /** A PUT as the client sends it, with its checksum, then the blockify job on what it stored. */
    const upload = async (bytes: Buffer) => {
      const checksum = `SHA1:${createHash('sha1').update(bytes).digest('hex')}`;
      const answer = await davCalls(t).dav(owner.auth, 'PUT', url, bytes, { 'oc-checksum': checksum });
      expect(answer.statusCode, answer.body).toBeLessThan(300);
      const file = await t.deps.database.db
        .selectFrom('items')
        .innerJoin('file_contents', 'file_contents.id', 'items.content_id')
        .select('file_contents.storage_key')
        .where('items.user_id', '=', owner.user.id)
        .where('items.name', '=', 'model.bin')
        .executeTakeFirstOrThrow();
      expect(await t.deps.blockifier.blockify(file.storage_key)).toBe('blocks');
    };

    beforeAll(async () => {
      t = await createFilesTestApp(database, 'local');
      owner = await davCalls(t).person();
    });
    afterAll(() => t.close());

    it('stores an unchanged file sent again in no new bytes, and an edit in about the blocks it touches', async () => {
      // Seeded, so where the chunker cuts it, and so the bytes a change adds, is the same on every run.
      const original = seededBuffer(7, 16 * MiB);
      await upload(original);
      const first = await storedBytes();
      expect(first).toBeGreaterThanOrEqual(16 * MiB);

      // The same bytes again: a version is kept, its blocks are the ones already stored.
      await upload(original);
      const again = await storedBytes();
      expect(again - first).toBe(0);

      // 100 bytes changed in the middle: the blocks around them are new, the rest is shared.
      const edited = Buffer.from(original);
      seededBuffer(8, 100).copy(edited, 8 * MiB);
      await upload(edited);
      const afterEdit = await storedBytes();
      expect(afterEdit - again).toBeGreaterThan(0);
      expect(afterEdit - again).toBeLessThan(4 * MiB);
      console.info(
        `[sync delta ${database}] 16 MiB file: first upload ${first} bytes stored, unchanged re-upload +${again - first}, 100-byte edit +${afterEdit - again}`,
      );
    });
  });
}
