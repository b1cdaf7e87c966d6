import {
  BLOCK_MAX_BYTES,
  type BlocksCommitBody,
  type BlocksMissingBody,
  type ItemResource,
} from '@atelier/contracts';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError } from '../../lib/app-error';
import type { ByteRange } from '../../storage/storage';
import { MissingBlocksError, type BlockStore } from './block-store';
import { SNIFF_BYTES } from './file-type.detector';
import { isOwner, ItemAccess, uploadKeyOf, type Actor } from './files.access';
import type { ItemReader } from './files.ports';
import type { UploadService } from './upload.service';

/**
 * A block hold last marked in use this long ago is marked again by the actor's next call: often
 * enough that the holds of an upload that goes on never reach the day the sweep of abandoned uploads
 * and block collection wait, seldom enough that each call of a large upload does not rewrite them all.
 */
const HOLD_REFRESH_MS = 60 * 60_000;
/**
 * How seldom one process asks to mark an actor's holds again: every block of a large upload would
 * otherwise read all the holds it has made so far (thousands) to find the few an hour old.
 */
const HOLD_CHECK_MS = 5 * 60_000;
/** Actors whose last check a process remembers (the oldest forgotten first). */
const HOLD_CHECKS_KEPT = 10_000;

/** What the delta upload needs of the block store: its API, and the first bytes of a block. */
export type BlockUploadStore = Pick<BlockStore, 'missing' | 'putBlock' | 'createContent'> & {
  /** A live block's bytes (or `range` of them), the owner's; rejects with StorageNotFoundError. */
  readBlock(ownerId: string, sha256: string, range?: ByteRange): Promise<Readable>;
};

export interface BlockUploadDeps {
  blocks: BlockUploadStore;
  uploads: UploadService;
  items: Pick<ItemReader, 'findMany' | 'ancestorIds'>;
  /** The app's clock. */
  now: () => Date;
  /** Counts bytes a user's files received (metered billing's bandwidth): a delta upload's are the blocks sent. */
  countTransfer?: (userId: string, bytes: number) => Promise<void>;
}

/**
 * The delta upload (issue 24): a client that cut a file into content-defined blocks asks which of
 * them the folder's owner lacks, sends only those, and commits the file as its list of blocks.
 *
 * The upload rules of a chunk upload apply: the restrictions, the upload limit (a block's bytes, the
 * commit's declared size), the quota (each block sent holds its bytes until the commit, which holds
 * the rest of the file's size, making room from versions as a chunk does), the blacklist (the name,
 * and the type read from the first block) and keep-both / replace.
 *
 * Dedup never tells one person what another stores: only the folder's owner is answered against
 * the blocks they hold. For anyone else (a team folder's editor) every block they have not sent
 * themselves (or that was collected since) is missing, and their commit takes only the blocks they
 * sent (each one's hold is their receipt), so neither answer tells them what the owner has beyond
 * what became of the blocks they sent; an interrupted upload still resumes.
 */
export class BlockUploadService {
  private readonly access: ItemAccess;
  /** When this process last marked each actor's holds (keepHolds), in insertion order. */
  private readonly holdsChecked = new Map<string, number>();

  constructor(private readonly deps: BlockUploadDeps) {
    this.access = new ItemAccess(deps.items);
  }

  /** Of `hashes`, the blocks to send for a file in the folder (order kept, each once). */
  async missing(actor: Actor, body: BlocksMissingBody): Promise<string[]> {
    await this.deps.uploads.assertMayUpload(actor, null, 0);
    await this.access.folder(actor, body.parent_id);
    await this.keepHolds(actor);
    const hashes = [...new Set(body.hashes)];
    return isOwner(actor) ? this.deps.blocks.missing(actor.ownerId, hashes) : this.unsent(actor, hashes);
  }

  /** Stores one block of a file for the folder, once its bytes are proved to be the ones `sha256` names. */
  async put(actor: Actor, parentId: string | null | undefined, sha256: string, bytes: Buffer): Promise<void> {
    if (bytes.length === 0 || bytes.length > BLOCK_MAX_BYTES)
      throw AppError.invalid('block', 'validation.block_bytes');
    await this.deps.uploads.assertMayUpload(actor, null, bytes.length);
    await this.access.folder(actor, parentId);
    // Checked before anything is held or written: bytes that are not the block leave nothing.
    if (createHash('sha256').update(bytes).digest('hex') !== sha256)
      throw AppError.invalid('block', 'errors.block_hash_mismatch');
    const key = blockKey(sha256);
    const held = await this.deps.uploads.holdUnder(actor, key, bytes.length);
    try {
      await this.deps.blocks.putBlock(actor.ownerId, sha256, bytes, { verified: true });
    } catch (error) {
      // Only a hold of its own: one an earlier PUT of the block left is that PUT's, for the commit.
      if (held) await this.deps.uploads.releaseHold(actor, key);
      throw error;
    }
    await this.keepHolds(actor);
    await this.deps.countTransfer?.(actor.ownerId, bytes.length);
  }

