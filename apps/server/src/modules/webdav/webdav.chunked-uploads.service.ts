import { randomUUID } from 'node:crypto';
import { Readable, Transform, pipeline, type TransformCallback } from 'node:stream';
import { AppError } from '../../lib/app-error';
import { KeyedQueue } from '../../lib/keyed-queue';
import { newStorageKey } from '../../storage/storage';
import type { StorageProvider } from '../../storage/storage-provider';
import type { Actor, ActorResolver } from '../files/files.access';
import type { UploadService } from '../files/upload.service';
import type { DavResource } from './webdav.presenter';
import { DavRefusal } from './webdav.refusals';
import type {
  ChunkedUploadsRepository,
  DavUploadChunkRow,
  DavUploadRow,
} from './webdav.chunked-uploads.repository';
import {
  virtualCollection,
  type ClientFileState,
  type DavLocation,
  type DavUser,
  type TreeLocation,
  type WriteContext,
} from './webdav.service';

/** Chunking v2's bounds (Nextcloud's developer manual): chunks 1..10000, 5 MiB..5 GiB but the last. */
export const CHUNKING_V2 = {
  maxChunks: 10_000,
  minChunkBytes: 5 * 1024 * 1024,
  maxChunkBytes: 5 * 1024 * 1024 * 1024,
} as const;
/** A transfer nobody sent a chunk to for a day is swept, as Nextcloud expires its upload folders. */
export const STALE_TRANSFER_MS = 24 * 60 * 60_000;
/** Transfers one user may have open at once: a client has a handful; the rest is nobody's upload. */
export const OPEN_TRANSFERS_MAX = 1000;
/** Transfers one sweep removes at most; the next sweep takes the rest. */
const SWEEP_BATCH = 200;

/** A transfer folder's name: the NG client's number, the web client's `web-file-upload-…`, a UUID. */
const TRANSFER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** A chunk's name: its offset (chunking v1 "NG", 16 digits) or its number (v2). */
const CHUNK_NAME = /^[0-9]{1,20}$/;

/**
 * The capabilities document's part for these uploads (sync-clients/capabilities.ts): the clients
 * send large files in chunks (v1 "NG"; v2 where they speak it) and many small ones by bulk upload.
 */
export function chunkedUploadCapabilities() {
  return { dav: { chunking: '1.0', bulkupload: '1.0' } };
}

/** What a write answers: whether it made the file, and the ETag and OC-FileId the client records. */
export interface StoredFile {
  created: boolean;
  etag: string;
  fileId: string;
}

/** Where an assembled transfer goes, and how its bytes are stored there: WebDAV's own (WebdavService). */
export interface UploadTargets {
  /** A Destination header's location in the user's files; refused outside them. */
  locateDestination(
    user: DavUser,
    destination: string | undefined,
    host: string | undefined,
  ): Promise<TreeLocation>;
  /** Stores `bytes` bytes at the location as a WebDAV PUT does (If header, locks, upload rules, versions, checksum, mtime). */
  put(
    context: WriteContext,
    location: DavLocation,
    body: Readable,
    bytes: number | null,
    client: ClientFileState,
  ): Promise<StoredFile>;
}

/** What a chunk PUT brings besides its bytes. */
export interface ChunkRequest {
  contentLength: number | null;
  destination: string | undefined;
  totalLength: number | null;
  host: string | undefined;
}

/** What the final MOVE brings. */
export interface AssembleRequest {
  context: WriteContext;
  destination: string | undefined;
  host: string | undefined;
  totalLength: number | null;
  /** False for `Overwrite: F`: an existing file at the Destination is 412, and stays as it is. */
  overwrite: boolean;
  /** X-OC-MTime and OC-Checksum: the assembled bytes must match the checksum, else nothing is kept. */
  client: ClientFileState;
}

/**
 * The sync clients' chunked uploads (Nextcloud's chunking v1 "NG" and v2) at
 * `/remote.php/dav/uploads/{user}/{transfer}/`. Each chunk's bytes are a storage object of their
 * own, streamed there as they arrive and held in the user's quota from its first byte; PROPFIND lists
 * the chunks received, so a client resumes. The final MOVE streams the chunks in order into the
 * target through WebDAV PUT's rules (blacklist, upload limit, quota, versions, the unit of work that
 * files it); what it refuses leaves nothing. A transfer left for a day is swept.
 */
