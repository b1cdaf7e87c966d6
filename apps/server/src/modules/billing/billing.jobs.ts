import { z } from 'zod';
import { defineJob, type JobContext } from '../../jobs/job-definition';

/**
 * What these jobs call of the billing services, declared here rather than imported: those services
 * enqueue these jobs, so importing their types would close an import cycle.
 */
export interface BillingJobServices {
  billingEvents: { apply(eventId: string): Promise<void> };
  planRegistration: { register(planId: string): Promise<void> };
  subscriptionsService: { stopReplaced(subscriptionId: string): Promise<void> };
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

const RegisterPlanPayload = z.object({ plan_id: z.string().max(64) });

/**
 * Registers a fixed plan with every configured provider that does not have it yet. A provider that
 * fails makes the job fail and run again with backoff; those that succeeded are not asked again.
 */
export const registerPlanJob = defineJob({
  id: 'billing.register-plan',
  payload: RegisterPlanPayload,
  handler:
    async () =>
    async (payload: z.infer<typeof RegisterPlanPayload>, { services }: JobContext<BillingJobServices>) => {
      await services.planRegistration.register(payload.plan_id);
    },
  retries: 10,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 1,
});

const StopReplacedPayload = z.object({ subscription_id: z.string().max(64) });

/**
 * Stops the renewals at its provider of a subscription a newer one replaced (a second checkout paid
 * before the first was applied): the provider would go on charging for both. Retried while the
 * provider cannot be reached.
 */
export const stopReplacedSubscriptionJob = defineJob({
  id: 'billing.stop-replaced-subscription',
  payload: StopReplacedPayload,
  handler:
    async () =>
    async (payload: z.infer<typeof StopReplacedPayload>, { services }: JobContext<BillingJobServices>) => {
      await services.subscriptionsService.stopReplaced(payload.subscription_id);
    },
  retries: 10,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 1,
});
