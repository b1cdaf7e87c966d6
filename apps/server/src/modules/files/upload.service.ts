import { Flag, ItemName, type ItemResource } from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import type { SettingsService } from '../settings/settings.service';
import { newStorageKey } from '../../storage/storage';
import type { StorageProvider } from '../../storage/storage-provider';
import { ChunkGuard } from './chunk-guard';
import { detectFileType, extensionOf, isBlacklisted } from './file-type.detector';
import { ItemAccess, type Actor } from './files.access';
import { presentItem } from './files.presenter';
import type { FilesRepository } from './files.repository';
import { sortNameOf, type AccountLimits, type FilesService } from './files.service';
import type { ItemRow, UploadSessionRow } from './files.tables';

/** The text fields of a chunk form (POST /api/upload/chunks), as strings the client sent. */
export type ChunkFields = Partial<
  Record<'name' | 'extension' | 'is_last_chunk' | 'path' | 'parent_id', string>
>;

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
});

/** The client's key for one upload: the chunk's multipart filename; compared, never used as a path. */
const ClientKey = z.string().min(1).max(512);

/** A chunk whose bytes are stored; `commit` files it once every field of the form is known. */
export interface ReceivedChunk {
  /** The stored file's resource for the last chunk, null for a middle one. */
  commit(fields: ChunkFields): Promise<ItemResource | null>;
  /** Removes the whole upload, for a caller that refuses the form once all its fields are known. */
  discard(): Promise<void>;
}

/** Called with every completed file (thumbnails are made in the background). */
export type FileStoredListener = (file: ItemRow) => Promise<void>;

/**
 * Chunked uploads. Every chunk is checked before and while its bytes go to storage: restrictions,
 * the type blacklist (by name and by the bytes), the upload limit and the quota. A refusal removes
 * the whole upload, so nothing of it is left behind.
 */
export class UploadService {
  private readonly access: ItemAccess;

  constructor(
    private readonly items: FilesRepository,
    private readonly files: FilesService,
    private readonly storage: StorageProvider,
    private readonly limits: AccountLimits,
    private readonly settings: SettingsService,
    private readonly onFileStored: FileStoredListener,
  ) {
    this.access = new ItemAccess(items);
  }

  /** Streams one chunk into storage. `fields` are those the form sent before the chunk. */
  async receive(
    actor: Actor,
    clientKeyText: string,
    fields: ChunkFields,
    chunk: Readable,
  ): Promise<ReceivedChunk> {
    this.access.assertCanWrite(actor);
    const clientKey = ClientKey.safeParse(clientKeyText);
    if (!clientKey.success) throw AppError.invalid('chunk', 'validation.required');

    const [{ restrictions, capacity, used }, settings, existing] = await Promise.all([
      this.limits.of(actor.ownerId),
      this.settings.all(),
      this.items.findUploadSession(actor.ownerId, clientKey.data),
    ]);
    try {
      if (!restrictions.canUpload)
        throw new AppError('upload_disabled', restrictions.reason ?? 'errors.upload_disabled');
      // The key repeats the file name (`<random>-<name>.part`), so the name can be checked before any byte.
      this.assertAllowedName(settings.mimetypes_blacklist, fields, clientKey.data.replace(/\.part$/, ''));
    } catch (refusal) {
      if (existing) await this.discard(existing, existing.part_count);
      throw refusal;
    }

    const session = existing ?? (await this.openSession(actor.ownerId, clientKey.data));
    const otherUploads = await this.items.pendingUploadBytes(actor.ownerId, session.id);
    let detected: string | null = session.mimetype;
    const guard = new ChunkGuard(
      {
        chunkBytes: settings.chunk_size,
        uploadBytes: settings.upload_limit > 0 ? settings.upload_limit - session.received_bytes : Infinity,
        quotaBytes: capacity === null ? Infinity : capacity - used - otherUploads - session.received_bytes,
      },
      session.part_count === 0
        ? async (head) => {
            const type = await detectFileType(head, fields.name ?? clientKey.data);
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

    const storage = await this.storage.current();
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
      if (error instanceof AppError || session.part_count === 0)
        await this.discard(session, session.part_count);
      throw error;
    }

    return {
      commit: async (allFields) => {
        let form: z.infer<typeof ChunkForm>;
        let parent: ItemRow | null;
        try {
          form = parseForm(allFields);
          this.assertAllowedName(settings.mimetypes_blacklist, allFields, form.name);
          parent = await this.access.folder(actor, form.parent_id);
          if (form.is_last_chunk && session.received_bytes + guard.bytes === 0) {
            throw AppError.invalid('chunk', 'validation.empty_file');
          }
        } catch (error) {
          await this.discard(session, part.number);
          throw error;
        }
        const received = session.received_bytes + guard.bytes;
        await this.items.updateUploadSession(session.id, {
          received_bytes: received,
          part_count: part.number,
          mimetype: detected,
        });
        if (!form.is_last_chunk) return null;
        const file = await this.complete(
          actor,
          { ...session, part_count: part.number, mimetype: detected },
          form,
          parent,
        );
        return presentItem((await this.files.view(actor, file.id))!);
      },
      discard: () => this.discard(session, part.number),
    };
  }

  /** Removes uploads nobody continued for `idleMs`: their parts and their sessions. */
  async sweepAbandoned(idleMs: number): Promise<number> {
    const stale = await this.items.uploadSessionsIdleSince(new Date(Date.now() - idleMs).toISOString());
    // One part beyond the count may exist when a chunk was cut off mid-request.
    for (const session of stale) await this.discard(session, session.part_count + 1);
    return stale.length;
  }

  private async complete(
    actor: Actor,
    session: UploadSessionRow,
    form: z.infer<typeof ChunkForm>,
    parent: ItemRow | null,
  ): Promise<ItemRow> {
    let folderId = parent?.id ?? null;
    for (const name of form.path) {
      const existing = await this.items.findLiveFolderByName(actor.ownerId, folderId, name);
      folderId = (existing ?? (await this.files.insertFolder(actor.ownerId, folderId, name))).id;
    }
    const mimetype = session.mimetype ?? 'application/octet-stream';
    const storage = await this.storage.current();
    const stored = await storage.completeParts(session.id, session.part_count, newStorageKey(), {
      contentType: mimetype,
    });
    const now = new Date().toISOString();
    const file = await this.items.insert({
      id: randomUUID(),
      user_id: actor.ownerId,
      parent_id: folderId,
      type: 'file',
      name: form.name,
      sort_name: sortNameOf(form.name),
      emoji: null,
      color: null,
      mimetype,
      size: stored.size,
      storage_key: stored.key,
      deleted_at: null,
      trashed_by: null,
      created_at: now,
      updated_at: now,
    });
    await this.items.deleteUploadSession(session.id);
    await this.onFileStored(file);
    return file;
  }

  private async openSession(ownerId: string, clientKey: string): Promise<UploadSessionRow> {
    const now = new Date().toISOString();
    return this.items.insertUploadSession({
      id: newStorageKey(),
      user_id: ownerId,
      client_key: clientKey,
      received_bytes: 0,
      part_count: 0,
      mimetype: null,
      created_at: now,
      updated_at: now,
    });
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

  private async discard(session: UploadSessionRow, partCount: number): Promise<void> {
    await (await this.storage.current()).abortParts(session.id, partCount);
    await this.items.deleteUploadSession(session.id);
  }
}

function parseForm(fields: ChunkFields): z.infer<typeof ChunkForm> {
  const parsed = ChunkForm.safeParse(fields);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? '_')] ??= []).push(issue.message);
  throw new AppError('validation_failed', 'errors.validation_failed', errors);
}