export class ChunkedUploadsService {
  private readonly assemblies = new KeyedQueue();
  /** Where files go and how they are written: the bulk upload stores each of its files through them too. */
  readonly targets: UploadTargets;

  constructor(
    private readonly deps: {
      repository: ChunkedUploadsRepository;
      uploads: UploadService;
      storage: StorageProvider;
      actors: ActorResolver;
      targets: UploadTargets;
      now: () => Date;
    },
  ) {
    this.targets = deps.targets;
  }

  // ---- reading -----------------------------------------------------------------------------

  /** PROPFIND of the uploads collection, a transfer or a chunk, with `href` the URL of `/uploads/{user}/`. */
  async propfind(
    userId: string,
    href: string,
    transferName: string | null,
    chunkName: string | null,
    depth: '0' | '1',
  ): Promise<DavResource[]> {
    if (transferName === null) {
      const self = collection(href, '');
      if (depth === '0') return [self];
      const transfers = await this.deps.repository.list(userId);
      return [self, ...transfers.map((t) => collection(`${href}${encodeURIComponent(t.name)}/`, t.name, t))];
    }
    const transfer = await this.transfer(userId, transferName);
    const transferHref = `${href}${encodeURIComponent(transfer.name)}/`;
    const chunks = await this.deps.repository.chunks(transfer.id);
    if (chunkName !== null) {
      const chunk = chunks.find((c) => c.name === chunkName);
      if (!chunk) throw new DavRefusal('not_found');
      return [chunkResource(transferHref, chunk)];
    }
    const self = collection(transferHref, transfer.name, transfer);
    if (depth === '0') return [self];
    return [self, ...sortedChunks(chunks).map((chunk) => chunkResource(transferHref, chunk))];
  }

  /** Whether the sync clients' open transfers hold any chunk on the storage. */
  holdsAnyChunk(): Promise<boolean> {
    return this.deps.repository.holdsAnyChunk();
  }

  /** The objects of the chunks of the user's open transfers: they go with the account. */
  chunkObjectsOf(userId: string): Promise<string[]> {
    return this.deps.repository.chunkKeysOf(userId);
  }

  // ---- writing -----------------------------------------------------------------------------

  /** MKCOL of a transfer folder; v2 names its Destination, which every chunk then repeats. */
  async open(
    user: DavUser,
    transferName: string,
    request: { destination: string | undefined; totalLength: number | null; host: string | undefined },
  ): Promise<void> {
    if (!TRANSFER_NAME.test(transferName)) throw new DavRefusal('malformed');
    const userId = user.id;
    const target =
      request.destination !== undefined
        ? await this.deps.targets.locateDestination(user, request.destination, request.host)
        : null;
    // Whose account holds the chunks (see holderOf): the destination's tree's, once it is named.
    const holder = target?.tree.actor ?? (await this.deps.actors.of(userId, []));
    await this.deps.uploads.assertMayUpload(holder, target?.name ?? null, request.totalLength ?? 0);
    if (request.totalLength !== null) await this.assertRoomFor(holder, request.totalLength);
    if ((await this.deps.repository.countOf(userId)) >= OPEN_TRANSFERS_MAX)
      throw new DavRefusal('insufficient_storage');
    const at = this.deps.now().toISOString();
    const opened = await this.deps.repository.insert({
      id: randomUUID(),
      user_id: userId,
      name: transferName,
      destination: request.destination ?? null,
      total_length: request.totalLength,
      created_at: at,
      touched_at: at,
    });
    if (!opened) throw new DavRefusal('already_exists');
  }

