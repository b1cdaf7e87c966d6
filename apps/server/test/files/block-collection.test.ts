import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { BLOCK_GRACE_MS, UNFINISHED_BLOCK_MS } from '../../src/modules/files/block-collector';
import { MissingBlocksError, sha256Hex } from '../../src/modules/files/block-store';
import { newStorageKey } from '../../src/storage/storage';
import { createUser } from '../support/factories';
import { createFilesTestApp, filesMatrix, type FilesTestApp } from './files-harness';

const HOUR = 60 * 60_000;

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** A promise and the function that settles it: a step a test holds until it lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

for (const [database, storage] of filesMatrix) {
  describe(`block collection [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let owner: UserRow;
    let other: UserRow;
    let now = new Date('2026-05-01T00:00:00Z');

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage, {}, () => now);
      ({ user: owner } = await createUser(t.deps));
      ({ user: other } = await createUser(t.deps));
    });
    afterAll(() => t.close());

    const db = () => t.deps.database.db;
    const store = () => t.deps.blockStore;
    const collector = () => t.deps.blockCollector;
    const later = (ms: number) => (now = new Date(now.getTime() + ms));
    const put = async (userId: string, bytes: Buffer) => {
      const hash = sha256Hex(bytes);
      await store().putBlock(userId, hash, bytes);
      return hash;
    };
    const rowsOf = (hash: string) =>
      db().selectFrom('blocks').selectAll().where('sha256', '=', hash).orderBy('created_at').execute();
    const objectKeys = async () => new Set((await t.storedObjects()).map((path) => path.split('/').pop()!));
    const fileOf = (userId: string, hashes: string[]) =>
      t.deps.database.transaction((trx) =>
        store().createContent(trx, { ownerId: userId, authorId: userId, hashes, mimetype: null }),
      );

    /**
     * Every block row's object exists unless the row is being deleted, and every object a block ever
     * had is either a row's or gone: no block lost, none leaked.
     */
    const assertConsistent = async (written: Set<string>) => {
      const rows = await db().selectFrom('blocks').selectAll().execute();
      const objects = await objectKeys();
      for (const row of rows.filter((r) => r.state === 'live'))
        expect(objects.has(row.storage_key), `live block ${row.id} has its object`).toBe(true);
      const named = new Set(rows.map((row) => row.storage_key));
      for (const key of written)
        if (objects.has(key)) expect(named.has(key), `object ${key} belongs to a row`).toBe(true);
    };
    const everyBlockKey = async () =>
      new Set((await db().selectFrom('blocks').select('storage_key').execute()).map((r) => r.storage_key));

    /** On PostgreSQL, until some session waits on a row lock; elsewhere one turn of the event loop. */
    const lockWaiter = async () => {
      if (database !== 'postgres') return new Promise((resolve) => setImmediate(resolve));
      await expect
        .poll(
          async () =>
            Number(
              (
                await sql<{
                  n: number;
                }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock'`.execute(
                  db(),
                )
              ).rows[0]!.n,
            ),
          { timeout: 10_000, interval: 20 },
        )
        .toBeGreaterThan(0);
    };

    it('collects blocks no file names after their grace period, keeps named and recent ones, and other owners’', async () => {
      const named = await put(owner.id, randomBytes(2000));
      const orphan = await put(owner.id, randomBytes(2000));
      const theirs = await put(other.id, randomBytes(2000));
      const file = await fileOf(owner.id, [named]);
      const written = await everyBlockKey();
      later(BLOCK_GRACE_MS - HOUR);
      const recent = await put(owner.id, randomBytes(100));
      // Named by a delta upload's question within the grace period: kept.
      expect(await store().missing(other.id, [theirs])).toEqual([]);
      later(2 * HOUR);
      expect(await collector().collect(now)).toBe(1);
      expect(await rowsOf(orphan)).toEqual([]);
      expect((await rowsOf(named)).map((row) => row.state)).toEqual(['live']);
      expect((await rowsOf(recent)).map((row) => row.state)).toEqual(['live']);
      expect((await rowsOf(theirs)).map((row) => row.state)).toEqual(['live']);
      await assertConsistent(written);
      expect(await collect(await store().read(file.storageKey))).toHaveLength(2000);
    });

    it('a commit naming a candidate first: collection waits for it, then leaves the block alone', async () => {
      const bytes = randomBytes(3000);
      const hash = await put(owner.id, bytes);
      later(BLOCK_GRACE_MS + HOUR);
      const held = gate();
      const reached = gate();
      const committing = t.deps.database.transaction(async (trx) => {
        const created = await store().createContent(trx, {
          ownerId: owner.id,
          authorId: owner.id,
          hashes: [hash],
          mimetype: null,
        });
        reached.open();
        await held.opened;
        return created;
      });
      // The commit holds its share lock (and has written its list) before the collection starts.
      await reached.opened;
      const collecting = collector().collect(now);
      await lockWaiter();
      held.open();
      const created = await committing;
      await collecting;
      expect((await rowsOf(hash)).map((row) => row.state)).toEqual(['live']);
      expect(Buffer.compare(await collect(await store().read(created.storageKey)), bytes)).toBe(0);
    });

    it('collection marking a block first: the commit naming it waits, finds it missing, and the block sent again is stored anew', async () => {
      const bytes = randomBytes(3000);
      const hash = await put(owner.id, bytes);
      const [first] = await rowsOf(hash);
      later(BLOCK_GRACE_MS + HOUR);
      const held = gate();
      const reached = gate();
      const marking = collector().mark(new Date(now.getTime() - BLOCK_GRACE_MS).toISOString(), async () => {
        reached.open();
        await held.opened;
      });
      await reached.opened;
      // The commit starts while the collection holds its lock and has marked the block.
      const committing = fileOf(owner.id, [hash]).then(
        () => null,
        (error: unknown) => error,
      );
      await lockWaiter();
      held.open();
      const marked = await marking;
      expect(marked.map((block) => block.id)).toContain(first!.id);
      const refused = await committing;
      expect(refused).toBeInstanceOf(MissingBlocksError);
      expect((refused as MissingBlocksError).missing).toEqual([hash]);
      // No content was filed naming it.
      expect(
        await db()
          .selectFrom('content_blocks')
          .select('content_id')
          .where('block_id', '=', first!.id)
          .execute(),
      ).toEqual([]);

      // The client asks again, is told the block is missing, sends it: a new row with a new key.
      expect(await store().missing(owner.id, [hash])).toEqual([hash]);
      await store().putBlock(owner.id, hash, bytes);
      const created = await fileOf(owner.id, [hash]);
      await collector().remove(marked);
      const rows = await rowsOf(hash);
      expect(rows.map((row) => row.state)).toEqual(['live']);
      expect(rows[0]!.storage_key).not.toBe(first!.storage_key);
      expect(Buffer.compare(await collect(await store().read(created.storageKey)), bytes)).toBe(0);
      expect((await objectKeys()).has(first!.storage_key)).toBe(false);
    });

    it('finishes a collection that stopped between marking and deleting, and a write that stopped half way', async () => {
      const bytes = randomBytes(1500);
      const hash = await put(owner.id, bytes);
      const [block] = await rowsOf(hash);
      later(BLOCK_GRACE_MS + HOUR);
      // The process dies after the marking committed: the rows stay `deleting`, their objects too.
      const marked = await collector().mark(new Date(now.getTime() - BLOCK_GRACE_MS).toISOString());
      expect(marked.map((row) => row.id)).toContain(block!.id);
      expect((await rowsOf(hash)).map((row) => row.state)).toEqual(['deleting']);
      expect((await objectKeys()).has(block!.storage_key)).toBe(true);
      // The same bytes uploaded meanwhile are a new live block beside the one being deleted.
      await store().putBlock(owner.id, hash, bytes);
      expect((await rowsOf(hash)).map((row) => row.state)).toEqual(['deleting', 'live']);

      // A block write that died after its row and object, before turning live.
      const halfKey = newStorageKey();
      await (await t.deps.storage.current()).put(halfKey, randomBytes(10));
      await db()
        .insertInto('blocks')
        .values({
          id: randomUUID(),
          user_id: owner.id,
          sha256: sha256Hex(randomBytes(10)),
          size: 10,
          storage_key: halfKey,
          state: 'deleting',
          created_at: now.toISOString(),
          touched_at: now.toISOString(),
        })
        .execute();
      // Not while such a write may still be under way.
      await collector().collect(now);
      expect((await objectKeys()).has(halfKey)).toBe(true);
      later(UNFINISHED_BLOCK_MS + 1);
      await collector().collect(now);
      expect(await db().selectFrom('blocks').select('id').where('state', '=', 'deleting').execute()).toEqual(
        [],
      );
      const objects = await objectKeys();
      expect(objects.has(halfKey)).toBe(false);
      expect(objects.has(block!.storage_key)).toBe(false);
      const [live] = await rowsOf(hash);
      expect(objects.has(live!.storage_key)).toBe(true);
    });
    it('leaves nothing of a block write killed as soon as its object is stored, once no write can still be under way', async () => {
      const bytes = randomBytes(1200);
      const hash = sha256Hex(bytes);
      const storage = await t.deps.storage.current();
      const put = storage.put.bind(storage);
      const written: string[] = [];
      // The process dies right after the object is stored: nothing of the write runs after that.
      const dying = vi.spyOn(storage, 'put').mockImplementation(async (key, body, options) => {
        await put(key, body, options);
        written.push(key);
        throw new Error('killed');
      });
      try {
        await expect(store().putBlock(owner.id, hash, bytes)).rejects.toThrow('killed');
      } finally {
        dying.mockRestore();
      }
      expect(written).toHaveLength(1);
      await collector().collect(now);
      expect((await objectKeys()).has(written[0]!)).toBe(true);
      later(UNFINISHED_BLOCK_MS + 1);
      await collector().collect(now);
      expect((await objectKeys()).has(written[0]!)).toBe(false);
      expect(await rowsOf(hash)).toEqual([]);
      // The bytes sent again become a live block.
      await store().putBlock(owner.id, hash, bytes);
      expect((await rowsOf(hash)).map((row) => row.state)).toEqual(['live']);
    });

    it("leaves no block behind that a write added while the owner's account was being deleted", async () => {
      const { user: leaving } = await createUser(t.deps);
      const objectsBefore = new Set(await t.storedObjects());
      const bytes = randomBytes(200_000);
      let go!: () => void;
      const started = new Promise<void>((resolve) => (go = resolve));
      let settled = false;
      // Made outside the unit of work below, as the blockify job's writes are.
      const write = (async () => {
        await started;
        await store().putBlock(leaving.id, sha256Hex(bytes), bytes);
      })().finally(() => (settled = true));
      write.catch(() => {});
      await t.deps.database.transaction(async () => {
        await t.deps.files.purgeOwner(leaving.id);
        go();
        // The write finishes, or waits for this deletion (PostgreSQL's lock; SQLite's one writer).
        for (let turn = 0; turn < 200 && !settled; turn++) {
          if (database === 'postgres') {
            const waiting = await sql<{ n: number }>`
              select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`.execute(
              db(),
            );
            if (waiting.rows[0]!.n > 0) break;
          } else if (turn >= 10) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await db().deleteFrom('users').where('id', '=', leaving.id).execute();
      });
      await write.catch(() => {});
      // Every object the account had was listed for its purge; the write added none of its own.
      const added = (await t.storedObjects()).filter((key) => !objectsBefore.has(key));
      expect(added).toEqual([]);
      expect(
        await db().selectFrom('blocks').select('id').where('user_id', '=', leaving.id).execute(),
      ).toEqual([]);
    });
  });
}
