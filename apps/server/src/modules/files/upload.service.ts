import { Flag, ItemName, UploadConflict, type ItemResource } from '@atelier/contracts';
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { UnitOfWork } from '../../db/database';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { SettingsService } from '../settings/settings.service';
import {
  newStorageKey,
  StorageNotFoundError,
  type PartPosition,
  type PutOptions,
  type StoredObject,
} from '../../storage/storage';
import type { StorageProvider } from '../../storage/storage-provider';
import { ChunkGuard } from './chunk-guard';
import { detectFileType, extensionOf, isBlacklisted } from './file-type.detector';
import { ItemAccess, refusalReasonFor, SERVER_SESSION_KEY, uploadKeyOf, type Actor } from './files.access';
import { presentItem } from './files.presenter';
import { UploadSessionGone, type FilesRepository } from './files.repository';
import type { AccountLimits, FilesService } from './files.service';
import { newContent, newFileItem, newFileItemOf, type ItemNames, type StoredFile } from './new-items';
import type { ItemRow, NewUploadSession, UploadSessionProgress, UploadSessionRow } from './files.tables';
import type { BlockStore } from './block-store';
import type { ItemChanges } from './item-changes';
import type { OwnerUnits } from './owner-units';
import { objectAt, type StoragePurges } from './storage-purges';
import type { VersionsService } from './versions.service';

/** The text fields of a chunk form (POST /api/upload/chunks), as strings the client sent. */
export type ChunkFields = Partial<
  Record<'name' | 'extension' | 'is_last_chunk' | 'path' | 'parent_id' | 'offset' | 'conflict', string>
>;

/** The byte offset where a chunk starts, when the client says so (an addition to the addendum's form). */
const ChunkOffset = z
  .string()
  .regex(/^\d{1,15}$/, 'validation.upload_offset')
  .transform(Number)
  .optional();

const ChunkForm = z.object({
  name: ItemName,
  extension: z.string().trim().max(32).optional(),
  is_last_chunk: Flag.default(false),
  /** `/A/B/file.txt`: the folders A and B are made or reused under the parent. */
  path: z
    .string()
    .max(4096)
    .optional()
    .transform((path, ctx) => {
      const folders = (path ?? '').split('/').filter(Boolean).slice(0, -1);
      for (const folder of folders) {
        if (!ItemName.safeParse(folder).success) {
          ctx.addIssue({ code: 'custom', message: 'validation.upload_path' });
          return z.NEVER;
        }
      }
      return folders.map((folder) => folder.trim());
    }),
  parent_id: z.string().max(64).optional(),
  offset: ChunkOffset,
  conflict: UploadConflict.default('keep-both'),
});
const OffsetField = ChunkForm.pick({ offset: true });

/**
 * The client's key for one upload: the chunk's multipart filename; compared, never used as a path.
 * Never one of the server's own session keys: a chunk upload named like a delta upload's block hold
 * would pass for a block the client sent (and be closed with its parts left behind).
 */
const ClientKey = z
  .string()
  .min(1)
  .max(512)
  .refine((key) => !SERVER_SESSION_KEY.test(key));

/** A chunk whose bytes are stored; `commit` files it once every field of the form is known. */
export interface ReceivedChunk {
  /** The stored file's resource for the last chunk, null for a middle one. */
  commit(fields: ChunkFields): Promise<ItemResource | null>;
  /** Removes the whole upload, for a caller that refuses the form once all its fields are known. */
  discard(): Promise<void>;
}

/** A chunk whose bytes are stored, inside this service: `commit` answers the filed file's row. */
interface StoredChunk {
  commit(fields: ChunkFields): Promise<ItemRow | null>;
  discard(): Promise<void>;
}

/** What follows a new file, inside the unit of work that files it. */
export interface FileStoredListeners {
  /** Every new file, whichever way its bytes came: the work made from it in the background (thumbnails). */
  filed(file: ItemRow): Promise<void>;
  /** A file whose bytes a client sent (an upload, not a render's output or a copy). */
  received(file: ItemRow): Promise<void>;
}

/** Quota held for files stored in one go (see UploadService.reserve). */
export interface QuotaReservation {
  /**
   * Files bytes already in storage as an item of the owner's out of the bytes held: its size becomes
   * used bytes, and its background jobs are enqueued, in one unit of work; its folder is told once
   * that commits. Keeps both: a name the folder already holds files it as `name (1).ext`, … (the
   * answered item carries the name it got).
   */
  file(stored: StoredFile): Promise<ItemRow>;
  /**
   * Writes bytes to a new object for `file` (under `key`, a new storage key unless the caller names
   * its objects itself), recorded with the reservation before the first byte: one not filed is
   * deleted on `release`, or by the upload sweep after a process killed first.
   */
  put(body: Readable | Uint8Array, options: PutOptions, key?: string): Promise<StoredObject>;
  /**
   * Takes objects `put` wrote back from the reservation, for rows that name them filed some other
   * way than `file`: called in the unit of work that files those rows (see `filing`), so release keeps them.
   */
  keep(keys: readonly string[]): Promise<number>;
  /**
   * Runs `work` in a unit of work on the owner's rows (OwnerUnits), its account held first;
   * not_found, filing nothing, once the account is gone. Its deletion takes the account before what
   * reservations hold and the account's rows: a unit that filed rows (`file`, `copy`, `keep`) after
   * taking a held row or another row of the owner's (a project's, an item's) would wait on the
   * deletion as the deletion waits on it, a deadlock PostgreSQL ends by failing one of them.
   * `savedBy`: the account saving, when the rows name it (see OwnerUnits), held too.
   */
  filing<T>(work: () => Promise<T>, savedBy?: string | null): Promise<T>;
  /**
   * As `file`, for a copy of the owner's file stored as blocks (`sourceKey`, its storage key): the
   * copy names the same blocks, no byte is written. Null, filing nothing, when the source is not
   * blocks of the owner's: the caller copies the bytes and files them.
   */
  copy(sourceKey: string, stored: Omit<StoredFile, 'storageKey'>): Promise<ItemRow | null>;
  /** Lets go of whatever is still held. */
  release(): Promise<void>;
}

/**
 * Another module's writes that belong with the filing of a file a client sent (an upload request's
 * change and its owner's notice): run inside the unit of work that files it, so both commit or neither.
 */
