import type { Logger } from 'pino';
import { z } from 'zod';
import { defineJob, type JobContext } from '../../jobs/job-definition';
import type { JobQueue } from '../../jobs/job-queue';
import type { Schedule } from '../../jobs/schedule';
import type { MeteredService } from './metered.service';

export interface MeteredJobServices {
  metered: MeteredService;
}

const DailyPayload = z.object({});

/**
 * Metered billing's daily work (record today's use, settle ended periods, send due reminders).
 * Idempotent: the scheduler enqueues it every hour, and each run only does what is due.
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

/** How often the worker enqueues the daily run. */
export const METERED_SCHEDULE_MS = 60 * 60_000;

/** Enqueues the daily run now and every hour while the worker runs; answers once the first is enqueued. */
export function scheduleMeteredDaily(
  schedule: Schedule,
  jobs: JobQueue,
  logger: Logger,
  everyMs = METERED_SCHEDULE_MS,
): Promise<void> {
  return schedule.repeat(
    everyMs,
    () => jobs.enqueue(meteredDailyJob, {}),
    (error) => logger.warn({ err: error }, 'the metered billing run could not be enqueued'),
  );
}
