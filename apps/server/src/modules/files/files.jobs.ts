import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition';
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