  /**
   * PUT of a chunk: its bytes (exactly Content-Length of them) stream into an object of their own,
   * held in the user's quota first. A chunk sent again under its name replaces the one before. A
   * refusal by the upload rules (quota, upload limit, blacklist, uploads switched off) ends the
   * transfer, so nothing of it is kept.
   */
  async putChunk(
    user: DavUser,
    transferName: string,
    chunkName: string,
    body: Readable,
    request: ChunkRequest,
  ): Promise<void> {
    const userId = user.id;
    const transfer = await this.transferOrConflict(userId, transferName);
    if (!CHUNK_NAME.test(chunkName)) throw new DavRefusal('malformed');
    const v2 = transfer.destination !== null;
    if (v2) {
      const number = Number(chunkName);
      if (number < 1 || number > CHUNKING_V2.maxChunks) throw new DavRefusal('malformed');
      if (request.destination !== transfer.destination) throw new DavRefusal('malformed');
    }
    const bytes = request.contentLength;
    // Every client sends a chunk's length; without it the quota could not be held before the bytes.
    if (bytes === null) throw new AppError('bad_request', 'Content-Length is required');
    if (bytes > CHUNKING_V2.maxChunkBytes) throw new DavRefusal('body_too_large');
    let actor = await this.deps.actors.of(userId, []);
    const chunks = await this.deps.repository.chunks(transfer.id);
    const others = chunks.filter((c) => c.name !== chunkName);
    if (others.length >= CHUNKING_V2.maxChunks) throw new DavRefusal('malformed');
    const key = newStorageKey();
    try {
      let name: string | null = null;
      if (v2) {
        const target = await this.deps.targets.locateDestination(user, transfer.destination!, request.host);
        [actor, name] = [target.tree.actor, target.name];
      }
      await this.deps.uploads.assertMayUpload(actor, name, sum(others) + bytes);
      if (request.totalLength !== null) await this.assertRoomFor(actor, request.totalLength - sum(others));
      // The object is the hold's until its row names it: an account deleted before then takes it
      // with the hold.
      await this.deps.uploads.holdUnder(actor, holdKey(key), bytes, key);
    } catch (error) {
      if (error instanceof AppError) await this.discard(actor, transfer);
      throw error;
    }
    const storage = await this.deps.storage.current();
    try {
      const counter = new ExactLength(bytes);
      await storage.put(
        key,
        pipeline(body, counter, () => undefined),
      );
      if (counter.bytes !== bytes) throw AppError.invalid('chunk', 'errors.chunk_incomplete', 'bad_request');
    } catch (error) {
      await storage.delete(key).catch(() => undefined);
      await this.deps.uploads.releaseHold(actor, holdKey(key));
      throw error instanceof AppError
        ? error
        : AppError.invalid('chunk', 'errors.chunk_incomplete', 'bad_request');
    }
    const at = this.deps.now().toISOString();
    const replaced = await this.deps.repository
      .putChunk({ upload_id: transfer.id, name: chunkName, size: bytes, storage_key: key, created_at: at })
      .catch(async (error: unknown) => {
        // The transfer went while the bytes arrived (given up, swept, its account deleted).
        await storage.delete(key).catch(() => undefined);
        await this.deps.uploads.releaseHold(actor, holdKey(key)).catch(() => undefined);
        const still = await this.deps.repository.find(userId, transferName).catch(() => undefined);
        if (still?.id === transfer.id) throw error;
        throw new DavRefusal('missing_parent');
      });
    // Named by its row now, which a sweep of abandoned uploads taking the hold leaves as it is.
    await this.deps.uploads.heldObjectFiled(actor, holdKey(key));
    if (replaced) await this.removeChunkBytes(actor, [replaced]);
    await this.deps.repository.touch(transfer.id, at, request.totalLength);
    // The earlier chunks' holds are the transfer's too: kept while it goes on, however long it takes.
    await this.deps.uploads.touchHolds(
      actor,
      others.map((chunk) => holdKey(chunk.storage_key)),
    );
  }

  /** DELETE of a transfer (the client gives it up) or of one chunk (the NG client drops stale ones). */
  async delete(
    user: DavUser,
    transferName: string,
    chunkName: string | null,
    host: string | undefined,
  ): Promise<void> {
    const transfer = await this.transfer(user.id, transferName);
    const actor = await this.holderOf(user, transfer, host);
    if (chunkName === null) return this.discard(actor, transfer);
    const removed = await this.deps.repository.deleteChunk(transfer.id, chunkName);
    if (!removed) throw new DavRefusal('not_found');
    await this.removeChunkBytes(actor, [removed]);
  }

