import { Chunker } from '@atelier/chunker';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { UnitOfWork } from '../../db/database';
import { PermanentJobError } from '../../jobs/job-definition';
import { StorageNotFoundError } from '../../storage/storage';
import type { StorageProvider } from '../../storage/storage-provider';
import { sha256Hex, type StoredBlocks } from './block-store';
import type { BlockStoreRepository, StoredContent } from './block-store.repository';

/** What a run of the blockify job did to a content. */
export type BlockifyOutcome = 'blocks' | 'hashed' | 'done' | 'gone';

export interface BlockifierDeps {
  repository: BlockStoreRepository;
  blocks: StoredBlocks;
  storage: StorageProvider;
  units: UnitOfWork;
  /** Enqueues the block packer's work for these contents of the owner's (its repack job), inside the unit of work. */
  repack(userId: string, contentIds: readonly string[]): Promise<void>;
  now: () => Date;
}

/**
 * Turns a content stored as one object into blocks: reads the object once, cuts it with the chunker,
 * stores the blocks the owner lacks, then in one transaction records the list, the layout and the
 * whole file's SHA-256, and after the commit deletes the object. Safe to repeat and to interrupt
 * anywhere: blocks stored by a run that stopped are found (and touched) by the next one, or left to
 * garbage collection; the object goes only once its blocks are committed. A content filed from blocks
 * (a delta upload) only gets its whole-file hash.
 */
export class Blockifier {
  private sweepCursor: { created_at: string; id: string } | null = null;

  constructor(private readonly deps: BlockifierDeps) {}

  async blockify(storageKey: string, signal?: AbortSignal): Promise<BlockifyOutcome> {
    const { repository } = this.deps;
    const content = await repository.contentByKey(storageKey);
    if (!content) return 'gone';
    if (content.layout === 'blocks') return this.finishBlocks(content, signal);

    const storage = await this.deps.storage.current();
    let source: Readable;
    try {
      source = await storage.get(storageKey);
    } catch (error) {
      if (!(error instanceof StorageNotFoundError)) throw error;
      const now = await repository.contentById(content.id);
      if (!now) return 'gone';
      if (now.layout === 'blocks') return this.finishBlocks(now, signal);
      // A content whose object is gone can't be made of blocks, and retrying won't bring it back.
      throw new PermanentJobError(`content ${content.id}: its object ${storageKey} is missing`);
    }

    const whole = createHash('sha256');
    const chunker = new Chunker();
    const hashes: string[] = [];
    let size = 0;
    const store = async (block: Uint8Array) => {
      const hash = sha256Hex(block);
      await this.deps.blocks.storeBlock(content.user_id, hash, block);
      hashes.push(hash);
    };
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        signal?.throwIfAborted();
        whole.update(chunk);
        size += chunk.byteLength;
        for (const block of chunker.push(chunk)) await store(block);
      }
      for (const block of chunker.finish()) await store(block);
    } finally {
      source.destroy();
    }
    if (size !== Number(content.size))
      throw new PermanentJobError(
        `content ${content.id}: its object has ${size} of its ${content.size} bytes`,
      );
    const sha256 = whole.digest('hex');

    const committed = await this.deps.units.transaction(async () => {
      // Locked for share (PostgreSQL) until the commit: collection can't take them meanwhile.
      const live = await repository.liveBlocks(content.user_id, hashes, 'share');
      const byHash = new Map(live.map((block) => [block.sha256, block]));
      // A block collected between its store and here (its grace period passed): the run is repeated.
      const lost = hashes.filter((hash) => !byHash.has(hash));
      if (lost.length > 0) throw new Error(`content ${content.id}: ${lost.length} block(s) were collected`);
      let offset = 0;
      const list = hashes.map((hash) => {
        const block = byHash.get(hash)!;
        const entry = { block_id: block.id, offset };
        offset += Number(block.size);
        return entry;
      });
      if (!(await repository.becomeBlocks(content.id, sha256, list))) return false;
      await this.repackDisplaced(content);
      return true;
    });
    if (!committed) {
      // Deleted meanwhile (its blocks go to collection), or blocked by a concurrent run.
      const now = await repository.contentById(content.id);
      return now ? this.finishBlocks(now, signal) : 'gone';
    }
    await storage.delete(storageKey);
    return 'blocks';
  }

  /**
   * A content already of blocks: its object (left by a run that stopped after its commit) is deleted,
   * and its whole-file hash recorded if it has none.
   */
  private async finishBlocks(content: StoredContent, signal?: AbortSignal): Promise<BlockifyOutcome> {
    const storage = await this.deps.storage.current();
    await storage.delete(content.storage_key);
    if (content.sha256 !== null) return 'done';
    const whole = createHash('sha256');
    const stream = await this.deps.blocks.read(content.storage_key);
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      signal?.throwIfAborted();
      whole.update(chunk);
    }
    const sha256 = whole.digest('hex');
    await this.deps.units.transaction(async () => {
      await this.deps.repository.recordSha256(content.id, sha256);
      await this.repackDisplaced(content);
    });
    return 'hashed';
  }

  /**
   * A save's new content is made of blocks now (cut here, or filed from blocks): the content it
   * displaced, only a version's from now on, is packed by the repack job right away instead of at the
   * packer's next periodic run, and any compressed block the new content names again is expanded.
   * Not before: until the new content's blocks are listed, the blocks the two share count as only a
   * version's, and the packer would compress what the current file reads. A first save displaces none.
   */
  private async repackDisplaced(content: StoredContent): Promise<void> {
    const displaced = await this.deps.repository.displacedBy(content.user_id, content.id);
    if (displaced) await this.deps.repack(content.user_id, [content.id, displaced]);
  }

  /**
   * The contents still stored as one object `ageMs` after they were filed (the job was lost, or they
   * predate the block store): a batch of them, oldest first, handed to `enqueue`. Successive runs go on
   * from where the last one stopped, so a content that can't be made of blocks never holds up the
   * others; a run that finds none starts over from the oldest.
   */
  async sweep(
    at: Date,
    ageMs: number,
    batch: number,
    enqueue: (storageKey: string) => Promise<void>,
  ): Promise<number> {
    const before = new Date(at.getTime() - ageMs).toISOString();
    const found = await this.deps.repository.objectContentsBefore(before, this.sweepCursor, batch);
    for (const content of found) await enqueue(content.storage_key);
    this.sweepCursor = found.length === batch ? found[found.length - 1]! : null;
    return found.length;
  }
}
