import { sql, type ExpressionBuilder } from 'kysely';
import type { DB } from '../../db/schema';
import type { Database } from '../../db/database';
import type { BlockEncoding, BlockRow, ContentLayout, NewContent } from './files.tables';

/** A block of a content as a read needs it: where it starts in the content, its size and its object. */
export interface ContentBlock {
  /** The block's row: the packer may rewrite its object while a read is under way. */
  id: string;
  offset: number;
  size: number;
  storage_key: string;
  encoding: BlockEncoding;
}

/** A content as the reader and the blockify job see it. */
export interface StoredContent {
  id: string;
  user_id: string;
  storage_key: string;
  size: number;
  sha256: string | null;
  layout: ContentLayout;
  created_at: string;
}

/** A block's row as a read of its bytes needs it. */
export type ContentBlockObject = Pick<BlockRow, 'id' | 'size' | 'storage_key' | 'encoding'>;

/** A block the packer rewrites. */
export type PackedBlock = Pick<BlockRow, 'id' | 'user_id' | 'sha256' | 'size' | 'storage_key' | 'encoding'>;

/** Rolls back a switch whose block is no longer where the packer found it. */
class NotSwitched extends Error {}

/** Whether a file's current content (an item's, in the trash too) names block `b`. */
function namedByCurrent({ exists, selectFrom }: ExpressionBuilder<DB & { b: DB['blocks'] }, 'b'>) {
  return exists(
    selectFrom('content_blocks as cc')
      .innerJoin('items as i', 'i.content_id', 'cc.content_id')
      .select('cc.block_id')
      .whereRef('cc.block_id', '=', 'b.id'),
  );
}

/** Lists of hashes go into `in (…)` in slices of this many, well below both dialects' parameter limits. */
const SLICE = 500;

function slices<T>(values: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += SLICE) out.push(values.slice(i, i + SLICE));
  return out;
}

/**
 * The block store's rows (migration 0038): blocks, the lists of blocks contents are made of, and the
 * layout of contents. Every block query names its owner: blocks are never shared across owners.
 */