  /**
   * The final `MOVE {transfer}/.file`: the chunks, in the order of their names, are streamed into
   * the Destination as one PUT of their total, and the transfer goes. Chunks that do not add up to
   * OC-Total-Length, or v2 chunks outside its sizes, are refused and kept for the client to mend, as
   * are they when a lock is in the way or the server fails; a refusal of the write itself (rules,
   * checksum, If header) ends the transfer.
   */
  async assemble(user: DavUser, transferName: string, request: AssembleRequest): Promise<StoredFile> {
    const userId = user.id;
    const { id } = await this.transfer(userId, transferName);
    return this.assemblies.run(id, async () => {
      // Read again in turn: a MOVE sent twice waits for the first, which discards the transfer, and
      // must then find it gone (404), not write its empty list of chunks over the file.
      const transfer = await this.transfer(userId, transferName);
      const target = await this.deps.targets.locateDestination(user, request.destination, request.host);
      if (!request.overwrite && target.exists) throw new DavRefusal('precondition_failed');
      const chunks = sortedChunks(await this.deps.repository.chunks(transfer.id));
      const total = sum(chunks);
      // The length announced with the MOVE, or else with the transfer's MKCOL or chunks.
      const announced = request.totalLength ?? transfer.total_length;
      if (announced !== null && Number(announced) !== total) throw new DavRefusal('malformed');
      if (
        transfer.destination !== null &&
        chunks.some(
          (c, i) =>
            c.size > CHUNKING_V2.maxChunkBytes ||
            (i < chunks.length - 1 && c.size < CHUNKING_V2.minChunkBytes),
        )
      )
        throw new DavRefusal('malformed');
      const actor = await this.holderOf(user, transfer, request.host);
      const storage = await this.deps.storage.current();
      // The chunks' holds go first: the write holds the whole file's bytes as they pass, and the
      // chunks are deleted right after, whatever the write answers.
      for (const chunk of chunks) await this.deps.uploads.releaseHold(actor, holdKey(chunk.storage_key));
      async function* joined() {
        for (const chunk of chunks) yield* await storage.get(chunk.storage_key);
      }
      let written: StoredFile;
      try {
        written = await this.deps.targets.put(
          request.context,
          target,
          Readable.from(joined(), { objectMode: false }),
          total,
          request.client,
        );
      } catch (error) {
        // A lock in the way, or a fault of the server, passes: the chunks stay, held again, for the
        // client's next MOVE. A refusal of the write itself (rules, checksum, If header) ends it.
        if (!passing(error) || !(await this.holdAgain(actor, chunks))) await this.discard(actor, transfer);
        throw error;
      }
      await this.discard(actor, transfer);
      return written;
    });
  }

  /** The chunks' holds, taken again after a MOVE that could not write them; false when they no longer fit. */
  private async holdAgain(actor: Actor, chunks: readonly DavUploadChunkRow[]): Promise<boolean> {
    try {
      for (const chunk of chunks) {
        await this.deps.uploads.holdUnder(actor, holdKey(chunk.storage_key), chunk.size, chunk.storage_key);
        await this.deps.uploads.heldObjectFiled(actor, holdKey(chunk.storage_key));
      }
      return true;
    } catch (error) {
      if (error instanceof AppError) return false;
      throw error;
    }
  }

  /** Removes transfers nobody sent a chunk to for `idleMs` before `now`: their chunks, holds and rows. */
  async sweep(now: Date, idleMs = STALE_TRANSFER_MS): Promise<number> {
    const before = new Date(now.getTime() - idleMs).toISOString();
    const stale = await this.deps.repository.idleSince(before, SWEEP_BATCH);
    // Holds a team folder's owner keeps for a member's transfer are the sweep of abandoned uploads'
    // (idle as long): here the chunks go, and what the user's own account holds.
    for (const transfer of stale)
      await this.discard(await this.deps.actors.of(transfer.user_id, []), transfer);
    return stale.length;
  }

  // ---- helpers -----------------------------------------------------------------------------