export type AlongsideFiling = ((file: ItemRow) => Promise<void>) & {
  /**
   * Asked, inside the unit of work and under the folder's name lock, before the upload replaces a
   * file: true when that file already holds these bytes as the sender knows them, which it then keeps
   * (its content, ETag and versions) while the upload's own copy is let go.
   */
  keeps?: (existing: ItemRow, bytes: number) => Promise<boolean>;
  /**
   * Asked, inside the unit of work and under the folder's name lock, before the upload files: the
   * file the name holds now (null: none). It throws to refuse the upload, nothing of it filed — a
   * sender's condition on the file as it was when the upload began (WebDAV's If-Match).
   */
  expects?: (existing: ItemRow | null) => void;
};

/** What a chunk carried, to recognise it when it is sent again. */
interface ChunkDigest {
  bytes: number;
  sha256: string;
}

/**
 * Chunked uploads. Every chunk is checked before and while its bytes go to storage: restrictions,
 * the type blacklist (by name and by the bytes), the upload limit and the quota, whose bytes each
 * chunk reserves atomically as they arrive. A refusal removes the whole upload, so nothing of it is
 * left behind.
 *
 * What a process killed at any moment leaves is an upload session that continues or is swept: the
 * session advances only once a chunk is stored, and a completion records the object it writes before
 * writing it, so the last chunk sent again finishes it (or the sweep removes the object).
 *
 * A chunk may say where it starts (`offset`). One that does not start where the upload stands stores
 * nothing: the last stored chunk sent again (its answer lost) is answered as it was the first time,
 * anything else is a conflict that tells the client how many bytes the server holds.
 */
export class UploadService {
  private readonly access: ItemAccess;

  constructor(
    private readonly items: FilesRepository,
    private readonly files: FilesService,
    private readonly storage: StorageProvider,
    private readonly limits: AccountLimits,
    private readonly settings: SettingsService,
    private readonly changes: ItemChanges,
    private readonly onFileStored: FileStoredListeners,
    private readonly units: UnitOfWork,
    private readonly now: () => Date,
    private readonly versions: VersionsService,
    /**
     * Filed files' bytes, whatever their layout (a chunk sent again is compared with them), and
     * copies of contents made of blocks.
     */
    private readonly contents: Pick<BlockStore, 'read' | 'copyContent'>,
    /** Objects a reservation wrote, held under its session's id until filed (see `reserve`). */
    private readonly purges: Pick<StoragePurges, 'hold' | 'keep' | 'run'>,
    /** Filings: each holds the owner's account first, so the account's deletion waits (see OwnerUnits). */
    private readonly owners: OwnerUnits,
  ) {
    this.access = new ItemAccess(items);
  }

  /**
   * Streams one chunk into storage. `fields` are those the form sent before the chunk; `alongside`
   * runs in the unit of work that files the upload's file (not for a chunk sent again after it).
   */
  async receive(
    actor: Actor,
    clientKeyText: string,
    fields: ChunkFields,
    chunk: Readable,
    alongside?: AlongsideFiling,
  ): Promise<ReceivedChunk> {
    const clientKey = ClientKey.safeParse(clientKeyText);
    if (!clientKey.success) throw AppError.invalid('chunk', 'validation.required');
    const stored = await this.store(actor, clientKey.data, fields, chunk, alongside);
    return {
      commit: async (allFields) => {
        const file = await stored.commit(allFields);
        return file && this.present(actor, file);
      },
      discard: () => stored.discard(),
    };
  }

