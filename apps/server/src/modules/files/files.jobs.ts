import { z } from 'zod';
import { defineJob, type JobContext } from '../../jobs/job-definition';
import { RemoteUploadBatch, type RemoteUploadService } from './remote-upload.service';
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

export interface RemoteUploadJobServices {
  remoteUploads: RemoteUploadService;
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
      await services.remoteUploads.run(batch, signal);
    },
  retries: 2,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 2,
});
