import {
  REMOTE_UPLOAD_MAX_URLS,
  type ItemResource,
  type RealtimePayload,
  type RemoteUploadBody,
  UploadConflict,
} from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import type { Broadcaster } from '../../realtime/realtime.server';
import type { I18nService } from '../i18n/i18n.service';
import type { NotificationsService } from '../notifications/notifications.service';
import type { SettingsService } from '../settings/settings.service';
import { ItemAccess, refusalReasonFor, type Actor, type ActorResolver } from './files.access';
import type { FilesRepository } from './files.repository';
import type { AccountLimits } from './files.service';
import type { RemoteFetcher } from './remote-fetch';
import type { UploadService } from './upload.service';

/** What the job carries: the upload's id, who asked and as whom they act, the folder, the addresses. */
export const RemoteUploadBatch = z.object({
  id: z.uuid(),
  actor: z.object({
    ownerId: z.string(),
    userId: z.string(),
    rootId: z.string().nullable(),
    canWrite: z.boolean(),
    shareToken: z.string().nullable(),
    uploadRequestId: z.string().nullable(),
  }),
  parent_id: z.string().nullable(),
  urls: z.array(z.string()).min(1).max(REMOTE_UPLOAD_MAX_URLS),
  /** Batches queued before the conflict choice keep both, the default. */
  conflict: UploadConflict.default('keep-both'),
});
export type RemoteUploadBatch = z.infer<typeof RemoteUploadBatch>;

export interface RemoteUploadDeps {
  items: FilesRepository;
  uploads: UploadService;
  limits: AccountLimits;
  settings: SettingsService;
  fetcher: RemoteFetcher;
  realtime: Broadcaster;
  notifications: NotificationsService;
  i18n: I18nService;
  logger: Pick<Logger, 'info'>;
  /** Queues the batch for a worker. */
  enqueue(batch: RemoteUploadBatch): Promise<void>;
}

/** Addresses of one upload fetched at the same time. */
const PARALLEL_FETCHES = 2;
/** The name of a file whose response and address name none. */
const FALLBACK_NAME = 'download';

type Progress = RealtimePayload<'RemoteFile.Created'>['progress'];

/**
 * Remote upload: files behind addresses the user pastes, fetched by a worker into a folder. Each
 * response goes through the chunked upload path piece by piece, so every rule of an upload applies
 * unchanged (restrictions, type detection and blacklist, upload limit, quota held as bytes arrive);
 * the fetching itself is RemoteFetcher's, which reaches public addresses only.
 */
export class RemoteUploadService {
  private readonly access: ItemAccess;

  constructor(private readonly deps: RemoteUploadDeps) {
    this.access = new ItemAccess(deps.items);
  }

  /** Checks the actor may write into the folder, then queues the fetching. */
  async start(actor: Actor, body: RemoteUploadBody): Promise<{ id: string; total: number }> {
    this.access.assertCanWrite(actor);
    const parent = await this.access.folder(actor, body.parent_id);
    const { restrictions } = await this.deps.limits.of(actor.ownerId);
    if (!restrictions.canUpload)
      throw new AppError(
        'upload_disabled',
        refusalReasonFor(actor, restrictions.reason) ?? 'errors.upload_disabled',
      );
    // Signed-in callers only: the events and the notification go to the person who asked.
    if (actor.userId === null) throw new AppError('forbidden', 'errors.forbidden');
    const batch: RemoteUploadBatch = {
      id: randomUUID(),
      actor: { ...actor, userId: actor.userId },
      parent_id: parent?.id ?? null,
      urls: body.urls,
      conflict: body.conflict,
    };
    await this.deps.enqueue(batch);
    return { id: batch.id, total: batch.urls.length };
  }

  /**
   * Fetches every address, telling the user as each one is stored or fails, and notifies them at the
   * end. Run again after an interruption, it keeps the files already stored and fetches the rest.
   */
  async run(batch: RemoteUploadBatch, signal: AbortSignal, actors: ActorResolver): Promise<void> {
    const progress: Progress = { total: batch.urls.length, processed: 0, failed: 0 };
    let next = 0;
    const fetchInTurn = async () => {
      for (let index = next++; index < batch.urls.length && !signal.aborted; index = next++) {
        const file = await this.fetchOne(batch, index, signal, actors);
        // A worker shutting down hands the job back; the next run reports these addresses.
        if (signal.aborted) return;
        progress.processed += 1;
        if (!file) progress.failed += 1;
        await this.deps.realtime.emitToUser(batch.actor.userId, 'RemoteFile.Created', {
          upload_id: batch.id,
          file,
          progress: { ...progress },
        });
      }
    };
    // Both turns end before a failure is raised, so a retry never runs beside a turn still fetching.
    const turns = await Promise.allSettled(Array.from({ length: PARALLEL_FETCHES }, fetchInTurn));
    for (const turn of turns) if (turn.status === 'rejected') throw turn.reason;
    signal.throwIfAborted();
    await this.notifyDone(batch, progress);
  }

