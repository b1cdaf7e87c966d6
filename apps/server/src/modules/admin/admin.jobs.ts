import { z } from 'zod';
import { defineJob, type JobContext } from '../../jobs/job-definition';
import type { StoragePurgeService } from './storage-purge.service';

export interface AdminJobServices {
  storagePurges: StoragePurgeService;
}

const StoragePurgePayload = z.object({ purge_id: z.uuid() });

/** The storage objects of a deleted account, deleted after the request that removed its rows. */
export const storagePurgeJob = defineJob({
  id: 'admin.storage-purge',
  payload: StoragePurgePayload,
  handler:
    async () =>
    async (
      payload: z.infer<typeof StoragePurgePayload>,
      { services, signal }: JobContext<AdminJobServices>,
    ) => {
      await services.storagePurges.run(payload.purge_id, signal);
    },
  retries: 5,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 1,
});