  /**
   * `receive`, answering the filed file's row rather than its resource, for a key the client's or
   * the server's own (a whole body's). `announcedBytes`, the size a
   * whole body announced, refuses an upload the quota cannot hold before any byte is read, unless
   * versions old enough to go could make room as the bytes arrive.
   */
  private async store(
    actor: Actor,
    clientKey: string,
    fields: ChunkFields,
    chunk: Readable,
    alongside?: AlongsideFiling,
    announcedBytes: number | null = null,
  ): Promise<StoredChunk> {
    this.access.assertCanWrite(actor);
    const sessionKey = uploadKeyOf(actor, clientKey);

    const [{ restrictions, capacity, used }, settings, existing] = await Promise.all([
      this.limits.of(actor.ownerId),
      this.settings.all(),
      this.items.findUploadSession(actor.ownerId, sessionKey),
    ]);
    let offset: number | undefined;
    try {
      if (!restrictions.canUpload)
        throw new AppError(
          'upload_disabled',
          refusalReasonFor(actor, restrictions.reason) ?? 'errors.upload_disabled',
        );
      if (
        announcedBytes !== null &&
        capacity !== null &&
        used + announcedBytes > capacity &&
        !(await this.versions.mayMakeRoom(actor.ownerId))
      )
        throw new AppError('storage_limit_exceeded', 'errors.storage_limit_exceeded');
      // The key repeats the file name (`<random>-<name>.part`), so the name can be checked before any byte.
      this.assertAllowedName(settings.mimetypes_blacklist, fields, clientKey.replace(/\.part$/, ''));
      // Read before the bytes, so a chunk that does not continue the upload stores nothing.
      ({ offset } = parseForm(OffsetField, fields));
    } catch (refusal) {
      if (existing) await this.discard(existing);
      throw refusal;
    }
    // Without a session, an offset of 0 starts an upload, unless this key was already filed: then it is
    // that upload's chunk sent again (its answer lost), and must not store a second copy.
    if (
      offset !== undefined &&
      (offset !== (existing?.received_bytes ?? 0) ||
        (!existing && (await this.items.findFiledUpload(actor.ownerId, sessionKey)) !== undefined))
    ) {
      const sent = await digestOf(chunk);
      return {
        commit: () => this.settleOutOfPlace(actor, existing ?? null, sessionKey, offset, sent),
        discard: async () => {
          if (existing) await this.discard(existing);
        },
      };
    }

    let session = existing ?? (await this.openSession(actor.ownerId, sessionKey));
    const storage = await this.storage.current();
    if (session.storage_key) {
      const object = await storage.stat(session.storage_key);
      if (object)
        return this.receiveAfterCompletion(
          actor,
          session,
          object.size,
          settings.mimetypes_blacklist,
          chunk,
          alongside,
        );
      // The parts never became the object: the upload goes on from them, this chunk writing the last one again.
    }
    // A chunk starts from what the upload stored; whatever an earlier attempt held beyond that (a
    // request cut off, a process killed) is let go.
    if (session.reserved_bytes !== session.received_bytes || session.storage_key)
      session = await this.hold(session, session.received_bytes, capacity, { storage_key: null });

    let detected: string | null = session.mimetype;
    const uploading = session;
    // The owner's old versions go for room only for the owner's own uploads (and their team's): a
    // link's visitor or an upload request's outsider is refused when the quota is full instead.
    const makesRoom = actor.shareToken === null && actor.uploadRequestId === null;
    const guard = new ChunkGuard(
      {
        chunkBytes: settings.chunk_size,
        uploadBytes: settings.upload_limit > 0 ? settings.upload_limit - session.received_bytes : Infinity,
      },
      (bytes, ahead) => {
        const reserve = () =>
          this.items.reserveUploadBytes(uploading.id, bytes, capacity).catch((error: unknown) => {
            // Its account was deleted (or it was swept) while the chunk arrived: there is nothing to upload to.
            if (error instanceof UploadSessionGone) throw new AppError('not_found', 'errors.not_found');
            throw error;
          });
        return ahead || !makesRoom ? reserve() : this.withRoom(actor.ownerId, bytes, reserve);
      },
      session.part_count === 0
        ? async (head) => {
            const type = await detectFileType(head, fields.name ?? clientKey);
            if (
              isBlacklisted(settings.mimetypes_blacklist, {
                extensions: [type.extension],
                mimetype: type.mimetype,
              })
            ) {
              throw new AppError('blacklisted_type', 'errors.blacklisted_type');
            }
            detected = type.mimetype;
          }
        : null,
    );

    const part = { number: session.part_count + 1, offset: session.received_bytes };
    try {
      // pipeline() hands a dropped connection on to the guard, so storage discards the partial part.
      await storage.writePart(
        session.id,
        part,
        pipeline(chunk, guard, () => undefined),
      );
    } catch (error) {
      // A refusal ends the upload; a broken connection only loses this chunk, which the client retries
      // (a first chunk leaves no upload to continue, so a retry simply starts it again).
      if (error instanceof AppError || session.part_count === 0) await this.discard(session);
      else await this.items.holdUploadBytes(session, session.received_bytes, capacity);
      // A form that ends inside its chunk is the client's fault (400); a storage failure stays a 5xx.
      if (chunk.errored && !(error instanceof AppError))
        throw AppError.invalid('chunk', 'errors.chunk_incomplete', 'bad_request');
      throw error;
    }

    return {
      commit: async (allFields) => {
        const { form, parent } = await this.readForm(
          actor,
          uploading,
          allFields,
          settings.mimetypes_blacklist,
        );
        if (form.offset !== undefined && form.offset !== part.offset)
          return this.settleLateOffset(actor, uploading, part, guard.bytes, form.offset, capacity);
        const received = uploading.received_bytes + guard.bytes;
        if (form.is_last_chunk && received === 0) {
          await this.discard(uploading);
          throw AppError.invalid('chunk', 'validation.empty_file');
        }
        if (!form.is_last_chunk) {
          await this.hold(uploading, received, capacity, {
            received_bytes: received,
            part_count: part.number,
            mimetype: detected,
          });
          return null;
        }
        // The last chunk stays out of the session's count until the file is filed, so sending it
        // again after an interrupted completion writes it again rather than after itself.
        const completing = await this.hold(uploading, received, capacity, {
          storage_key: newStorageKey(),
          mimetype: detected,
        });
        const stored = await storage.completeParts(completing.id, part.number, completing.storage_key!, {
          contentType: fileMimetype(completing),
        });
        return this.file(actor, completing, form, parent, stored.size, received, alongside);
      },
      discard: () => this.discard(uploading),
    };
  }

  /**
   * A whole file sent in one stream (a WebDAV PUT) into a folder (null: the actor's root): cut into
   * parts of the chunk size that go through `receive` one after another, so every rule of a chunked
   * upload applies as the bytes arrive and nothing is buffered. An empty stream is a file of no bytes.
   * A refusal or a broken stream leaves nothing behind. `announcedBytes` (a Content-Length) refuses a
   * body the quota cannot hold before its first byte.
   */
  async receiveWhole(
    actor: Actor,
    parentId: string | null,
    name: string,
    body: Readable,
    conflict: UploadConflict = 'keep-both',
    announcedBytes: number | null = null,
    alongside?: AlongsideFiling,
  ): Promise<ItemRow> {
    const parts = new StreamParts(body);
    if (await parts.ended()) return this.storeEmpty(actor, parentId, name, conflict, alongside);
    const clientKey = `whole:${randomUUID()}`;
    const fields: ChunkFields = { name, conflict, ...(parentId ? { parent_id: parentId } : {}) };
    const { chunk_size: chunkBytes } = await this.settings.all();
    let first = true;
    try {
      for (;;) {
        const announced = first ? announcedBytes : null;
        first = false;
        const received = await this.store(
          actor,
          clientKey,
          fields,
          parts.next(chunkBytes),
          alongside,
          announced,
        );
        const last = await parts.ended();
        const file = await received.commit({ ...fields, is_last_chunk: last ? '1' : '0' });
        if (file) return file;
      }
    } catch (error) {
      await this.abandon(actor, clientKey);
      throw error;
    }
  }

