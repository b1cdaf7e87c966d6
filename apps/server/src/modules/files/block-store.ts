import { createHash, randomUUID } from 'node:crypto';
import { Readable, type Transform } from 'node:stream';
import { promisify } from 'node:util';
import {
  brotliDecompress,
  createBrotliDecompress,
  createInflateRaw,
  deflateRaw,
  inflateRaw,
} from 'node:zlib';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { UnitOfWork } from '../../db/database';
import { timeOrderedId } from '../../lib/time-ordered-id';
import { newStorageKey, StorageNotFoundError, type ByteRange, type Storage } from '../../storage/storage';
import type { StorageProvider } from '../../storage/storage-provider';
import type { BlockStoreRepository, ContentBlock, StoredContent } from './block-store.repository';
import type { BlockEncoding } from './files.tables';

/** The most bytes one block holds (the chunker's maximum cut). */
export const BLOCK_MAX_BYTES = 4 * 1024 * 1024;

const SHA256_HEX = /^[0-9a-f]{64}$/;
/**
 * How many bytes of blocks a read has on their way (read, and inflated on the thread pool) ahead of
 * the block its reader is given: at least the next block, whatever its size.
 */
const READ_AHEAD_BYTES = 2 * 1024 * 1024;

/** A commit named blocks the owner has no live block for: the client sends them and commits again. */
export class MissingBlocksError extends Error {
  constructor(readonly missing: string[]) {
    super(`${missing.length} block(s) missing`);
    this.name = 'MissingBlocksError';
  }
}

/** The bytes sent as a block are not the ones its hash names. */
export class BlockHashMismatchError extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`Block hash mismatch: expected ${expected}, got ${actual}`);
    this.name = 'BlockHashMismatchError';
  }
}

/** A content filed from blocks. */
export interface CreatedContent {
  contentId: string;
  storageKey: string;
  size: number;
  /**
   * The whole file's SHA-256. Null on a content just filed from blocks: hashing the whole file would
   * hold the commit's transaction for as long as reading it takes, so the blockify job (enqueued with
   * the content) records it just after.
   */
  sha256: string | null;
}

/** What every reader of a file's bytes needs: the bytes stored at a content's key, whatever its layout. */
export interface ContentReader {
  /** The content's bytes (or `range` of them, inclusive); rejects with StorageNotFoundError. */
  read(storageKey: string, range?: ByteRange): Promise<Readable>;
  /** Whether the content is stored as blocks (a copy of it by the owner then writes no byte). */
  isBlocks(storageKey: string): Promise<boolean>;
}

/**
 * Contents as lists of content-defined blocks, stored once per owner and hash (design: issue 24).
 * Writes of whole objects stay as they are; the blockify job turns them into blocks afterwards, and a
 * delta upload files a content of blocks directly.
 */
export interface BlockStore extends ContentReader {
  /** Of `hashes`, those the owner has no live block for (order kept, duplicates once); touches the others. */
  missing(ownerId: string, hashes: readonly string[]): Promise<string[]>;
  /**
   * Verifies that sha256(bytes) === sha256 (else throws BlockHashMismatchError), writes the object and
   * the live row unless the owner has one (then only touches it). `verified`: the caller has just
   * checked the hash itself (the bytes are not hashed twice).
   */
  putBlock(
    ownerId: string,
    sha256: string,
    bytes: Uint8Array,
    options?: { verified?: boolean },
  ): Promise<void>;
  /**
   * Inside the caller's unit of work (`trx` is the transaction of `units.transaction`): a new
   * file_contents row of layout 'blocks' whose blocks are `hashes` in order; throws MissingBlocksError
   * if any is not a live block of the owner. The blocks are locked for share (PostgreSQL) until the
   * unit commits, so garbage collection can't take them meanwhile.
   */
  createContent(
    trx: Kysely<DB>,
    input: { ownerId: string; authorId: string | null; hashes: readonly string[]; mimetype: string | null },
  ): Promise<CreatedContent>;
  /**
   * As `createContent`, naming the blocks of the owner's content stored under `storageKey` (a copy of
   * a file: no byte read or written); null when that content is not the owner's blocks.
   */
  copyContent(
    trx: Kysely<DB>,
    input: { ownerId: string; authorId: string | null; storageKey: string; mimetype: string | null },
  ): Promise<CreatedContent | null>;
}

