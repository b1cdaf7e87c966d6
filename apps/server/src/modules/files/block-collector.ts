import type { UnitOfWork } from '../../db/database';
import type { StorageProvider } from '../../storage/storage-provider';
import type { BlockStoreRepository } from './block-store.repository';

/** A block no content names is kept this long after an upload last named it (an unfinished delta upload's). */
export const BLOCK_GRACE_MS = 24 * 60 * 60_000;
/**
 * A block row left `deleting` this long is finished: a collection that stopped between marking and
 * deleting, or a write that stopped between its row and turning it live (writes take seconds).
 */
export const UNFINISHED_BLOCK_MS = 60 * 60_000;
/** Blocks one transaction of a collection marks at most. */
const BATCH = 500;

export interface BlockCollectorDeps {
  repository: BlockStoreRepository;
  storage: StorageProvider;
  units: UnitOfWork;
}

/**
 * Garbage collection of blocks, safe while uploads run (design: issue 24).
 * 1. Candidates: live blocks no content names, untouched for the grace period.
 * 2. In one transaction: the candidates are locked (PostgreSQL `for update`), then a new statement
 *    marks `deleting` those still live, untouched and unnamed. A commit that names a block reads it
 *    `where state = 'live'` `for share` in its own transaction, so the two serialise: the commit
 *    either sees the block gone (and answers it missing) or the collection sees it named.
 * 3. After that commits: the objects go, then the rows. A run that stops in between leaves
 *    `deleting` rows the next run finishes first. An upload of the same bytes meanwhile writes a new
 *    row with a new key: the unique index holds one live block per owner and hash, not one row.
 */
export class BlockCollector {
  constructor(private readonly deps: BlockCollectorDeps) {}

  /** One run at `at`; answers the blocks it deleted. */
  async collect(at: Date, graceMs = BLOCK_GRACE_MS): Promise<number> {
    let deleted = await this.finishUnfinished(at);
    const before = new Date(at.getTime() - graceMs).toISOString();
    for (;;) {
      const marked = await this.mark(before);
      if (marked.length === 0) break;
      await this.remove(marked);
      deleted += marked.length;
      if (marked.length < BATCH) break;
    }
    return deleted;
  }

  /**
   * Step 2: one transaction, the lock first, the marking in a statement of its own after it.
   * `beforeCommit` runs last inside it (a test holds the transaction open there).
   */
  async mark(
    before: string,
    beforeCommit?: () => Promise<void>,
  ): Promise<{ id: string; storage_key: string }[]> {
    const { repository } = this.deps;
    return this.deps.units.transaction(async () => {
      const candidates = (await repository.collectionCandidates(before, BATCH)).map((row) => row.id);
      if (candidates.length === 0) return [];
      await repository.lockForCollection(candidates);
      const marked = await repository.markForCollection(candidates, before);
      await beforeCommit?.();
      return marked;
    });
  }

  /** Step 3: the objects, then the rows. */
  async remove(blocks: readonly { id: string; storage_key: string }[]): Promise<void> {
    if (blocks.length === 0) return;
    const storage = await this.deps.storage.current();
    await storage.deleteMany(blocks.map((block) => block.storage_key));
    await this.deps.repository.deleteCollected(blocks.map((block) => block.id));
  }

  private async finishUnfinished(at: Date): Promise<number> {
    const before = new Date(at.getTime() - UNFINISHED_BLOCK_MS).toISOString();
    let finished = 0;
    for (;;) {
      const left = await this.deps.repository.deletingBefore(before, BATCH);
      await this.remove(left);
      finished += left.length;
      if (left.length < BATCH) return finished;
    }
  }
}