  /**
   * A file of no bytes: nothing to detect or hold, but the restrictions and the blacklist still apply.
   * Its empty object is recorded with a reservation of no bytes before it is written, and taken back
   * as the file is filed: one not filed goes on release, or by the upload sweep after a process
   * killed first.
   */
  private async storeEmpty(
    actor: Actor,
    parentId: string | null,
    name: string,
    conflict: UploadConflict,
    alongside?: AlongsideFiling,
  ): Promise<ItemRow> {
    const settings = await this.assertMayStore(actor, name);
    const type = await detectFileType(new Uint8Array(0), name);
    if (
      isBlacklisted(settings.mimetypes_blacklist, { extensions: [type.extension], mimetype: type.mimetype })
    )
      throw new AppError('blacklisted_type', 'errors.blacklisted_type');
    const parent = await this.access.folder(actor, parentId);
    const reservation = await this.reserve(actor.ownerId, 0);
    if (!reservation) throw new AppError('storage_limit_exceeded', 'errors.storage_limit_exceeded');
    let filing: { file: ItemRow; staleThumbnails: string[] };
    try {
      const { key } = await reservation.put(new Uint8Array(0), { contentType: type.mimetype });
      const bytes = { mimetype: type.mimetype, size: 0, storageKey: key, now: this.now().toISOString() };
      filing = await reservation.filing(async () => {
        await reservation.keep([key]);
        const place = await this.placeFor(actor, parent?.id ?? null, name, conflict);
        alongside?.expects?.('replaces' in place ? place.replaces : null);
        if ('replaces' in place) {
          const stale = await this.versions.replaceBytes(place.replaces, newContent(actor, bytes), bytes.now);
          const replaced = (await this.items.findOne(actor.ownerId, place.replaces.id))!;
          await alongside?.(replaced);
          return { file: replaced, staleThumbnails: stale };
        }
        const inserted = await this.items.insertFile(
          newFileItem(actor, { ...bytes, ...place, parentId: parent?.id ?? null }),
        );
        await alongside?.(inserted);
        return { file: inserted, staleThumbnails: [] };
      }, actor.userId);
    } finally {
      // Deletes the empty object when it was not filed.
      await reservation.release();
    }
    await this.afterFiling(actor.ownerId, filing.file, filing.staleThumbnails);
    return filing.file;
  }

  /** The live file an upload of this key became, or null (a sender resuming its work after a stop). */
  async filedAs(actor: Actor, clientKeyText: string): Promise<ItemResource | null> {
    const filed = await this.items.findFiledUpload(actor.ownerId, uploadKeyOf(actor, clientKeyText));
    if (!filed) return null;
    const file = await this.access.reachOne(actor, filed.item_id, 'live', 'file').catch((error: unknown) => {
      if (error instanceof AppError) return null;
      throw error;
    });
    return file ? this.present(actor, file) : null;
  }

  /** Removes whatever an unfinished upload of this key holds (parts, quota), for a sender that gives it up. */
  async abandon(actor: Actor, clientKeyText: string): Promise<void> {
    const session = await this.items.findUploadSession(actor.ownerId, uploadKeyOf(actor, clientKeyText));
    if (session) await this.discard(session);
  }

  /**
   * Every unfinished upload the actor's link or request started, with what it stored and held: once
   * the request is closed nobody can finish them, and their holds kept the owner's room a day.
   */
  async abandonAllOf(actor: Actor): Promise<void> {
    for (const session of await this.items.uploadSessionsKeyedUnder(actor.ownerId, uploadKeyOf(actor, '')))
      await this.discard(session);
  }

  /**
   * Holds `bytes` of the owner's quota for files stored in one go rather than in chunks (a render's
   * outputs, WebDAV copies), through the same conditional update as chunks, so neither can pass the capacity while
   * the other is under way; room is made from the owner's oldest versions as for an upload. Null,
   * holding nothing, when the bytes do not fit. What a process killed before its release still holds
   * is let go by the upload sweep.
   */
  async reserve(ownerId: string, bytes: number): Promise<QuotaReservation | null> {
    const session = await this.holdWithRoom(ownerId, `reservation:${randomUUID()}`, bytes);
    if (!session) return null;
    const fileAs = async (stored: StoredFile, contentId: string | null) => {
      const name = await this.keepBothName(ownerId, stored.parentId, stored.name);
      const file =
        contentId === null
          ? newFileItem({ ownerId }, { ...stored, name })
          : { item: newFileItemOf({ ownerId }, { ...stored, name }, contentId), content: null };
      const filed = await this.items.fileFromReservation(session.id, file);
      if (!filed)
        throw new Error(`Reservation ${session.id} does not hold the ${stored.size} bytes of ${stored.name}`);
      await this.onFileStored.filed(filed);
      await this.changes.announce(ownerId, [filed.id]);
      return filed;
    };
    const filing = <T>(work: (trx: Kysely<DB>) => Promise<T>, savedBy?: string | null) =>
      this.owners.transaction(ownerId, work, savedBy);
    return {
      file: (stored) =>
        filing(async () => {
          await this.purges.keep(session.id, [stored.storageKey]);
          return fileAs(stored, null);
        }),
      put: async (body, options, key = newStorageKey()) => {
        await this.purges.hold(session.id, [objectAt(key)]);
        return (await this.storage.current()).put(key, body, options);
      },
      keep: (keys) => this.purges.keep(session.id, keys),
      filing,
      copy: (sourceKey, stored) =>
        filing(async (trx) => {
          const content = await this.contents.copyContent(trx, {
            ownerId,
            authorId: ownerId,
            storageKey: sourceKey,
            mimetype: stored.mimetype,
          });
          return content && fileAs({ ...stored, storageKey: content.storageKey }, content.contentId);
        }),
      release: async () => {
        await this.purges.run(session.id);
        await this.items.deleteUploadSession(session.id);
      },
    };
  }

  /**
   * Writes objects that count against no quota (an avatar's sizes, the instance's logos) under keys
   * the caller chose, and runs `name` in the unit of work that makes rows name them. They are held by
   * a reservation of no bytes of the owner's from before their first byte: deleted when `name` fails
   * or names them not, and by the upload sweep after a process killed first.
   */
  async storeNamed(
    ownerId: string,
    objects: ReadonlyArray<{ key: string; body: Uint8Array; contentType: string }>,
    name: () => Promise<void>,
  ): Promise<void> {
    const reservation = await this.reserve(ownerId, 0);
    if (!reservation) throw new Error(`No reservation of no bytes for ${ownerId}`);
    try {
      // Every write ended before the release below deletes what was held: one still writing would
      // land after it, named by nothing.
      const written = await Promise.allSettled(
        objects.map((object) =>
          reservation.put(object.body, { contentType: object.contentType }, object.key),
        ),
      );
      const failed = written.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      // Not `filing`: an avatar's naming locks the account's row for update itself, which a shared
      // lock taken first would turn into a deadlock of two avatars saved at once.
      await this.units.transaction(async () => {
        // Naming first locks the naming row (the account's, for an avatar) before the held objects,
        // the order of an account's deletion, which takes what its reservations hold: no deadlock.
        await name();
        // Fewer kept than written: the owner's account was deleted meanwhile and its purge took
        // them, so naming them would name objects about to go.
        if ((await reservation.keep(objects.map((object) => object.key))) < objects.length)
          throw new AppError('not_found', 'errors.not_found');
      });
    } finally {
      await reservation.release();
    }
  }

