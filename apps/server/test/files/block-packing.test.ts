import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNFINISHED_BLOCK_MS } from '../../src/modules/files/block-collector';
import { BlockPacker } from '../../src/modules/files/block-packer';
import { BlockStoreRepository } from '../../src/modules/files/block-store.repository';
import { blockRepackJob } from '../../src/modules/files/files.jobs';
import type { TestAgent } from '../support/agent';
import { signedInAgent } from '../support/factories';
import { createFilesTestApp, filesMatrix, uploaded, type FilesTestApp } from './files-harness';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Bytes that deflate to well under a tenth less (lines of a CAD-like text export), unique per seed. */
function compressible(seed: string, length = 150_000): Buffer {
  const lines: string[] = [];
  for (let i = 0, written = 0; written < length; i++) {
    const line = `#${i}=CARTESIAN_POINT('${seed}',(${(i * 0.25).toFixed(2)},${(i % 97) * 1.5},0.));\n`;
    lines.push(line);
    written += line.length;
  }
  return Buffer.from(lines.join('')).subarray(0, length);
}

for (const [database, storage] of filesMatrix) {
  describe(`block packing [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let agent: TestAgent;
    let now = new Date('2026-06-01T10:00:00Z');

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage, {}, () => now);
      ({ agent } = await signedInAgent(t.app));
    });
    afterAll(() => t.close());

    const db = () => t.deps.database.db;
    const later = (ms: number) => (now = new Date(now.getTime() + ms));
    const storageKeyOf = async (itemId: string) =>
      (
        await db()
          .selectFrom('items')
          .select('storage_key')
          .where('id', '=', itemId)
          .executeTakeFirstOrThrow()
      ).storage_key!;
    /** Uploads `bytes` as `name` (over the file of that name with `replace`), then makes them blocks. */
    const save = async (bytes: Buffer, name: string, conflict?: 'replace') => {
      const file = await uploaded(agent, bytes, { name, conflict });
      await t.deps.blockifier.blockify(await storageKeyOf(file.id));
      now = later(60_000);
      return file.id;
    };
    const versionsOf = async (fileId: string) =>
      (await agent.get(`/api/files/${fileId}/versions`)).json().data as {
        id: string;
        attributes: { current: boolean };
      }[];
    /**
     * Two files each saved twice (the second a replace), named after `prefix`: each file's id, the
     * bytes of each save, and the version each replace displaced.
     */
    const twoReplacedFiles = async (prefix: string) => {
      const [a1, a2, b1, b2] = ['a1', 'a2', 'b1', 'b2'].map((save) => compressible(`${prefix}-${save}`));
      const a = await save(a1!, `${prefix}-a.step`);
      await save(a2!, `${prefix}-a.step`, 'replace');
      const b = await save(b1!, `${prefix}-b.step`);
      await save(b2!, `${prefix}-b.step`, 'replace');
      const [, aOld] = await versionsOf(a);
      const [, bOld] = await versionsOf(b);
      return { a, aOld: aOld!, b, b1: b1!, bOld: bOld! };
    };
    /** The rows of the blocks a file's current content (or its version's: a version's id is its content's) is made of. */
    const blocksOf = async (fileId: string, versionId?: string) => {
      const content =
        versionId ??
        (
          await db()
            .selectFrom('items')
            .select('content_id')
            .where('id', '=', fileId)
            .executeTakeFirstOrThrow()
        ).content_id!;
      return db()
        .selectFrom('content_blocks as cb')
        .innerJoin('blocks as b', 'b.id', 'cb.block_id')
        .select(['b.id', 'b.encoding', 'b.size', 'b.stored_size', 'b.storage_key'])
        .where('cb.content_id', '=', content)
        .orderBy('cb.position')
        .execute();
    };
    const objectKeys = async () => new Set((await t.storedObjects()).map((path) => path.split('/').pop()!));
    /** Every live block has its object, and every block object is a row's: none lost, none leaked. */
    const assertConsistent = async () => {
      const rows = await db().selectFrom('blocks').select(['storage_key', 'state']).execute();
      const objects = await objectKeys();
      for (const row of rows.filter((r) => r.state === 'live'))
        expect(objects.has(row.storage_key), `live block ${row.storage_key} has its object`).toBe(true);
      const named = new Set(rows.map((row) => row.storage_key));
      const items = await db().selectFrom('file_contents').select('storage_key').execute();
      for (const key of objects)
        expect(named.has(key) || items.some((c) => c.storage_key === key), `object ${key} is named`).toBe(
          true,
        );
    };
    const expectBytes = async (url: string, bytes: Buffer) => {
      expect(Buffer.compare((await agent.get(url)).rawPayload, bytes), url).toBe(0);
      const [start, end] = [1000, bytes.length - 1000];
      const ranged = await agent.get(url, { headers: { range: `bytes=${start}-${end}` } });
      expect(ranged.statusCode, url).toBe(206);
      expect(Buffer.compare(ranged.rawPayload, bytes.subarray(start, end + 1)), url).toBe(0);
    };
    const packer = () => t.deps.blockPacker;
    const waitingRepacks = async () => (await t.deps.jobs.counts([blockRepackJob.id])).waiting;
    /**
     * A worker runs the repack jobs waiting until none is left: the file's current blocks end stored
     * as they are, those of the content it displaced (`displacedId`, now only a version's) compressed.
     */
    const repackedByWorker = async (fileId: string, displacedId: string) => {
      const worker = t.deps.jobs.startWorker({ definitions: [blockRepackJob], services: t.deps });
      const settled = { timeout: 30_000, interval: 50 };
      try {
        await expect
          .poll(async () => (await blocksOf(fileId)).map((b) => [b.encoding, b.stored_size]), settled)
          .toEqual([['identity', null]]);
        await expect
          .poll(async () => (await blocksOf(fileId, displacedId)).map((b) => b.encoding), settled)
          .toEqual(['deflate-raw']);
        await expect.poll(waitingRepacks, settled).toBe(0);
      } finally {
        await worker.close();
      }
    };

    it('compresses the blocks only versions name, keeps a current file’s as they are, expands a restored version’s', async () => {
      const [v1, v2] = [compressible('v1'), compressible('v2')];
      const [n1, n2] = [randomBytes(120_000), randomBytes(120_000)];
      const model = await save(v1, 'bracket.step');
      await save(v2, 'bracket.step', 'replace');
      const photo = await save(n1, 'photo.raw');
      await save(n2, 'photo.raw', 'replace');
      await packer().pack();
      // The first runs may weigh blocks of earlier tests: this one's are counted by their rows.
      const [old] = await versionsOf(model).then((list) => list.filter((v) => !v.attributes.current));
      const [oldPhoto] = await versionsOf(photo).then((list) => list.filter((v) => !v.attributes.current));
      const [packed] = await blocksOf(model, old!.id);
      expect(packed!.encoding).toBe('deflate-raw');
      expect(Number(packed!.stored_size)).toBeLessThan(v1.length / 2);
      // Random bytes compress too little: left as they are, weighed once.
      expect((await blocksOf(photo, oldPhoto!.id)).map((b) => [b.encoding, Number(b.stored_size)])).toEqual([
        ['identity', n1.length],
      ]);
      for (const fileId of [model, photo])
        expect((await blocksOf(fileId)).map((b) => [b.encoding, b.stored_size])).toEqual([
          ['identity', null],
        ]);
      expect(await packer().pack()).toEqual({ packed: 0, kept: 0, expanded: 0 });

      await expectBytes(`/file/${model}`, v2);
      await expectBytes(`/api/files/${model}/versions/${old!.id}?download=1`, v1);
      // The object the block had goes with collection, once no read can still be using it.
      const objects = await objectKeys();
      later(UNFINISHED_BLOCK_MS + 60_000);
      await t.deps.blockCollector.collect(now);
      expect((await objectKeys()).size).toBe(objects.size - 1);
      await assertConsistent();
      await expectBytes(`/api/files/${model}/versions/${old!.id}?download=1`, v1);

      // A restore names the compressed block again: the next run stores it as it is, and packs the
      // bytes the restore made a version.
      expect((await agent.post(`/api/files/${model}/versions/${old!.id}/restore`)).statusCode).toBe(200);
      expect((await blocksOf(model)).map((b) => b.encoding)).toEqual(['deflate-raw']);
      await expectBytes(`/file/${model}`, v1);
      expect(await packer().pack()).toEqual({ packed: 1, kept: 0, expanded: 1 });
      expect((await blocksOf(model)).map((b) => [b.encoding, b.stored_size])).toEqual([['identity', null]]);
      await expectBytes(`/file/${model}`, v1);
      const [, replaced] = await versionsOf(model);
      expect((await blocksOf(model, replaced!.id)).map((b) => b.encoding)).toEqual(['deflate-raw']);
      await expectBytes(`/api/files/${model}/versions/${replaced!.id}?download=1`, v2);
      later(UNFINISHED_BLOCK_MS + 60_000);
      await t.deps.blockCollector.collect(now);
      await assertConsistent();
    });

    it('a restore enqueues the repack job: a worker stores the restored blocks as they are without the periodic run', async () => {
      const [v1, v2] = [compressible('job-1'), compressible('job-2')];
      const model = await save(v1, 'hinge.step');
      await save(v2, 'hinge.step', 'replace');
      await packer().pack();
      const [, old] = await versionsOf(model);
      expect((await blocksOf(model, old!.id)).map((b) => b.encoding)).toEqual(['deflate-raw']);
      const before = await waitingRepacks();

      // The clock stands still: the packer's periodic run never comes. The restore's unit of work
      // enqueued the job with the rows it changed.
      expect((await agent.post(`/api/files/${model}/versions/${old!.id}/restore`)).statusCode).toBe(200);
      expect(await waitingRepacks()).toBe(before + 1);
      expect((await blocksOf(model)).map((b) => b.encoding)).toEqual(['deflate-raw']);
      const [, displaced] = await versionsOf(model);
      expect((await blocksOf(model, displaced!.id)).map((b) => b.encoding)).toEqual(['identity']);

      // The restored blocks are stored as they are, and the content the restore displaced, now only a
      // version's, is compressed by the same job.
      await repackedByWorker(model, displaced!.id);
      await expectBytes(`/file/${model}`, v1);
      await expectBytes(`/api/files/${model}/versions/${displaced!.id}?download=1`, v2);
      later(UNFINISHED_BLOCK_MS + 60_000);
      await t.deps.blockCollector.collect(now);
      await assertConsistent();
    });

    it('a replace enqueues the repack job once its bytes are blocks: a worker packs the ones it displaced without the periodic run', async () => {
      const [v1, v2] = [compressible('replaced-1'), compressible('replaced-2')];
      const before = await waitingRepacks();
      const model = await save(v1, 'clasp.step');
      // A first save displaces nothing.
      expect(await waitingRepacks()).toBe(before);

      // The clock stands still: the packer's periodic run never comes. Until the new bytes are
      // blocks nothing is enqueued (the blocks they share with the old ones would count as only a
      // version's); the blockify job's commit enqueues it.
      const replaced = await uploaded(agent, v2, { name: 'clasp.step', conflict: 'replace' });
      expect(replaced.id).toBe(model);
      expect(await waitingRepacks()).toBe(before);
      await t.deps.blockifier.blockify(await storageKeyOf(model));
      expect(await waitingRepacks()).toBe(before + 1);
      const [, displaced] = await versionsOf(model);
      expect((await blocksOf(model, displaced!.id)).map((b) => b.encoding)).toEqual(['identity']);

      await repackedByWorker(model, displaced!.id);
      await expectBytes(`/file/${model}`, v2);
      await expectBytes(`/api/files/${model}/versions/${displaced!.id}?download=1`, v1);
      later(UNFINISHED_BLOCK_MS + 60_000);
      await t.deps.blockCollector.collect(now);
      await assertConsistent();
    });

    it('a run given contents looks only at the blocks they name', async () => {
      const { a: first, aOld: firstOld, b: second, bOld: secondOld } = await twoReplacedFiles('only');
      const { user_id: userId } = await db()
        .selectFrom('items')
        .select('user_id')
        .where('id', '=', first)
        .executeTakeFirstOrThrow();
      expect(await packer().pack(undefined, { userId, contentIds: [firstOld.id] })).toEqual({
        packed: 1,
        kept: 0,
        expanded: 0,
      });
      expect((await blocksOf(first, firstOld.id)).map((b) => b.encoding)).toEqual(['deflate-raw']);
      expect((await blocksOf(second, secondOld.id)).map((b) => b.encoding)).toEqual(['identity']);
      // Another owner's id names none of them.
      expect(
        await packer().pack(undefined, { userId: crypto.randomUUID(), contentIds: [secondOld.id] }),
      ).toEqual({ packed: 0, kept: 0, expanded: 0 });
      expect((await blocksOf(second, secondOld.id)).map((b) => b.encoding)).toEqual(['identity']);
      await packer().pack();
      expect((await blocksOf(second, secondOld.id)).map((b) => b.encoding)).toEqual(['deflate-raw']);
    });

    it('a read that listed a block before the packer rewrote it, and collection took its old object, reads its new one', async () => {
      const [v1, v2] = [compressible('read-1'), compressible('read-2')];
      const model = await save(v1, 'gear.step');
      await save(v2, 'gear.step', 'replace');
      const [, old] = await versionsOf(model);
      const contentKey = (
        await db()
          .selectFrom('file_contents')
          .select('storage_key')
          .where('id', '=', old!.id)
          .executeTakeFirstOrThrow()
      ).storage_key;
      // Listed now, read after the switch and the collection.
      const whole = await t.deps.blockStore.read(contentKey);
      const ranged = await t.deps.blockStore.read(contentKey, { start: 10, end: 5009 });
      expect((await packer().pack()).packed).toBe(1);
      later(UNFINISHED_BLOCK_MS + 60_000);
      await t.deps.blockCollector.collect(now);
      expect(Buffer.compare(await collect(whole), v1)).toBe(0);
      expect(Buffer.compare(await collect(ranged), v1.subarray(10, 5010))).toBe(0);
      await assertConsistent();
    });

    it('a run that stops before the switch, or finds the block current again, leaves the block as it was and nothing behind', async () => {
      const [v1, v2] = [compressible('stop-1'), compressible('stop-2')];
      const model = await save(v1, 'shaft.step');
      await save(v2, 'shaft.step', 'replace');
      const [, old] = await versionsOf(model);
      const [before] = await blocksOf(model, old!.id);
      const repository = new BlockStoreRepository(t.deps.database);
      const packerWith = (switchObject: BlockStoreRepository['switchObject']) =>
        new BlockPacker({
          repository: Object.assign(Object.create(repository) as BlockStoreRepository, { switchObject }),
          storage: t.deps.storage,
          now: () => now,
        });

      // The process dies between writing the compressed copy and the switch.
      await expect(packerWith(() => Promise.reject(new Error('killed'))).pack()).rejects.toThrow('killed');
      expect(await blocksOf(model, old!.id)).toEqual([before]);
      await expectBytes(`/api/files/${model}/versions/${old!.id}?download=1`, v1);
      later(UNFINISHED_BLOCK_MS + 60_000);
      await t.deps.blockCollector.collect(now);
      await assertConsistent();

      // A restore makes the block current between the packer's look-up and its switch (the bytes it
      // makes a version are packed after).
      let restored = false;
      const raced = await packerWith(async (...args) => {
        if (!restored) {
          restored = true;
          expect((await agent.post(`/api/files/${model}/versions/${old!.id}/restore`)).statusCode).toBe(200);
        }
        return repository.switchObject(...args);
      }).pack();
      expect(raced).toEqual({ packed: 1, kept: 0, expanded: 0 });
      expect(await blocksOf(model)).toEqual([before]);
      await expectBytes(`/file/${model}`, v1);
      await assertConsistent();
    });

    it('a block that fails does not hold up the others: the run packs them, then fails', async () => {
      const { a: broken, aOld: lost, b: sound, b1, bOld: kept } = await twoReplacedFiles('fail');
      const [lostBlock] = await blocksOf(broken, lost.id);
      await (await t.deps.storage.current()).delete(lostBlock!.storage_key);
      await expect(packer().pack()).rejects.toThrow('1 block(s) could not be repacked');
      expect((await blocksOf(sound, kept.id)).map((b) => b.encoding)).toEqual(['deflate-raw']);
      await expectBytes(`/api/files/${sound}/versions/${kept.id}?download=1`, b1);
    });
  });
}