  /** The stored file of one address, or null when it failed (why is logged). */
  private async fetchOne(
    batch: RemoteUploadBatch,
    index: number,
    signal: AbortSignal,
    actors: ActorResolver,
  ): Promise<ItemResource | null> {
    const actor = await this.actorNow(batch, actors);
    if (!actor) {
      this.deps.logger.info(
        { upload: batch.id, index },
        'remote upload: the asker may no longer write there',
      );
      return null;
    }
    // One upload key per address and batch, so a run after an interruption recognises its own files
    // and clears what a killed run left of the address it was fetching.
    const key = `remote-${batch.id}-${index}`;
    const earlier = await this.deps.uploads.filedAs(actor, key);
    if (earlier) return earlier;
    await this.deps.uploads.abandon(actor, key);
    try {
      return await this.store(batch, actor, actors, index, key, signal);
    } catch (error) {
      // The chunk path ends a refused upload itself; an address that broke off leaves parts to remove.
      await this.deps.uploads.abandon(actor, key);
      if (!signal.aborted)
        this.deps.logger.info({ err: error, upload: batch.id, index }, 'remote upload: an address failed');
      return null;
    }
  }

  /**
   * Who the asker acts as for this address, decided again now: fetching can take hours, and a member
   * removed from the team folder, or no longer allowed to edit it, stores nothing more there.
   */
  private async actorNow(batch: RemoteUploadBatch, actors: ActorResolver): Promise<Actor | null> {
    const asked = batch.actor;
    const actor = await actors.of(asked.userId, [batch.parent_id]);
    return actor.ownerId === asked.ownerId && actor.rootId === asked.rootId && actor.canWrite ? actor : null;
  }

  private async store(
    batch: RemoteUploadBatch,
    actor: Actor,
    actors: ActorResolver,
    index: number,
    key: string,
    signal: AbortSignal,
  ): Promise<ItemResource> {
    const settings = await this.deps.settings.all();
    const response = await this.deps.fetcher.open(batch.urls[index]!, signal);
    try {
      // A declared size past the limit is refused before any byte; a longer body than declared is
      // still stopped by the chunk path as it arrives.
      if (settings.upload_limit > 0 && (response.length ?? 0) > settings.upload_limit)
        throw new AppError('payload_too_large', 'errors.upload_limit');
      const reader = new PieceReader(response.body);
      const name = response.fileName ?? FALLBACK_NAME;
      for (;;) {
        const fields = {
          name,
          parent_id: batch.parent_id ?? undefined,
          offset: String(reader.consumed),
          conflict: batch.conflict,
        };
        const piece = Readable.from(reader.piece(settings.chunk_size), { objectMode: false });
        const received = await this.deps.uploads.receive(actor, key, fields, piece);
        const last = await reader.atEnd();
        // Asked again before each piece is kept: the fetching may have taken hours.
        if (!(await this.actorNow(batch, actors))) throw new AppError('not_found', 'errors.not_found');
        const file = await received.commit({ ...fields, is_last_chunk: last ? '1' : '0' });
        if (file) return file;
      }
    } finally {
      response.body.destroy();
    }
  }

  private async notifyDone(batch: RemoteUploadBatch, progress: Progress): Promise<void> {
    const { actor } = batch;
    const t = (key: string) =>
      this.deps.i18n.translate(key, {
        count: progress.total,
        total: progress.total,
        stored: progress.total - progress.failed,
        failed: progress.failed,
      });
    await this.deps.notifications.notify(actor.userId, {
      category: 'remote-upload-done',
      title: await t('notifications.remote_upload.title'),
      description: await t(
        progress.failed > 0
          ? 'notifications.remote_upload.description_failed'
          : 'notifications.remote_upload.description',
      ),
      action: {
        type: 'route',
        params: {
          // A member reaches someone else's team folder from Shared with me, not from their own files.
          route: actor.userId === actor.ownerId ? 'Files' : 'SharedWithMe',
          id: batch.parent_id ?? actor.rootId ?? undefined,
          button: await t('notifications.remote_upload.button'),
        },
      },
    });
  }
}

/**
 * Reads a body in consecutive pieces of at most a chunk's size, and tells whether bytes remain once
 * a piece is read, so the last chunk is known without an empty one after it.
 */
class PieceReader {
  /** Bytes handed out in pieces so far: where the next piece starts. */
  consumed = 0;
  private pending: Buffer | null = null;
  private ended = false;
  private readonly source: AsyncIterator<Buffer>;

  constructor(body: AsyncIterable<Buffer>) {
    this.source = body[Symbol.asyncIterator]();
  }

  async *piece(size: number): AsyncGenerator<Buffer> {
    for (let left = size; left > 0;) {
      const head = await this.peek();
      if (!head) return;
      const bytes = head.subarray(0, left);
      this.pending = head.length > left ? head.subarray(left) : null;
      left -= bytes.length;
      this.consumed += bytes.length;
      yield bytes;
    }
  }

  async atEnd(): Promise<boolean> {
    return (await this.peek()) === null;
  }

  private async peek(): Promise<Buffer | null> {
    while (!this.pending && !this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else if (next.value.length > 0) this.pending = next.value;
    }
    return this.pending;
  }
}