  /**
   * The rules a chunk is held to before any of its bytes, for an upload that stores its bytes some
   * other way (a delta upload's blocks): the actor writes, the account may upload, the name (when
   * known) is not blacklisted, and `bytes` stay within the upload limit.
   */
  async assertMayUpload(actor: Actor, name: string | null, bytes: number): Promise<void> {
    const settings = await this.assertMayStore(actor, name);
    if (settings.upload_limit > 0 && bytes > settings.upload_limit)
      throw new AppError('payload_too_large', 'errors.upload_limit');
  }

  /** The actor writes, the account may upload and the name (when known) is not blacklisted; the settings read. */
  private async assertMayStore(actor: Actor, name: string | null) {
    this.access.assertCanWrite(actor);
    const [{ restrictions }, settings] = await Promise.all([
      this.limits.of(actor.ownerId),
      this.settings.all(),
    ]);
    if (!restrictions.canUpload)
      throw new AppError(
        'upload_disabled',
        refusalReasonFor(actor, restrictions.reason) ?? 'errors.upload_disabled',
      );
    if (name !== null) this.assertAllowedName(settings.mimetypes_blacklist, {}, name);
    return settings;
  }

  /**
   * Holds `bytes` of the owner's quota under the actor's `clientKey` (a delta upload's block, from
   * the moment it is sent to the commit that files it), making room from versions as a chunk does;
   * a hold the key already has is kept. `fileContent` lets go of it, or the upload sweep does.
   * Whether the actor holds a key is also how a commit knows which blocks the actor sent. The
   * `object` about to be written for the hold (a WebDAV chunk's) is the hold's until the caller files
   * it (`heldObjectFiled`): until then the sweep of abandoned uploads deletes it with the hold, as the
   * account's deletion does. True when this call took the hold (none was there).
   */
  async holdUnder(actor: Actor, clientKey: string, bytes: number, object?: string): Promise<boolean> {
    const key = uploadKeyOf(actor, clientKey);
    if (await this.items.findUploadSession(actor.ownerId, key)) return false;
    try {
      await this.openHold(actor.ownerId, key, bytes, object);
      return true;
    } catch (error) {
      // The same block sent twice at once: one hold is enough.
      if (error instanceof AppError || !(await this.items.findUploadSession(actor.ownerId, key))) throw error;
      return false;
    }
  }

  /** The object written for the hold under `clientKey` is named by a row of the caller's now: the hold keeps only its bytes. */
  async heldObjectFiled(actor: Actor, clientKey: string): Promise<void> {
    await this.items.forgetUploadSessionObject(actor.ownerId, uploadKeyOf(actor, clientKey));
  }

  /** The actor's holds among these client keys (see `holdUnder`). */
  heldUnder(actor: Actor, clientKeys: readonly string[]): Promise<UploadSessionRow[]> {
    return this.items.findUploadSessions(
      actor.ownerId,
      clientKeys.map((key) => uploadKeyOf(actor, key)),
    );
  }

  /**
   * Marks the actor's holds under these keys as in use now, so the sweep of abandoned uploads leaves
   * them (a WebDAV transfer's early chunks while its later ones still arrive, a day on).
   */
  async touchHolds(actor: Actor, clientKeys: readonly string[]): Promise<void> {
    await this.items.touchUploadSessions(
      actor.ownerId,
      clientKeys.map((key) => uploadKeyOf(actor, key)),
      this.now().toISOString(),
    );
  }

  /**
   * Marks in use now the actor's holds under keys that begin with `prefix` and were last marked over
   * `staleMs` ago (one statement), so the sweep of abandoned uploads leaves them; answers their keys
   * as the actor names them.
   */
  async touchHoldsUnder(actor: Actor, prefix: string, staleMs: number): Promise<string[]> {
    const now = this.now();
    const own = uploadKeyOf(actor, '');
    const keys = await this.items.touchUploadSessionsKeyedUnder(
      actor.ownerId,
      own + prefix,
      new Date(now.getTime() - staleMs).toISOString(),
      now.toISOString(),
    );
    return keys.map((key) => key.slice(own.length));
  }

  /** Lets go of what the actor holds under `clientKey`. */
  async releaseHold(actor: Actor, clientKey: string): Promise<void> {
    const session = await this.items.findUploadSession(actor.ownerId, uploadKeyOf(actor, clientKey));
    if (session) await this.items.deleteUploadSession(session.id);
  }

