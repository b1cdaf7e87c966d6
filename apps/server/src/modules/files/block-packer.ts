import { timeOrderedId } from '../../lib/time-ordered-id';
import { newStorageKey } from '../../storage/storage';
import type { StorageProvider } from '../../storage/storage-provider';
import { loadBlock, packBlock } from './block-store';
import type { BlockStoreRepository, PackedBlock } from './block-store.repository';
import type { BlockEncoding } from './files.tables';

/** Blocks of each kind one turn of a run looks up at most. */
const BATCH = 200;

export interface BlockPackerDeps {
  repository: BlockStoreRepository;
  storage: StorageProvider;
  now: () => Date;
}

/** Contents of one owner whose blocks a run looks at, instead of every block. */
export interface PackedContents {
  userId: string;
  contentIds: readonly string[];
}

/** What a run of the packer did. */
export interface PackerRun {
  /** Blocks only versions name, now stored compressed. */
  packed: number;
  /** Blocks only versions name that compress too little: left as they are, for good. */
  kept: number;
  /** Compressed blocks a current file names (a restored version), now stored as they are. */
  expanded: number;
}

/**
 * Keeps the blocks a file's current bytes are made of stored as they are, so reading a current file
 * is plain reads of block objects, and compresses those only versions name (issue 24). Blocks are
 * written as they are (StoredBlocks.storeBlock); a replace leaves the blocks it no longer names to
 * its versions, and a restore names compressed ones again. Each block changes as a block write does:
 * 1. the new object's row is written `deleting`, then the object: a run that stops here leaves a
 *    row that collection finishes (UNFINISHED_BLOCK_MS), never an object nothing names;
 * 2. one transaction switches the block's row to the new object and encoding, and the `deleting`
 *    row to the old object, touched now: collection deletes it when no read that listed the block
 *    before the switch can still be reading it (a later read finds the block's new object, see
 *    StoredBlocks.readBlocks). The switch checks that the block is still live, at its old object,
 *    and still only a version's (or still current): if not, the new object and its row go.
 * A restored version's blocks are expanded here, not by the restore, which stays a change of rows
 * (≤ 1 s for 200 MB): the restore enqueues the repack job for the restored content and the one it
 * displaced (blockRepackJob), and until that job has run, reads of the restored file inflate, as
 * reads of versions do. A replace's displaced content is packed by the same job, enqueued once the new
 * content is made of blocks (Blockifier).
 */
export class BlockPacker {
  constructor(private readonly deps: BlockPackerDeps) {}

  /**
   * One run: every block whose encoding is not the one its naming wants, a batch at a time. A block
   * that fails (its object unreadable, storage away) does not hold up the others: the run goes on,
   * then fails with the first error, and the next run tries the block again. With `contents`, only
   * the blocks those contents name (the repack job, enqueued by a restore).
   */
  async pack(signal?: AbortSignal, contents?: PackedContents): Promise<PackerRun> {
    const run: PackerRun = { packed: 0, kept: 0, expanded: 0 };
    const failures: unknown[] = [];
    const attempt = async (work: () => Promise<keyof PackerRun | null>) => {
      signal?.throwIfAborted();
      try {
        const outcome = await work();
        if (outcome) run[outcome] += 1;
      } catch (error) {
        failures.push(error);
      }
    };
    // Each list is walked once a run, in order of id: a block whose switch lost a race, or failed,
    // is left to the next run.
    let after = { pack: '', expand: '' };
    for (;;) {
      const { pack, expand } = await this.deps.repository.repackCandidates(after, BATCH, contents);
      if (pack.length === 0 && expand.length === 0) break;
      for (const block of pack) await attempt(() => this.packOne(block));
      for (const block of expand)
        await attempt(async () => {
          const bytes = await this.bytesOf(block);
          return (await this.rewrite(block, 'current', { encoding: 'identity', body: bytes }))
            ? 'expanded'
            : null;
        });
      after = { pack: pack.at(-1)?.id ?? after.pack, expand: expand.at(-1)?.id ?? after.expand };
    }
    if (failures.length > 0)
      throw new Error(`${failures.length} block(s) could not be repacked: ${String(failures[0])}`, {
        cause: failures[0],
      });
    return run;
  }

  private async packOne(block: PackedBlock): Promise<'packed' | 'kept' | null> {
    const packed = await packBlock(await this.bytesOf(block));
    if (packed.encoding === 'identity') {
      await this.deps.repository.keepAsIs(block);
      return 'kept';
    }
    return (await this.rewrite(block, 'versions', packed)) ? 'packed' : null;
  }

  private async bytesOf(block: PackedBlock): Promise<Buffer> {
    return loadBlock(await this.deps.storage.current(), block);
  }

  /** Steps 1 and 2 for one block; false when the switch found the block changed (nothing kept). */
  private async rewrite(
    block: PackedBlock,
    where: 'current' | 'versions',
    stored: { encoding: BlockEncoding; body: Uint8Array },
  ): Promise<boolean> {
    const { repository } = this.deps;
    const storage = await this.deps.storage.current();
    const at = this.deps.now().toISOString();
    const pending = {
      id: timeOrderedId(),
      user_id: block.user_id,
      sha256: block.sha256,
      size: block.size,
      storage_key: newStorageKey(),
      encoding: stored.encoding,
      // Null on an expanded block: as they are and not yet weighed, it is packed again once only
      // versions name it.
      stored_size: stored.encoding === 'identity' ? null : stored.body.byteLength,
      created_at: at,
      touched_at: at,
    };
    await repository.insertPendingBlock(pending);
    await storage.put(pending.storage_key, stored.body, { contentType: 'application/octet-stream' });
    if (await repository.switchObject(block, pending, where, this.deps.now().toISOString())) return true;
    await storage.delete(pending.storage_key);
    await repository.deletePendingBlock(pending.id);
    return false;
  }
}