export interface BlockStoreDeps {
  repository: BlockStoreRepository;
  storage: StorageProvider;
  units: UnitOfWork;
  now: () => Date;
  /** Enqueued in the unit of work that files a content (the blockify job: hash, or blocks). */
  filed?: (contentId: string) => Promise<void>;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const compress = promisify(deflateRaw);

/** A block is stored compressed only when that saves at least this share of its bytes. */
const MIN_SAVING = 0.1;

/**
 * A block's bytes packed for keeping (the block packer, for blocks only versions name): raw deflate
 * at level 1, run on libuv's thread pool; as they are when compressing saves less than a tenth
 * (media, archives, already-compressed formats). On ~1 MiB blocks of CAD-like data deflate-1 stores
 * 0.28 of the bytes against brotli-1's 0.27 and inflates in less than half of brotli's CPU time
 * (measured), and a read of an old version inflates every block it sends.
 */
export async function packBlock(bytes: Uint8Array): Promise<{ encoding: BlockEncoding; body: Uint8Array }> {
  const packed = await compress(bytes, { level: 1 });
  return packed.byteLength <= bytes.byteLength * (1 - MIN_SAVING)
    ? { encoding: 'deflate-raw', body: packed }
    : { encoding: 'identity', body: bytes };
}

/** The inflaters of the compressed encodings: brotli is what blocks were stored as before raw deflate. */
const INFLATERS = {
  'deflate-raw': { whole: promisify(inflateRaw), stream: createInflateRaw },
  br: { whole: promisify(brotliDecompress), stream: createBrotliDecompress },
} satisfies Record<Exclude<BlockEncoding, 'identity'>, unknown>;

/**
 * Bytes `range` (inclusive; all when absent) of a block whose object holds them as `encoding`, in one
 * buffer: an uncompressed block by one read of those bytes into a buffer of their size
 * (`Storage.getBytes`: one file read on local disk, the GET's chunks copied once on S3), so a current
 * file's read costs about what a plain file's does; a compressed one read whole (a
 * block is at most 4 MiB) and inflated in one piece on libuv's thread pool (a stream would take a
 * round trip there per 16 KiB), as far as the range's end. A block that gives fewer bytes than its
 * recorded size (compressed, other than it) is an error.
 */
export async function loadBlock(
  storage: Storage,
  block: { storage_key: string; encoding: BlockEncoding; size: number },
  range?: ByteRange,
): Promise<Buffer> {
  const size = Number(block.size);
  if (block.encoding === 'identity')
    return storage.getBytes(block.storage_key, range ?? { start: 0, end: size - 1 });
  const inflater = INFLATERS[block.encoding];
  const stored = await readWhole(await storage.get(block.storage_key));
  if (range && range.end < size - 1) {
    const head = await inflateHead(inflater.stream, stored, range.end + 1);
    assertGave(block, head, range.end + 1);
    return head.subarray(range.start);
  }
  // One output buffer that holds the block, and a byte more, so the end of the stream needs no other.
  const room = Math.max(size + 1, 64);
  const bytes = await inflater.whole(stored, { chunkSize: room, maxOutputLength: room });
  assertGave(block, bytes, size);
  return range ? bytes.subarray(range.start) : bytes;
}

/**
 * The first `length` bytes `stored` inflates to (all of them if fewer): the inflater's first output
 * buffer, as it is given all of its input at once, then it is stopped.
 */
function inflateHead(
  createInflater: (options: { chunkSize: number }) => Transform,
  stored: Buffer,
  length: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const inflater = createInflater({ chunkSize: Math.max(length, 64) });
    inflater.once('data', (chunk: Buffer) => {
      inflater.destroy();
      resolve(chunk.subarray(0, length));
    });
    inflater.once('end', () => resolve(Buffer.alloc(0)));
    inflater.once('error', reject);
    inflater.end(stored);
  });
}

function assertGave(block: { storage_key: string }, bytes: Buffer, expected: number): void {
  if (bytes.byteLength !== expected)
    throw new Error(`Block ${block.storage_key} gave ${bytes.byteLength} of its ${expected} bytes`);
}