  /**
   * Files a content that `record` makes from bytes already stored (a delta upload's blocks), as a
   * chunk upload's last chunk is filed: its type is read from `head` (the first bytes) against the
   * blacklist, its `size` is held in the quota (counting what the actor's `heldKeys` already hold,
   * making room from versions as a chunk does), and a name the folder holds is kept both or replaced,
   * the replaced bytes kept as a version. The content (which `record` must make of exactly `size`
   * bytes, else 422), the item, the holds let go and the file's background jobs commit together; the
   * folder is told once they have.
   */
  async fileContent(
    actor: Actor,
    target: {
      parentId: string | null | undefined;
      name: string;
      conflict: UploadConflict;
      size: number;
      head: Uint8Array;
      heldKeys: readonly string[];
    },
    record: (
      mimetype: string,
      trx: Kysely<DB>,
    ) => Promise<{ contentId: string; storageKey: string; size: number }>,
  ): Promise<ItemResource> {
    const parent = await this.access.folder(actor, target.parentId);
    const { mimetypes_blacklist: blacklist } = await this.settings.all();
    const type = await detectFileType(target.head, target.name);
    if (isBlacklisted(blacklist, { extensions: [type.extension], mimetype: type.mimetype }))
      throw new AppError('blacklisted_type', 'errors.blacklisted_type');
    const holds = await this.heldUnder(actor, target.heldKeys);
    const held = holds.reduce((sum, hold) => sum + Number(hold.reserved_bytes), 0);
    const reservation = await this.openHold(
      actor.ownerId,
      `reservation:${randomUUID()}`,
      Math.max(0, target.size - held),
    );
    try {
      const at = this.now().toISOString();
      const filing = await this.owners.transaction(
        actor.ownerId,
        async (trx) => {
          const content = await record(type.mimetype, trx);
          if (content.size !== target.size) throw AppError.invalid('size', 'validation.blocks_size');
          // The holds become the file's used bytes through the triggers of the rows that take them.
          await this.items.closeUploadSessions(actor.ownerId, [
            reservation.id,
            ...holds.map((hold) => hold.id),
          ]);
          const place = await this.placeFor(actor, parent?.id ?? null, target.name, target.conflict);
          let file: ItemRow;
          let staleThumbnails: string[] = [];
          if ('replaces' in place) {
            staleThumbnails = await this.versions.takeBytes(
              place.replaces,
              {
                id: content.contentId,
                storage_key: content.storageKey,
                size: content.size,
                mimetype: type.mimetype,
              },
              at,
            );
            file = (await this.items.findOne(actor.ownerId, place.replaces.id))!;
          } else {
            const stored = {
              ...place,
              parentId: parent?.id ?? null,
              mimetype: type.mimetype,
              size: content.size,
              storageKey: content.storageKey,
              now: at,
            };
            file = await this.items.insert(newFileItemOf(actor, stored, content.contentId));
          }
          await this.onFileStored.filed(file);
          return { file, staleThumbnails };
        },
        actor.userId,
      );
      await this.afterFiling(actor.ownerId, filing.file, filing.staleThumbnails);
      return await this.present(actor, filing.file);
    } finally {
      // Gone once the file is filed; after a refusal, what it held goes.
      await this.items.deleteUploadSession(reservation.id);
    }
  }

  /** A session holding `bytes` of the owner's quota, room made from versions when needed; else 423. */
  private async openHold(
    ownerId: string,
    clientKey: string,
    bytes: number,
    object?: string,
  ): Promise<UploadSessionRow> {
    const session = await this.holdWithRoom(ownerId, clientKey, bytes, object);
    if (!session) throw new AppError('storage_limit_exceeded', 'errors.storage_limit_exceeded');
    return session;
  }

  /** A session holding `bytes` of the owner's quota, room made from versions when needed; null when they do not fit. */
  private async holdWithRoom(
    ownerId: string,
    clientKey: string,
    bytes: number,
    object?: string,
  ): Promise<UploadSessionRow | null> {
    const { capacity } = await this.limits.of(ownerId);
    let session: UploadSessionRow | null = null;
    await this.withRoom(ownerId, bytes, async () => {
      session = await this.items.openReservation(
        { ...newSessionRow(ownerId, clientKey, this.now()), storage_key: object ?? null },
        bytes,
        capacity,
      );
      return session !== null;
    });
    return session;
  }

  /**
   * Removes uploads nobody continued for `idleMs` before `now` (their parts, objects and sessions),
   * and forgets which files uploads older than that became.
   */
  async sweepAbandoned(idleMs: number, now: Date): Promise<number> {
    const before = new Date(now.getTime() - idleMs).toISOString();
    const stale = await this.items.uploadSessionsIdleSince(before);
    let swept = 0;
    for (const session of stale) {
      // The row goes first, and only while still idle: an upload that went on or completed since it
      // was read (its object filed as a file) keeps what it stored.
      if (!(await this.items.deleteUploadSession(session.id, before))) continue;
      await this.removeStoredBytes(session);
      swept++;
    }
    await this.items.deleteFiledUploadsBefore(before);
    return swept;
  }

  /**
   * A chunk that does not start where the upload stands (`session`; null when none is under way)
   * stores nothing. The last chunk the upload stored, sent again, is answered as it was then: 204,
   * or the file it completed. Anything else is a conflict naming the bytes the server holds.
   */
  private async settleOutOfPlace(
    actor: Actor,
    session: UploadSessionRow | null,
    clientKey: string,
    offset: number,
    sent: ChunkDigest,
  ): Promise<ItemRow | null> {
    const storage = await this.storage.current();
    const endsAt = (size: number) => sent.bytes > 0 && offset + sent.bytes === size;
    if (session) {
      const last = { number: session.part_count, offset };
      if (
        endsAt(session.received_bytes) &&
        (await sameBytes(storage.readPart(session.id, last, sent.bytes), sent))
      )
        return null;
      throw offsetMismatch(session.received_bytes);
    }
    const filed = await this.items.findFiledUpload(actor.ownerId, clientKey);
    const file = filed
      ? await this.access.reachOne(actor, filed.item_id, 'any', 'file').catch(() => null)
      : null;
    if (
      file?.storage_key &&
      endsAt(file.size) &&
      (await sameBytes(this.contents.read(file.storage_key, { start: offset, end: file.size - 1 }), sent))
    )
      return file;
    throw offsetMismatch(0);
  }

  /**
   * A chunk whose offset came after its bytes, which were stored where the upload stands, and says
   * they belong elsewhere: they are read back and let go, and the chunk is settled as out of place.
   */
  private async settleLateOffset(
    actor: Actor,
    session: UploadSessionRow,
    part: PartPosition,
    bytes: number,
    offset: number,
    capacity: number | null,
  ): Promise<ItemRow | null> {
    const storage = await this.storage.current();
    const sent = bytes > 0 ? await digestOf(await storage.readPart(session.id, part, bytes)) : EMPTY_CHUNK;
    // A session this chunk opened is nobody's upload.
    if (session.part_count === 0) await this.discard(session);
    else await this.hold(session, session.received_bytes, capacity, {});
    return this.settleOutOfPlace(
      actor,
      session.part_count === 0 ? null : session,
      session.client_key,
      offset,
      sent,
    );
  }

