import { z } from 'zod';
import { defineJob, type JobContext } from '../../jobs/job-definition';
import type { ActorResolver } from './files.access';
import type { BlockPacker } from './block-packer';
import type { Blockifier } from './blockify';
import { RemoteUploadBatch, type RemoteUploadService } from './remote-upload.service';
import type { StoragePurges } from './storage-purges';
import type { ThumbnailService } from './thumbnail.service';

export interface FilesJobServices {
  thumbnails: ThumbnailService;
}

/** Thumbnails of a newly stored image or video, made off the request path. */
export const thumbnailsJob = defineJob({
  id: 'files.thumbnails',
  payload: z.object({ itemId: z.string().uuid() }),
  handler:
    async () =>
    async (payload: { itemId: string }, { services }: { services: FilesJobServices }) => {
      await services.thumbnails.generate(payload.itemId);
    },
  retries: 2,
  backoff: { type: 'exponential', delayMs: 10_000 },
  concurrency: 1,
});

export interface StoragePurgeJobServices {
  storagePurges: StoragePurges;
}

const StoragePurgePayload = z.object({ purge_id: z.uuid() });

/**
 * The storage objects whose rows a unit of work deleted (items deleted for good, an account), deleted
 * after it: at once by the request when it can, by this job when its process died first or storage
 * failed. The id is older than the files module's ownership of it: queued jobs keep their name.
 */
export const storagePurgeJob = defineJob({
  id: 'admin.storage-purge',
  payload: StoragePurgePayload,
  handler:
    async () =>
    async (
      payload: z.infer<typeof StoragePurgePayload>,
      { services, signal }: JobContext<StoragePurgeJobServices>,
    ) => {
      await services.storagePurges.run(payload.purge_id, signal);
    },
  retries: 5,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 1,
});

export interface RemoteUploadJobServices {
  remoteUploads: RemoteUploadService;
  actors: ActorResolver;
}

/**
 * The addresses of a remote upload, fetched into their folder. A failed address is counted, not
 * retried; a run that fails as a whole (the database away) is run again and keeps what it stored.
 */
export const remoteUploadJob = defineJob({
  id: 'files.remote-upload',
  payload: RemoteUploadBatch,
  handler:
    async () =>
    async (batch: RemoteUploadBatch, { services, signal }: JobContext<RemoteUploadJobServices>) => {
      await services.remoteUploads.run(batch, signal, services.actors);
    },
  retries: 2,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 2,
});

export interface BlockifyJobServices {
  blockifier: Blockifier;
}

/**
 * A content stored as one object becomes blocks (or a content filed from blocks gets its whole-file
 * hash); enqueued in the unit of work that files it, and by the sweep for those left behind. Named by
 * its storage key, which is the content's for good.
 */
export const blockifyJob = defineJob({
  id: 'files.blockify',
  payload: z.object({ storageKey: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{7,199}$/) }),
  handler:
    async () =>
    async (payload: { storageKey: string }, { services, signal }: JobContext<BlockifyJobServices>) => {
      await services.blockifier.blockify(payload.storageKey, signal);
    },
  retries: 5,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 1,
});

export interface BlockRepackJobServices {
  blockPacker: BlockPacker;
}

const BlockRepackPayload = z.object({
  userId: z.string().max(64),
  contentIds: z.array(z.string().max(64)).min(1).max(16),
});

/**
 * The block packer's work for a few contents of one owner, at once instead of at the packer's next
 * periodic run: enqueued by a restore, in its unit of work, so the restored content's compressed
 * blocks are stored as they are again (a current file reads plain block objects), and the content it
 * displaced, now a version's, is compressed.
 */
export const blockRepackJob = defineJob({
  id: 'files.block-repack',
  payload: BlockRepackPayload,
  handler:
    async () =>
    async (
      payload: z.infer<typeof BlockRepackPayload>,
      { services, signal }: JobContext<BlockRepackJobServices>,
    ) => {
      await services.blockPacker.pack(signal, payload);
    },
  retries: 3,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 1,
});
