import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { brotliCompressSync, deflateRawSync, inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { BlockHashMismatchError, MissingBlocksError, sha256Hex } from '../../src/modules/files/block-store';
import { timeOrderedId } from '../../src/lib/time-ordered-id';
import { newStorageKey } from '../../src/storage/storage';
import { createUser } from '../support/factories';
import { createFilesTestApp, filesMatrix, type FilesTestApp } from './files-harness';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

for (const [database, storage] of filesMatrix) {
  describe(`block store [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let owner: UserRow;
    let other: UserRow;

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage);
      ({ user: owner } = await createUser(t.deps));
      ({ user: other } = await createUser(t.deps));
    });
    afterAll(() => t.close());

    const blocks = () => t.deps.blockStore;
    /** Files a content of the owner's blocks in a transaction of its own. */
    const contentOf = (hashes: string[]) =>
      t.deps.database.transaction((trx) =>
        blocks().createContent(trx, { ownerId: owner.id, authorId: owner.id, hashes, mimetype: null }),
      );
    const rowsOf = (userId: string) =>
      t.deps.database.db.selectFrom('blocks').selectAll().where('user_id', '=', userId).execute();

    it('answers the hashes an owner lacks, in order, each once, and never from another owner', async () => {
      const a = randomBytes(1000);
      const b = randomBytes(2000);
      const [ha, hb] = [sha256Hex(a), sha256Hex(b)];
      expect(await blocks().missing(owner.id, [ha, hb, ha])).toEqual([ha, hb]);
      await blocks().putBlock(owner.id, ha, a);
      expect(await blocks().missing(owner.id, [hb, ha, hb])).toEqual([hb]);
      // Dedup is per owner: the other account is told nothing of what this one stores.
      expect(await blocks().missing(other.id, [ha])).toEqual([ha]);
    });

    it('refuses bytes that are not the hash they are sent as, storing nothing', async () => {
      const before = (await t.storedObjects()).length;
      const bytes = randomBytes(500);
      await expect(blocks().putBlock(owner.id, sha256Hex(randomBytes(10)), bytes)).rejects.toBeInstanceOf(
        BlockHashMismatchError,
      );
      expect((await t.storedObjects()).length).toBe(before);
    });

    it('stores a block once per owner however often it is sent', async () => {
      const bytes = randomBytes(3000);
      const hash = sha256Hex(bytes);
      await Promise.all([1, 2, 3].map(() => blocks().putBlock(owner.id, hash, bytes)));
      await blocks().putBlock(owner.id, hash, bytes);
      const rows = (await rowsOf(owner.id)).filter((row) => row.sha256 === hash);
      expect(rows).toHaveLength(1);
      const objects = await t.storedObjects();
      expect(objects.filter((key) => key.endsWith(rows[0]!.storage_key))).toHaveLength(1);
    });

    it('files a content from blocks and reads it whole and by ranges across block boundaries', async () => {
      const parts = [randomBytes(70_000), randomBytes(1), randomBytes(33_333), randomBytes(70_000)];
      const hashes = parts.map(sha256Hex);
      // The same block twice in one file is stored once and read twice.
      const list = [...hashes, hashes[0]!];
      const whole = Buffer.concat([...parts, parts[0]!]);
      for (const [index, part] of parts.entries()) await blocks().putBlock(owner.id, hashes[index]!, part);

      const created = await contentOf(list);
      expect(created.size).toBe(whole.length);
      const content = await t.deps.database.db
        .selectFrom('file_contents')
        .selectAll()
        .where('id', '=', created.contentId)
        .executeTakeFirstOrThrow();
      expect([content.layout, content.storage_key, Number(content.size)]).toEqual([
        'blocks',
        created.storageKey,
        whole.length,
      ]);

      expect(Buffer.compare(await collect(await blocks().read(created.storageKey)), whole)).toBe(0);
      const ranges = [
        [0, 0],
        [69_999, 70_000],
        [69_998, 70_002],
        [70_001, 70_001 + 33_333 + 5],
        [10, whole.length - 1],
        [whole.length - 1, whole.length - 1],
        [0, whole.length - 1],
      ];
      for (const [start, end] of ranges) {
        const got = await collect(await blocks().read(created.storageKey, { start: start!, end: end! }));
        expect(Buffer.compare(got, whole.subarray(start!, end! + 1)), `${start}-${end}`).toBe(0);
      }
    });

    /** A block as the packer or an earlier version stored it: its object and row written directly. */
    const storedAs = async (bytes: Buffer, stored?: { encoding: 'br' | 'deflate-raw'; body: Buffer }) => {
      const storage = await t.deps.storage.current();
      const key = newStorageKey();
      await storage.put(key, stored?.body ?? bytes, { contentType: 'application/octet-stream' });
      const at = new Date().toISOString();
      await t.deps.database.db
        .insertInto('blocks')
        .values({
          id: timeOrderedId(),
          user_id: owner.id,
          sha256: sha256Hex(bytes),
          size: bytes.length,
          storage_key: key,
          created_at: at,
          touched_at: at,
          ...(stored && { encoding: stored.encoding, stored_size: stored.body.length }),
        })
        .execute();
    };

    it('stores a block as it is, and reads blocks stored deflated, brotli-compressed and before compression', async () => {
      const words = ['solid', 'extrude', 'fillet', 'sketch', 'plane', 'axis', '12.5', '0.25', '\n'];
      const text = Buffer.from(
        Array.from({ length: 60_000 }, (_, i) => words[(i * 7 + (i >> 3)) % words.length]).join(' '),
      );
      const noise = randomBytes(50_000);
      const storage = await t.deps.storage.current();
      // Stored before compression: a row without encoding or stored size, its object as is.
      const old = randomBytes(40_000);
      await storedAs(old);
      // Stored brotli-compressed, as blocks were before raw deflate.
      const brotli = Buffer.from(text.subarray(0, 50_000).toString().split(' ').reverse().join(' '));
      await storedAs(brotli, { encoding: 'br', body: brotliCompressSync(brotli) });
      // Stored deflated, as the packer stores a block only versions name.
      await storedAs(text, { encoding: 'deflate-raw', body: deflateRawSync(text, { level: 1 }) });
      await blocks().putBlock(owner.id, sha256Hex(noise), noise);
      const plain = Buffer.from(text.toString().toUpperCase());
      await blocks().putBlock(owner.id, sha256Hex(plain), plain);

      const rows = await rowsOf(owner.id);
      const row = (bytes: Buffer) => rows.find((r) => r.sha256 === sha256Hex(bytes))!;
      // A written block is stored as it is, compressible or not, and not yet weighed by the packer.
      for (const written of [noise, plain]) {
        expect([row(written).encoding, row(written).stored_size]).toEqual(['identity', null]);
        expect((await collect(await storage.get(row(written).storage_key))).equals(written)).toBe(true);
      }
      expect([row(old).encoding, row(old).stored_size]).toEqual(['identity', null]);
      expect(inflateRawSync(await collect(await storage.get(row(text).storage_key))).equals(text)).toBe(true);

      const parts = [noise, text, old, brotli, text, plain];
      const whole = Buffer.concat(parts);
      const created = await contentOf(parts.map(sha256Hex));
      expect(created.size).toBe(whole.length);
      expect(Buffer.compare(await collect(await blocks().read(created.storageKey)), whole)).toBe(0);
      const t1 = noise.length;
      const t2 = t1 + text.length;
      const b1 = t2 + old.length;
      const b2 = b1 + brotli.length;
      const ranges = [
        [t1, t1],
        [t1 + 5, t1 + 70_000],
        [t1 - 3, t2 + 3],
        [t2 - 1, t2 + old.length + 10],
        // Inside the brotli block, across its ends, and inside the deflated block after it.
        [b1 + 7, b1 + 30_000],
        [b1 - 2, b2 + 2],
        [b2 + 1, b2 + 2],
        [b2 + 100, whole.length - 1],
        [whole.length - 1, whole.length - 1],
      ];
      for (const [start, end] of ranges) {
        const got = await collect(await blocks().read(created.storageKey, { start: start!, end: end! }));
        expect(Buffer.compare(got, whole.subarray(start!, end! + 1)), `${start}-${end}`).toBe(0);
      }
      // The first bytes of a compressed block, as the delta upload reads them to know a file's type.
      const head = await collect(await blocks().readBlock(owner.id, sha256Hex(text), { start: 0, end: 99 }));
      expect(Buffer.compare(head, text.subarray(0, 100))).toBe(0);
    });

    it('gives a content a block at a time, a compressed block inflated in one piece', async () => {
      // Compressible blocks of many times the 16 KiB a zlib stream hands out at a time.
      const parts = [1, 2, 3].map((n) => Buffer.from(`face ${n} edge ${n * 7} loop\n`.repeat(10_000 + n)));
      for (const part of parts)
        await storedAs(part, { encoding: 'deflate-raw', body: deflateRawSync(part, { level: 1 }) });
      const created = await contentOf(parts.map(sha256Hex));
      const chunkSizes = async (range?: { start: number; end: number }) => {
        const sizes: number[] = [];
        for await (const chunk of await blocks().read(created.storageKey, range))
          sizes.push((chunk as Buffer).byteLength);
        return sizes;
      };
      expect(await chunkSizes()).toEqual(parts.map((part) => part.length));
      // A range: the part of each block it spans, each in one piece.
      const [a, b] = [parts[0]!.length, parts[1]!.length];
      expect(await chunkSizes({ start: a - 10, end: a + b + 9 })).toEqual([10, b, 10]);
    });

    it('refuses a content naming blocks the owner lacks, filing nothing', async () => {
      const stored = randomBytes(100);
      await blocks().putBlock(owner.id, sha256Hex(stored), stored);
      const lacking = sha256Hex(randomBytes(100));
      // Another owner's block is not the owner's.
      const theirs = randomBytes(100);
      await blocks().putBlock(other.id, sha256Hex(theirs), theirs);
      const contents = async () =>
        (await t.deps.database.db.selectFrom('file_contents').select('id').execute()).length;
      const before = await contents();
      const attempt = contentOf([sha256Hex(stored), lacking, sha256Hex(theirs), lacking]);
      await expect(attempt).rejects.toBeInstanceOf(MissingBlocksError);
      await attempt.catch((error: MissingBlocksError) =>
        expect(error.missing).toEqual([lacking, sha256Hex(theirs)]),
      );
      expect(await contents()).toBe(before);
    });
  });
}