  private async transfer(userId: string, name: string): Promise<DavUploadRow> {
    const transfer = TRANSFER_NAME.test(name) ? await this.deps.repository.find(userId, name) : undefined;
    if (!transfer) throw new DavRefusal('not_found');
    return transfer;
  }

  /** A chunk for a transfer that was never made (or is gone): its folder is missing, as RFC 4918 says. */
  private async transferOrConflict(userId: string, name: string): Promise<DavUploadRow> {
    return this.transfer(userId, name).catch(() => {
      throw new DavRefusal('missing_parent');
    });
  }

  /**
   * Whose account holds a transfer's chunks: for chunking v2, which names its destination from the
   * start, the destination's tree's (a team folder's owner, when a member sends into it), as the
   * file will be; for v1, known only at its MOVE, the user's own. A destination out of the user's
   * reach by now leaves what it held there to the sweep of abandoned uploads.
   */
  private async holderOf(user: DavUser, transfer: DavUploadRow, host: string | undefined): Promise<Actor> {
    if (transfer.destination !== null) {
      const target = await this.deps.targets
        .locateDestination(user, transfer.destination, host)
        .catch((error: unknown) => {
          if (error instanceof DavRefusal || error instanceof AppError) return null;
          throw error;
        });
      if (target) return target.tree.actor;
    }
    return this.deps.actors.of(user.id, []);
  }

  /** 507 before any byte when the announced total cannot fit in what the account has left. */
  private async assertRoomFor(actor: Actor, bytes: number): Promise<void> {
    const reservation = await this.deps.uploads.reserve(actor.ownerId, Math.max(0, bytes));
    if (!reservation) throw new DavRefusal('insufficient_storage');
    await reservation.release();
  }

  private async discard(actor: Actor, transfer: DavUploadRow): Promise<void> {
    await this.removeChunkBytes(actor, await this.deps.repository.chunks(transfer.id));
    await this.deps.repository.delete(transfer.id);
  }

  private async removeChunkBytes(actor: Actor, chunks: readonly DavUploadChunkRow[]): Promise<void> {
    if (chunks.length === 0) return;
    await (await this.deps.storage.current()).deleteMany(chunks.map((c) => c.storage_key));
    for (const chunk of chunks) await this.deps.uploads.releaseHold(actor, holdKey(chunk.storage_key));
  }
}

/** Whether a MOVE's failure to write passes: a lock in the way, or no refusal at all (a fault of the server). */
function passing(error: unknown): boolean {
  if (error instanceof DavRefusal) return error.reason === 'locked';
  return !(error instanceof AppError);
}

/** The quota hold of a chunk is named by its object, so a chunk sent again never shares one. */
function holdKey(storageKey: string): string {
  return `dav-chunk:${storageKey}`;
}

function sum(chunks: readonly DavUploadChunkRow[]): number {
  return chunks.reduce((total, chunk) => total + chunk.size, 0);
}

/** Chunks in the order of their names as numbers (16-digit offsets, or 1..10000). */
function sortedChunks(chunks: readonly DavUploadChunkRow[]): DavUploadChunkRow[] {
  const key = (name: string) => name.replace(/^0+(?=\d)/, '');
  return [...chunks].sort((a, b) => {
    const [x, y] = [key(a.name), key(b.name)];
    return x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
  });
}

function collection(href: string, name: string, transfer?: DavUploadRow): DavResource {
  return {
    ...virtualCollection(href, name),
    createdAt: transfer?.created_at ?? null,
    modifiedAt: transfer?.touched_at ?? null,
  };
}

function chunkResource(transferHref: string, chunk: DavUploadChunkRow): DavResource {
  return {
    ...virtualCollection(`${transferHref}${chunk.name}`, chunk.name),
    collection: false,
    createdAt: chunk.created_at,
    modifiedAt: chunk.created_at,
    size: chunk.size,
    mimetype: 'application/octet-stream',
    etag: `"${chunk.storage_key}"`,
  };
}

/** Passes exactly `limit` bytes; one more fails the stream, so a lying Content-Length stores nothing. */
class ExactLength extends Transform {
  bytes = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit)
      return callback(AppError.invalid('chunk', 'errors.chunk_incomplete', 'bad_request'));
    callback(null, chunk);
  }
}