  /**
   * The last chunk sent again after a completion had written the file but was cut off before filing
   * it: its bytes are already in the object, so they are only counted, and the file is filed.
   */
  private async receiveAfterCompletion(
    actor: Actor,
    session: UploadSessionRow,
    objectSize: number,
    blacklist: readonly string[],
    chunk: Readable,
    alongside: AlongsideFiling | undefined,
  ): Promise<StoredChunk> {
    const sent = await digestOf(chunk);
    return {
      commit: async (allFields) => {
        const { form, parent } = await this.readForm(actor, session, allFields, blacklist);
        if (form.offset !== undefined && form.offset !== session.received_bytes)
          return this.settleOutOfPlace(actor, session, session.client_key, form.offset, sent);
        const received = session.received_bytes + sent.bytes;
        if (!form.is_last_chunk || received !== objectSize) {
          await this.discard(session);
          throw uploadConflict();
        }
        // A store that joins parts by copying may have kept some of them when it was cut off.
        await (await this.storage.current()).abortParts(session.id, session.part_count + 1);
        return this.file(actor, session, form, parent, objectSize, received, alongside);
      },
      discard: () => this.discard(session),
    };
  }

  /** The form of a chunk being committed; a form that does not pass removes the upload. */
  private async readForm(
    actor: Actor,
    session: UploadSessionRow,
    fields: ChunkFields,
    blacklist: readonly string[],
  ): Promise<{ form: z.infer<typeof ChunkForm>; parent: ItemRow | null }> {
    try {
      const form = parseForm(ChunkForm, fields);
      this.assertAllowedName(blacklist, fields, form.name);
      return { form, parent: await this.access.folder(actor, form.parent_id) };
    } catch (error) {
      await this.discard(session);
      throw error;
    }
  }

  /** Files the object a completing session wrote: its folders, then the item and the session's end at once. */
  private async file(
    actor: Actor,
    session: UploadSessionRow,
    form: z.infer<typeof ChunkForm>,
    parent: ItemRow | null,
    storedSize: number,
    receivedSize: number,
    alongside: AlongsideFiling | undefined,
  ): Promise<ItemRow> {
    const key = session.storage_key!;
    if (storedSize !== receivedSize) {
      await this.discard(session);
      throw uploadConflict();
    }
    // Its folders, the item (or the file it replaces), the upload's end, what it counts, its
    // thumbnail job and what goes alongside commit together: a failure leaves the session as it was,
    // so the last chunk sent again files it.
    const at = this.now().toISOString();
    const bytes = { mimetype: fileMimetype(session), size: storedSize, storageKey: key, now: at };
    const filing = await this.owners.transaction(
      actor.ownerId,
      async () => {
        let folderId = parent?.id ?? null;
        for (const name of form.path) {
          // The folder's names are held until the file is filed, and an outsider's path names only the
          // folders they made: the one they gave that name, else a new one of theirs.
          await this.items.lockFolderNames(actor.ownerId, folderId);
          const existing = await this.items.findLiveFolderByName(
            actor.ownerId,
            folderId,
            name,
            actor.uploadRequestId,
          );
          folderId = (
            existing ??
            (await this.files.insertFolder(
              actor,
              folderId,
              await this.files.keepBothNames(actor, folderId, name),
            ))
          ).id;
        }
        const place = await this.placeFor(actor, folderId, form.name, form.conflict);
        let filed: ItemRow | null;
        let staleThumbnails: string[] = [];
        if ('replaces' in place && (await alongside?.keeps?.(place.replaces, storedSize)))
          return { file: place.replaces, staleThumbnails: [], kept: true };
        alongside?.expects?.('replaces' in place ? place.replaces : null);
        if ('replaces' in place) {
          const closed = await this.items.closeUpload(session.id, storedSize);
          if (!closed) return null;
          staleThumbnails = await this.versions.replaceBytes(place.replaces, newContent(actor, bytes), at);
          await this.items.recordFiled(closed, place.replaces.id, at);
          filed = (await this.items.findOne(actor.ownerId, place.replaces.id))!;
        } else {
          filed = await this.items.fileFromUpload(
            session.id,
            newFileItem(actor, { ...bytes, ...place, parentId: folderId }),
          );
        }
        if (filed) {
          await this.onFileStored.received(filed);
          await this.onFileStored.filed(filed);
          await alongside?.(filed);
        }
        return filed ? { file: filed, staleThumbnails, kept: false } : null;
      },
      actor.userId,
    );
    if (filing?.kept) {
      // The file already held these bytes: this upload's copy and session go, nothing else changed.
      await this.discard(session);
      return filing.file;
    }
    if (!filing) {
      // Another request of the same upload changed the session meanwhile. When it filed this very
      // object (the last chunk sent again while the first was being filed), the object is that file's
      // now; otherwise it is nobody's.
      if (!(await this.items.contentStoredAt(actor.ownerId, key)))
        await (await this.storage.current()).delete(key);
      throw uploadConflict();
    }
    await this.afterFiling(actor.ownerId, filing.file, filing.staleThumbnails);
    return filing.file;
  }

  /**
   * Where a new file of this name goes in a folder: onto the live file of that name the actor may
   * change, for a `replace`; otherwise under the name itself when it is free, or the first free
   * `name (n).ext` (never two items of one name in a folder). An upload request's outsider meets
   * only the names they gave what the request made there (keepBothNames).
   */
  private async placeFor(
    actor: Actor,
    folderId: string | null,
    name: string,
    conflict: UploadConflict,
  ): Promise<{ replaces: ItemRow } | ItemNames> {
    // The name looked at stays the caller's until its unit of work inserts the file and commits.
    await this.items.lockFolderNames(actor.ownerId, folderId);
    if (conflict === 'replace') {
      const existing = await this.items.findLiveChild(actor.ownerId, folderId, name, actor.uploadRequestId);
      if (existing?.type === 'file') {
        const replaceable = await this.access
          .reachToChange(actor, [{ id: existing.id, type: 'file' }], 'live')
          .then(() => true)
          .catch((error: unknown) => {
            if (error instanceof AppError) return false;
            throw error;
          });
        if (replaceable) return { replaces: existing };
      }
    }
    return this.files.keepBothNames(actor, folderId, name);
  }

  /** The name itself when the folder holds no live item of it, else the first free `name (n).ext`. */
  private async keepBothName(ownerId: string, folderId: string | null, name: string): Promise<string> {
    await this.items.lockFolderNames(ownerId, folderId);
    return this.files.keepBothName(ownerId, folderId, name);
  }

