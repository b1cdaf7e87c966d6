import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition';
import type { SharingService } from './sharing.service';

export interface SharingJobServices {
  sharing: SharingService;
}

/**
 * Removes links that expired long ago and spent password sessions. Housekeeping only: an expired
 * link is refused on every call from the moment it expires, whether this ever runs or not.
 */
export const shareHousekeepingJob = defineJob({
  id: 'sharing.housekeeping',
  payload: z.object({}),
  handler:
    async () =>
    async (_payload: Record<string, never>, { services }: { services: SharingJobServices }) => {
      await services.sharing.removeLongExpired();
    },
  retries: 2,
  backoff: { type: 'exponential', delayMs: 60_000 },
  concurrency: 1,
});