export class BlockStoreRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  get dialect() {
    return this.database.dialect;
  }

  /** The owner's live blocks of these hashes (those that exist), locked for share on PostgreSQL. */
  async liveBlocks(
    ownerId: string,
    hashes: readonly string[],
    lock: 'share' | 'none' = 'none',
  ): Promise<Pick<BlockRow, 'id' | 'sha256' | 'size' | 'storage_key' | 'encoding'>[]> {
    const found: Pick<BlockRow, 'id' | 'sha256' | 'size' | 'storage_key' | 'encoding'>[] = [];
    for (const slice of slices([...new Set(hashes)])) {
      const rows = await this.db
        .selectFrom('blocks')
        .select(['id', 'sha256', 'size', 'storage_key', 'encoding'])
        .where('user_id', '=', ownerId)
        .where('state', '=', 'live')
        .where('sha256', 'in', slice)
        .$if(lock === 'share' && this.dialect === 'postgres', (q) => q.forShare())
        .execute();
      found.push(...rows);
    }
    return found;
  }

  /**
   * Marks the owner's live blocks of these hashes as just named; answers the hashes touched. A block
   * collection marked meanwhile is not touched (on PostgreSQL the update waits for the collection's
   * lock, then finds the row no longer live), so what this answers is live when it returns.
   */
  async touch(ownerId: string, hashes: readonly string[], at: string): Promise<Set<string>> {
    const touched = new Set<string>();
    for (const slice of slices([...new Set(hashes)])) {
      const rows = await this.db
        .updateTable('blocks')
        .set({ touched_at: at })
        .where('user_id', '=', ownerId)
        .where('state', '=', 'live')
        .where('sha256', 'in', slice)
        .returning('sha256')
        .execute();
      for (const row of rows) touched.add(row.sha256);
    }
    return touched;
  }

  /**
   * The row of a block about to be written, in state 'deleting': never referenced, and taken by
   * collection (object and row) if the write never finishes.
   */
  async insertPendingBlock(
    block: Omit<BlockRow, 'state' | 'encoding' | 'stored_size'> &
      Partial<Pick<BlockRow, 'encoding' | 'stored_size'>>,
  ): Promise<void> {
    // Shares the owner's block lock with other writes; an account's deletion holds it alone (see
    // lockOwnerBlocks), so no block row of the owner appears after the deletion listed its objects.
    await this.database.transaction(async () => {
      await this.lockOwnerBlocks(block.user_id, 'shared');
      await this.db
        .insertInto('blocks')
        .values({ ...block, state: 'deleting' })
        .execute();
    });
  }

  /**
   * On PostgreSQL, the owner's block lock until the unit of work ends: 'shared' for a block write,
   * 'exclusive' for an account's deletion, which lists the owner's block objects for its purge and
   * then deletes the rows by the account's cascade. A write waiting on it then fails on the account
   * that is gone (its job ends: the content went too) instead of adding a row after the list, whose
   * object nothing would delete. SQLite has one writer at a time.
   */
  async lockOwnerBlocks(ownerId: string, mode: 'shared' | 'exclusive'): Promise<void> {
    if (this.dialect !== 'postgres') return;
    const key = `owner-blocks:${ownerId}`;
    await (
      mode === 'shared'
        ? sql`select pg_advisory_xact_lock_shared(hashtextextended(${key}, 0))`
        : sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`
    ).execute(this.db);
  }

  /**
   * Makes a written block live; false when it can't be: the owner has a live block of the hash
   * already (a concurrent write of the same bytes won), or collection took the row meanwhile.
   */
  async makeLive(block: Pick<BlockRow, 'id' | 'user_id' | 'sha256'>, at: string): Promise<boolean> {
    try {
      const result = await this.db
        .updateTable('blocks')
        .set({ state: 'live', touched_at: at })
        .where('id', '=', block.id)
        .where('state', '=', 'deleting')
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('blocks as other')
                .select('other.id')
                .where('other.user_id', '=', block.user_id)
                .where('other.sha256', '=', block.sha256)
                .where('other.state', '=', 'live'),
            ),
          ),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    } catch (error) {
      // Two writes of the same bytes made live at once: the unique index lets one through. (An error
      // after this write went through, the connection lost, finds this very block live.)
      const [live] = await this.liveBlocks(block.user_id, [block.sha256]);
      if (live) return live.id === block.id;
      throw error;
    }
  }

  /** Removes a block row that never became live (its object deleted first). */
  async deletePendingBlock(id: string): Promise<void> {
    await this.db.deleteFrom('blocks').where('id', '=', id).where('state', '=', 'deleting').execute();
  }

  // ---- packing ----------------------------------------------------------------------------------

  /**
   * Live blocks whose encoding the packer changes, `limit` of each by id after `after`'s: 'pack',
   * stored as they are, not yet weighed (`stored_size` null), named by a version and by no file's
   * current content; 'expand', stored compressed and named by a file's current content (a restored
   * version's). With `contents`, only the blocks those contents of the owner's name.
   */
  async repackCandidates(
    after: { pack: string; expand: string },
    limit: number,
    contents?: { userId: string; contentIds: readonly string[] },
  ): Promise<{ pack: PackedBlock[]; expand: PackedBlock[] }> {
    const base = (from: string) => {
      const blocks = this.db
        .selectFrom('blocks as b')
        .select(['b.id', 'b.user_id', 'b.sha256', 'b.size', 'b.storage_key', 'b.encoding'])
        .where('b.state', '=', 'live')
        .where('b.id', '>', from)
        .orderBy('b.id')
        .limit(limit);
      if (!contents) return blocks;
      // Driven by the contents' lists of blocks (their primary key), not by a walk of every block.
      return blocks.where('b.user_id', '=', contents.userId).where('b.id', 'in', (eb) =>
        eb
          .selectFrom('content_blocks as named')
          .select('named.block_id')
          .where('named.content_id', 'in', [...contents.contentIds]),
      );
    };
    const [pack, expand] = await Promise.all([
      base(after.pack)
        .where('b.encoding', '=', 'identity')
        .where('b.stored_size', 'is', null)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('content_blocks as cb')
              .innerJoin('file_versions as v', 'v.content_id', 'cb.content_id')
              .select('cb.block_id')
              .whereRef('cb.block_id', '=', 'b.id'),
          ),
        )
        .where((eb) => eb.not(namedByCurrent(eb)))
        .execute(),
      base(after.expand).where('b.encoding', '<>', 'identity').where(namedByCurrent).execute(),
    ]);
    return { pack, expand };
  }

  /** The block's row while it is live: where its bytes are now. */
  liveBlockById(id: string): Promise<ContentBlockObject | undefined> {
    return this.db
      .selectFrom('blocks')
      .select(['id', 'size', 'storage_key', 'encoding'])
      .where('id', '=', id)
      .where('state', '=', 'live')
      .executeTakeFirst();
  }

  /** Records that packing the block saves too little: it stays as it is, and is not weighed again. */
  async keepAsIs(block: Pick<BlockRow, 'id' | 'storage_key' | 'size'>): Promise<void> {
    await this.db
      .updateTable('blocks')
      .set({ stored_size: block.size })
      .where('id', '=', block.id)
      .where('storage_key', '=', block.storage_key)
      .where('encoding', '=', 'identity')
      .execute();
  }

  /**
   * In one transaction: the live block's row names the object of `pending` (a `deleting` row the
   * packer wrote it under) with its encoding, and `pending` names the block's old object instead,
   * touched at `at`, so collection deletes that object once no read that listed it can still be
   * under way (UNFINISHED_BLOCK_MS). False, changing nothing, when the block is no longer live at
   * its old object, or no longer `where` the packer found it (current, or only a version's).
   */
  async switchObject(
    block: Pick<BlockRow, 'id' | 'storage_key'>,
    pending: Pick<BlockRow, 'id' | 'storage_key' | 'encoding' | 'stored_size'>,
    where: 'current' | 'versions',
    at: string,
  ): Promise<boolean> {
    try {
      await this.database.transaction(async () => {
        // Keys are unique: the pending row lets go of its key for the time of the switch.
        const parked = await this.db
          .updateTable('blocks')
          .set({ storage_key: `switching-${pending.id}` })
          .where('id', '=', pending.id)
          .where('state', '=', 'deleting')
          .executeTakeFirst();
        if (Number(parked.numUpdatedRows) === 0) throw new NotSwitched();
        const switched = await this.db
          .updateTable('blocks as b')
          .set({
            storage_key: pending.storage_key,
            encoding: pending.encoding,
            stored_size: pending.stored_size,
          })
          .where('b.id', '=', block.id)
          .where('b.state', '=', 'live')
          .where('b.storage_key', '=', block.storage_key)
          .where((eb) => (where === 'current' ? namedByCurrent(eb) : eb.not(namedByCurrent(eb))))
          .executeTakeFirst();
        if (Number(switched.numUpdatedRows) === 0) throw new NotSwitched();
        await this.db
          .updateTable('blocks')
          .set({ storage_key: block.storage_key, touched_at: at })
          .where('id', '=', pending.id)
          .execute();
      });
      return true;
    } catch (error) {
      if (error instanceof NotSwitched) return false;
      throw error;
    }
  }

  // ---- garbage collection -----------------------------------------------------------------------

  /** Live blocks no content names, untouched since `before`: collection's candidates, oldest first. */
  collectionCandidates(before: string, limit: number): Promise<{ id: string }[]> {
    return this.db
      .selectFrom('blocks as b')
      .select('b.id')
      .where('b.state', '=', 'live')
      .where('b.touched_at', '<', before)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('content_blocks as cb').select('cb.block_id').whereRef('cb.block_id', '=', 'b.id'),
          ),
        ),
      )
      .orderBy('b.touched_at')
      .limit(limit)
      .execute();
  }

  /** Locks the blocks for update (PostgreSQL), so a commit naming one waits, or is waited for. */
  async lockForCollection(ids: readonly string[]): Promise<void> {
    if (this.dialect !== 'postgres' || ids.length === 0) return;
    await this.db
      .selectFrom('blocks')
      .select('id')
      .where('id', 'in', ids)
      .orderBy('id')
      .forUpdate()
      .execute();
  }

  /**
   * In a statement after the lock: marks `deleting` those of the blocks still live, untouched since
   * `before` and named by no content; answers them.
   */
  markForCollection(ids: readonly string[], before: string): Promise<{ id: string; storage_key: string }[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .updateTable('blocks')
      .set({ state: 'deleting' })
      .where('id', 'in', ids)
      .where('state', '=', 'live')
      .where('touched_at', '<', before)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('content_blocks as cb')
              .select('cb.block_id')
              .whereRef('cb.block_id', '=', 'blocks.id'),
          ),
        ),
      )
      .returning(['id', 'storage_key'])
      .execute();
  }

  /** Blocks marked `deleting` before `before` (a collection or a write that stopped half way), oldest first. */
  deletingBefore(before: string, limit: number): Promise<{ id: string; storage_key: string }[]> {
    return this.db
      .selectFrom('blocks')
      .select(['id', 'storage_key'])
      .where('state', '=', 'deleting')
      .where('touched_at', '<', before)
      .orderBy('touched_at')
      .limit(limit)
      .execute();
  }

  /** Removes rows of blocks marked `deleting` whose objects are gone. */
  async deleteCollected(ids: readonly string[]): Promise<void> {
    for (const slice of slices(ids))
      await this.db.deleteFrom('blocks').where('id', 'in', slice).where('state', '=', 'deleting').execute();
  }

  /** The objects of every block of the owner, a batch at a time (for an account that goes). */
  async *blockKeysOf(ownerId: string, batch: number): AsyncGenerator<string[]> {
    let after = '';
    for (;;) {
      const rows = await this.db
        .selectFrom('blocks')
        .select(['id', 'storage_key'])
        .where('user_id', '=', ownerId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(batch)
        .execute();
      if (rows.length === 0) return;
      yield rows.map((row) => row.storage_key);
      after = rows[rows.length - 1]!.id;
    }
  }

  async insertContent(content: NewContent & { layout: ContentLayout }): Promise<void> {
    await this.db.insertInto('file_contents').values(content).execute();
  }

  /** The content's list of blocks, block by block from `position` 0. */
  async insertContentBlocks(
    contentId: string,
    blocks: readonly { block_id: string; offset: number }[],
  ): Promise<void> {
    const rows = blocks.map((block, position) => ({ content_id: contentId, position, ...block }));
    for (const slice of slices(rows)) await this.db.insertInto('content_blocks').values(slice).execute();
  }

  /** The content stored at this key, if a content names it (a legacy item may name an object alone). */
  contentByKey(storageKey: string): Promise<StoredContent | undefined> {
    return this.db
      .selectFrom('file_contents')
      .select(['id', 'user_id', 'storage_key', 'size', 'sha256', 'layout', 'created_at'])
      .where('storage_key', '=', storageKey)
      .executeTakeFirst();
  }

  contentById(contentId: string): Promise<StoredContent | undefined> {
    return this.db
      .selectFrom('file_contents')
      .select(['id', 'user_id', 'storage_key', 'size', 'sha256', 'layout', 'created_at'])
      .where('id', '=', contentId)
      .executeTakeFirst();
  }

  /** The hashes of a content's blocks, in order. */
  async hashesOf(contentId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('content_blocks as cb')
      .innerJoin('blocks as b', 'b.id', 'cb.block_id')
      .select('b.sha256')
      .where('cb.content_id', '=', contentId)
      .orderBy('cb.position')
      .execute();
    return rows.map((row) => row.sha256);
  }

  /**
   * The blocks of a content that hold bytes `start`..`end` (inclusive), in order; all of them without
   * a range.
   */
  blocksOf(contentId: string, range?: { start: number; end: number }): Promise<ContentBlock[]> {
    return this.db
      .selectFrom('content_blocks as cb')
      .innerJoin('blocks as b', 'b.id', 'cb.block_id')
      .select(['b.id', 'cb.offset', 'b.size', 'b.storage_key', 'b.encoding'])
      .where('cb.content_id', '=', contentId)
      .$if(range !== undefined, (q) =>
        q
          .where('cb.offset', '<=', range!.end)
          .where(sql<number>`${sql.ref('cb.offset')} + ${sql.ref('b.size')}`, '>', range!.start),
      )
      .orderBy('cb.position')
      .execute();
  }

  /**
   * Makes an `object` content the list of blocks given (in order, by id), with its whole-file hash;
   * false, changing nothing, when it is no longer an `object` content (done already, or deleted).
   */
  async becomeBlocks(
    contentId: string,
    sha256: string,
    blocks: readonly { block_id: string; offset: number }[],
  ): Promise<boolean> {
    // The row is claimed (and locked, on PostgreSQL) first; the layout changes once the list is
    // there, since storage_usage's trigger counts versions' blocks when it does (migration 0048).
    const claimed = await this.db
      .updateTable('file_contents')
      .set({ sha256 })
      .where('id', '=', contentId)
      .where('layout', '=', 'object')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return false;
    await this.insertContentBlocks(contentId, blocks);
    await this.db
      .updateTable('file_contents')
      .set({ layout: 'blocks' })
      .where('id', '=', contentId)
      .execute();
    return true;
  }

  /**
   * The content kept as the newest version of the owner's file whose current content is `contentId`:
   * the bytes the save that filed `contentId` displaced. Null when no file holds it or it has no version.
   */
  async displacedBy(userId: string, contentId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('items as i')
      .innerJoin('file_versions as v', (join) =>
        join.onRef('v.item_id', '=', 'i.id').onRef('v.user_id', '=', 'i.user_id'),
      )
      .select('v.content_id')
      .where('i.user_id', '=', userId)
      .where('i.content_id', '=', contentId)
      .orderBy('v.id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.content_id ?? null;
  }

  /** Records a content's whole-file hash where none is recorded. */
  async recordSha256(contentId: string, sha256: string): Promise<void> {
    await this.db
      .updateTable('file_contents')
      .set({ sha256 })
      .where('id', '=', contentId)
      .where('sha256', 'is', null)
      .execute();
  }

  /** Contents still stored as one object, filed before `before`, oldest first, after `after`. */
  objectContentsBefore(
    before: string,
    after: { created_at: string; id: string } | null,
    limit: number,
  ): Promise<{ id: string; storage_key: string; created_at: string }[]> {
    return this.db
      .selectFrom('file_contents')
      .select(['id', 'storage_key', 'created_at'])
      .where('layout', '=', 'object')
      .where('created_at', '<', before)
      .$if(after !== null, (q) =>
        q.where((eb) =>
          eb.or([
            eb('created_at', '>', after!.created_at),
            eb.and([eb('created_at', '=', after!.created_at), eb('id', '>', after!.id)]),
          ]),
        ),
      )
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }
}