  /** Once a file is filed: its folder is told, and the thumbnails of the bytes it replaced go. */
  private async afterFiling(ownerId: string, file: ItemRow, staleThumbnails: string[]): Promise<void> {
    await this.changes.announce(ownerId, [file.id]);
    if (staleThumbnails.length > 0) await (await this.storage.current()).deleteMany(staleThumbnails);
  }

  /**
   * Holds bytes through `reserve`; when they do not fit, the owner's oldest versions that may go make
   * room for what the quota lacks for them (and the owner is told), and the hold is tried once more.
   */
  private async withRoom(ownerId: string, bytes: number, reserve: () => Promise<boolean>): Promise<boolean> {
    if (await reserve()) return true;
    const { capacity } = await this.limits.of(ownerId);
    if (capacity === null) return false;
    // What the quota holds counts the uploads under way (this one's earlier holds too), as the hold does.
    const missing = (await this.items.heldBytes(ownerId)) + bytes - capacity;
    // None missing: room was freed meanwhile, and the hold is simply tried again.
    return (missing <= 0 || (await this.versions.makeRoom(ownerId, missing)) > 0) && reserve();
  }

  private async present(actor: Actor, file: ItemRow): Promise<ItemResource> {
    return presentItem((await this.files.view(actor, file.id))!, actor);
  }

  /**
   * Makes the session hold exactly `bytes` of the quota and records `changes`. A rise past the
   * capacity refuses (and ends) the upload; a session another request changed meanwhile is a conflict.
   */
  private async hold(
    session: UploadSessionRow,
    bytes: number,
    capacity: number | null,
    changes: UploadSessionProgress,
  ): Promise<UploadSessionRow> {
    const outcome = await this.items.holdUploadBytes(session, bytes, capacity, changes);
    if (outcome === 'held') return { ...session, ...changes, reserved_bytes: bytes };
    if (outcome === 'superseded') throw uploadConflict();
    await this.discard(session);
    throw new AppError('storage_limit_exceeded', 'errors.storage_limit_exceeded');
  }

  private openSession(ownerId: string, clientKey: string): Promise<UploadSessionRow> {
    return this.items.insertUploadSession(newSessionRow(ownerId, clientKey, this.now()));
  }

  private assertAllowedName(blacklist: readonly string[], fields: ChunkFields, name: string): void {
    const extensions = [
      extensionOf(name),
      extensionOf(fields.name ?? ''),
      fields.extension?.trim().replace(/^\./, '') ?? null,
    ];
    if (isBlacklisted(blacklist, { extensions }))
      throw new AppError('blacklisted_type', 'errors.blacklisted_type');
  }

  /** Removes the upload's parts (one beyond the count: the chunk that was on its way), its object and its session. */
  private async discard(session: UploadSessionRow): Promise<void> {
    await this.removeStoredBytes(session);
    await this.items.deleteUploadSession(session.id);
  }

  /** The parts and the assembled object an unfinished upload stored, and the objects a reservation wrote unfiled. */
  private async removeStoredBytes(session: UploadSessionRow): Promise<void> {
    const storage = await this.storage.current();
    await storage.abortParts(session.id, session.part_count + 1);
    if (session.storage_key) await storage.delete(session.storage_key);
    await this.purges.run(session.id);
  }
}

/** Consecutive parts of a stream, each ending after a given number of bytes, read as they are consumed. */
class StreamParts {
  private readonly source: AsyncIterator<Buffer>;
  private pending: Buffer | null = null;
  private done = false;

  constructor(body: Readable) {
    this.source = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  /** Whether the stream has no bytes left (waits for the next bytes or the end). */
  async ended(): Promise<boolean> {
    if (!this.pending && !this.done) this.pending = await this.read();
    return this.pending === null;
  }

  /** The next part, of at most `bytes` bytes. */
  next(bytes: number): Readable {
    return Readable.from(this.part(bytes), { objectMode: false });
  }

  private async *part(bytes: number): AsyncGenerator<Buffer> {
    for (let left = bytes; left > 0;) {
      const piece = this.pending ?? (await this.read());
      this.pending = null;
      if (!piece) return;
      if (piece.length > left) {
        this.pending = piece.subarray(left);
        yield piece.subarray(0, left);
        return;
      }
      left -= piece.length;
      yield piece;
    }
  }

  private async read(): Promise<Buffer | null> {
    if (this.done) return null;
    const next = await this.source.next();
    if (next.done) this.done = true;
    return next.done ? null : next.value;
  }
}

function newSessionRow(ownerId: string, clientKey: string, at: Date): NewUploadSession {
  const now = at.toISOString();
  return {
    id: newStorageKey(),
    user_id: ownerId,
    client_key: clientKey,
    received_bytes: 0,
    part_count: 0,
    mimetype: null,
    created_at: now,
    updated_at: now,
  };
}

function fileMimetype(session: UploadSessionRow): string {
  return session.mimetype ?? 'application/octet-stream';
}

/** Two requests changed one upload at once (a client sent its chunks in parallel); the upload is void. */
function uploadConflict(): AppError {
  return new AppError('bad_request', 'errors.upload_conflict');
}

/** A chunk that does not continue the upload; the client resumes from `received` bytes. */
function offsetMismatch(received: number): AppError {
  return new AppError(
    'upload_offset_mismatch',
    'errors.upload_offset_mismatch',
    undefined,
    { received },
    {
      received_bytes: received,
    },
  );
}

const EMPTY_CHUNK: ChunkDigest = { bytes: 0, sha256: createHash('sha256').digest('hex') };

async function digestOf(stream: Readable): Promise<ChunkDigest> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const piece of stream) {
    hash.update(piece as Buffer);
    bytes += (piece as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Whether stored bytes are those a chunk carried; bytes that are gone are not. */
async function sameBytes(stored: Promise<Readable>, sent: ChunkDigest): Promise<boolean> {
  try {
    const digest = await digestOf(await stored);
    return digest.bytes === sent.bytes && digest.sha256 === sent.sha256;
  } catch (error) {
    if (error instanceof StorageNotFoundError) return false;
    throw error;
  }
}

function parseForm<Output>(schema: z.ZodType<Output>, fields: ChunkFields): Output {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? '_')] ??= []).push(issue.message);
  throw new AppError('validation_failed', 'errors.validation_failed', errors);
}