  /**
   * Files the blocks, in order, as the file `name` in the folder; 409 naming the blocks to send when
   * some are not stored (nothing is filed), 422 when `size` is not the sum of the blocks' sizes.
   */
  async commit(actor: Actor, body: BlocksCommitBody): Promise<ItemResource> {
    await this.deps.uploads.assertMayUpload(actor, body.name, body.size);
    await this.access.folder(actor, body.parent_id);
    const hashes = [...new Set(body.blocks)];
    const missing = isOwner(actor)
      ? await this.deps.blocks.missing(actor.ownerId, hashes)
      : await this.unsent(actor, hashes);
    if (missing.length > 0) throw AppError.blocksMissing(missing);
    const first = body.blocks[0]!;
    try {
      const head = await this.head(actor.ownerId, first);
      return await this.deps.uploads.fileContent(
        actor,
        {
          parentId: body.parent_id,
          name: body.name,
          conflict: body.conflict,
          size: body.size,
          head,
          heldKeys: hashes.map(blockKey),
        },
        (mimetype, trx) =>
          this.deps.blocks.createContent(trx, {
            ownerId: actor.ownerId,
            authorId: actor.userId,
            hashes: body.blocks,
            mimetype,
          }),
      );
    } catch (error) {
      // A block collected between the check and the commit: the client sends it again.
      if (error instanceof MissingBlocksError) throw AppError.blocksMissing(error.missing);
      throw error;
    }
  }

  /**
   * The blocks among `hashes` that the actor did not send (holds nothing for), or sent but are no
   * longer stored (collected before the sweep let the hold go); the others are touched, as asking
   * the store touches the owner's. Only blocks the actor sent are asked of the store.
   */
  private async unsent(actor: Actor, hashes: readonly string[]): Promise<string[]> {
    const holds = new Set(
      (await this.deps.uploads.heldUnder(actor, hashes.map(blockKey))).map((hold) => hold.client_key),
    );
    const sent = hashes.filter((hash) => holds.has(uploadKeyOf(actor, blockKey(hash))));
    const gone = new Set(await this.deps.blocks.missing(actor.ownerId, sent));
    const kept = new Set(sent.filter((hash) => !gone.has(hash)));
    return hashes.filter((hash) => !kept.has(hash));
  }

  /**
   * Keeps every block the actor holds with the owner from the sweep of abandoned uploads, and from
   * block collection, while its upload goes on (a block sent, or a question asked, a day on). All of
   * them, not those the call names: a put names one block and the upload needs those sent before it,
   * and a hold is a block's, not an upload's (one block two files share is held once). Holds left a
   * day with no call of the actor still go.
   */
  private async keepHolds(actor: Actor): Promise<void> {
    const now = this.deps.now().getTime();
    const checker = `${actor.ownerId}|${uploadKeyOf(actor, '')}`;
    const checked = this.holdsChecked.get(checker);
    if (checked !== undefined && now - checked < HOLD_CHECK_MS) return;
    this.holdsChecked.delete(checker);
    this.holdsChecked.set(checker, now);
    if (this.holdsChecked.size > HOLD_CHECKS_KEPT)
      this.holdsChecked.delete(this.holdsChecked.keys().next().value!);
    const keys = await this.deps.uploads.touchHoldsUnder(actor, BLOCK_KEY, HOLD_REFRESH_MS);
    // Asking the store for them touches the live ones, which collection then waits for in turn.
    if (keys.length > 0)
      await this.deps.blocks.missing(
        actor.ownerId,
        keys.map((key) => key.slice(BLOCK_KEY.length)),
      );
  }

  /** The first bytes of the file, read from its first block, to know its type. */
  private async head(ownerId: string, sha256: string): Promise<Uint8Array> {
    const stream = await this.deps.blocks.readBlock(ownerId, sha256, { start: 0, end: SNIFF_BYTES - 1 });
    const pieces: Buffer[] = [];
    let bytes = 0;
    for await (const piece of stream as AsyncIterable<Buffer>) {
      pieces.push(piece);
      bytes += piece.length;
      if (bytes >= SNIFF_BYTES) break;
    }
    stream.destroy();
    return Buffer.concat(pieces).subarray(0, SNIFF_BYTES);
  }
}

/** What the client key a block's hold is kept under begins with. */
const BLOCK_KEY = 'block:';

/** The client key a block's hold is kept under (per actor, see uploadKeyOf). */
function blockKey(sha256: string): string {
  return BLOCK_KEY + sha256;
}
