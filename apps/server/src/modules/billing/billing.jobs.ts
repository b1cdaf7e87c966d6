import { z } from 'zod';
import { defineJob, type JobContext } from '../../jobs/job-definition';
import type { BillingEventsService } from './billing-events.service';

export interface BillingJobServices {
  billingEvents: BillingEventsService;
}

const ApplyEventPayload = z.object({ event_id: z.string().max(64) });

/**
 * Applies one stored provider event. An event that names a subscription not stored yet (events
 * out of order) fails and is retried, by which time the earlier event has been applied.
 */
export const applyBillingEventJob = defineJob({
  id: 'billing.apply-event',
  payload: ApplyEventPayload,
  handler:
    async () =>
    async (payload: z.infer<typeof ApplyEventPayload>, { services }: JobContext<BillingJobServices>) => {
      await services.billingEvents.apply(payload.event_id);
    },
  retries: 8,
  backoff: { type: 'exponential', delayMs: 5_000 },
  concurrency: 2,
});
