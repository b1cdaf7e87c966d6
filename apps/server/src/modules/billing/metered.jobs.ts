import { z } from 'zod';
import { defineJob, type JobContext } from '../../jobs/job-definition';
import type { MeteredService } from './metered.service';

export interface MeteredJobServices {
  metered: MeteredService;
}

const DailyPayload = z.object({});

/**
 * Metered billing's daily work (record today's use, settle ended periods, send due reminders).
 * Idempotent: the scheduler enqueues it every hour (see billing.tasks.ts), and each run only does what is due.
 */
export const meteredDailyJob = defineJob({
  id: 'billing.metered-daily',
  payload: DailyPayload,
  handler:
    async () =>
    async (_payload: z.infer<typeof DailyPayload>, { services }: JobContext<MeteredJobServices>) => {
      await services.metered.runDaily();
    },
  retries: 2,
  backoff: { type: 'exponential', delayMs: 60_000 },
  concurrency: 1,
});