/** A stream's bytes in one buffer (copied only when they came in several chunks). */
async function readWhole(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

export class StoredBlocks implements BlockStore {
  constructor(private readonly deps: BlockStoreDeps) {}

  async missing(ownerId: string, hashes: readonly string[]): Promise<string[]> {
    const unique = [...new Set(hashes)];
    // What the touch reaches is live and now safe from collection for its grace period.
    const found = await this.deps.repository.touch(ownerId, unique, this.deps.now().toISOString());
    return unique.filter((hash) => !found.has(hash));
  }

  async putBlock(
    ownerId: string,
    sha256: string,
    bytes: Uint8Array,
    options: { verified?: boolean } = {},
  ): Promise<void> {
    if (!SHA256_HEX.test(sha256)) throw new Error(`Invalid block hash: ${JSON.stringify(sha256)}`);
    if (bytes.byteLength > BLOCK_MAX_BYTES)
      throw new Error(`Block of ${bytes.byteLength} bytes is too large`);
    if (!options.verified) {
      const actual = sha256Hex(bytes);
      if (actual !== sha256) throw new BlockHashMismatchError(sha256, actual);
    }
    await this.storeBlock(ownerId, sha256, bytes);
  }

  /**
   * Stores verified bytes as the owner's block unless a live one exists (then touches it), as they
   * are: a block is written for the file being filed, whose reads are plain reads of its blocks (the
   * block packer compresses it once only versions name it). The row comes first, as `deleting`, then
   * the object, then the row turns live: a live row always names bytes that exist, and a write that
   * stops half way leaves a `deleting` row that collection finishes (object and row), never an object
   * nothing names.
   */
  async storeBlock(ownerId: string, sha256: string, bytes: Uint8Array): Promise<void> {
    const { repository } = this.deps;
    const storage = await this.deps.storage.current();
    for (let attempt = 0; ; attempt++) {
      const at = this.deps.now().toISOString();
      if ((await repository.touch(ownerId, [sha256], at)).size > 0) return;
      const block = {
        id: timeOrderedId(),
        user_id: ownerId,
        sha256,
        size: bytes.byteLength,
        storage_key: newStorageKey(),
        created_at: at,
        touched_at: at,
      };
      await repository.insertPendingBlock(block);
      await storage.put(block.storage_key, bytes, { contentType: 'application/octet-stream' });
      if (await repository.makeLive(block, this.deps.now().toISOString())) return;
      // Another write of the same bytes won (its block is touched on the next turn), or collection
      // took this row as one left half way: this object goes, and the block is looked up again.
      await storage.delete(block.storage_key);
      await repository.deletePendingBlock(block.id);
      if (attempt >= 3) throw new Error(`block ${sha256} could not be stored`);
    }
  }

  async createContent(
    _trx: Kysely<DB>,
    input: { ownerId: string; authorId: string | null; hashes: readonly string[]; mimetype: string | null },
  ): Promise<CreatedContent> {
    const { repository } = this.deps;
    const blocks = await repository.liveBlocks(input.ownerId, input.hashes, 'share');
    const byHash = new Map(blocks.map((block) => [block.sha256, block]));
    const missing = [...new Set(input.hashes.filter((hash) => !byHash.has(hash)))];
    if (missing.length > 0) throw new MissingBlocksError(missing);
    let offset = 0;
    const list = input.hashes.map((hash) => {
      const block = byHash.get(hash)!;
      const entry = { block_id: block.id, offset };
      offset += Number(block.size);
      return entry;
    });
    const content = {
      id: randomUUID(),
      user_id: input.ownerId,
      storage_key: newStorageKey(),
      size: offset,
      mimetype: input.mimetype,
      sha256: null,
      author_id: input.authorId,
      layout: 'blocks' as const,
      created_at: this.deps.now().toISOString(),
    };
    await repository.insertContent(content);
    await repository.insertContentBlocks(content.id, list);
    await this.deps.filed?.(content.id);
    return { contentId: content.id, storageKey: content.storage_key, size: content.size, sha256: null };
  }

  /**
   * Null too for an object not yet made blocks, another owner's content (blocks are never shared
   * across owners) or one whose blocks are no longer all live: the caller copies the bytes then.
   */
  async copyContent(
    trx: Kysely<DB>,
    input: { ownerId: string; authorId: string | null; storageKey: string; mimetype: string | null },
  ): Promise<CreatedContent | null> {
    const source = await this.deps.repository.contentByKey(input.storageKey);
    if (source?.layout !== 'blocks' || source.user_id !== input.ownerId) return null;
    const hashes = await this.deps.repository.hashesOf(source.id);
    if (hashes.length === 0) return null;
    try {
      return await this.createContent(trx, { ...input, hashes });
    } catch (error) {
      if (error instanceof MissingBlocksError) return null;
      throw error;
    }
  }

  /**
   * The bytes (or `range` of them, inclusive) of the owner's live block of this hash: the head of a
   * delta upload's first block, to know the file's type before it is filed. Rejects with
   * StorageNotFoundError when the owner has no such block.
   */
  async readBlock(ownerId: string, sha256: string, range?: ByteRange): Promise<Readable> {
    const [block] = await this.deps.repository.liveBlocks(ownerId, [sha256]);
    if (!block) throw new StorageNotFoundError(sha256);
    const last = Number(block.size) - 1;
    const within = range && { start: range.start, end: Math.min(range.end, last) };
    const storage = await this.deps.storage.current();
    const bytes = await loadBlock(
      storage,
      block,
      within && (within.start > 0 || within.end < last) ? within : undefined,
    );
    return Readable.from([bytes], { objectMode: false });
  }

  async isBlocks(storageKey: string): Promise<boolean> {
    return (await this.deps.repository.contentByKey(storageKey))?.layout === 'blocks';
  }

  async read(storageKey: string, range?: ByteRange): Promise<Readable> {
    const { repository } = this.deps;
    const content = await repository.contentByKey(storageKey);
    if (content?.layout === 'blocks') return this.readBlocks(content, range);
    const storage = await this.deps.storage.current();
    try {
      return await storage.get(storageKey, range);
    } catch (error) {
      // Blockified between the look-up and the open: its object is gone, its blocks are there.
      if (!(error instanceof StorageNotFoundError) || !content) throw error;
      const now = await repository.contentById(content.id);
      if (now?.layout !== 'blocks') throw error;
      return this.readBlocks(now, range);
    }
  }

  private async readBlocks(content: StoredContent, range?: ByteRange): Promise<Readable> {
    const size = Number(content.size);
    const start = range?.start ?? 0;
    const end = Math.min(range?.end ?? size - 1, size - 1);
    const blocks =
      end < start ? [] : await this.deps.repository.blocksOf(content.id, range && { start, end });
    const storage = await this.deps.storage.current();
    const load: LoadBlock = async (block, within) => {
      try {
        return await loadBlock(storage, block, within);
      } catch (error) {
        // The packer rewrote the block since the read listed it, and its old object is gone: the
        // block's row names the new one.
        if (!(error instanceof StorageNotFoundError)) throw error;
        const now = await this.deps.repository.liveBlockById(block.id);
        if (!now || now.storage_key === block.storage_key) throw error;
        return loadBlock(storage, now, within);
      }
    };
    return Readable.from(blockBytes(load, blocks, start, end), { objectMode: false });
  }
}

/** Bytes `range` (all when absent) of a block of a content, in one buffer. */
type LoadBlock = (block: ContentBlock, range?: ByteRange) => Promise<Buffer>;

/**
 * The bytes `start`..`end` of a content from its blocks, a block (or the part of it in the range) at a
 * time, in order; the blocks after it are read and inflated meanwhile, READ_AHEAD_BYTES of them.
 */
async function* blockBytes(
  load: LoadBlock,
  blocks: readonly ContentBlock[],
  start: number,
  end: number,
): AsyncGenerator<Buffer> {
  const ahead: { bytes: Promise<Buffer>; size: number }[] = [];
  let aheadBytes = 0;
  let next = 0;
  while (next < blocks.length || ahead.length > 0) {
    while (next < blocks.length && (ahead.length === 0 || aheadBytes < READ_AHEAD_BYTES)) {
      const block = blocks[next++]!;
      const offset = Number(block.offset);
      const size = Number(block.size);
      const from = Math.max(start, offset) - offset;
      const to = Math.min(end, offset + size - 1) - offset;
      const whole = from === 0 && to === size - 1;
      const bytes = load(block, whole ? undefined : { start: from, end: to });
      // Awaited in turn below; a failure of one read ahead is reported there, or dropped when the
      // reader stops first.
      bytes.catch(() => {});
      ahead.push({ bytes, size: to - from + 1 });
      aheadBytes += to - from + 1;
    }
    const current = ahead.shift()!;
    aheadBytes -= current.size;
    yield await current.bytes;
  }
}
