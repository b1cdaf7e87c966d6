import type { JobQueue } from '../../jobs/job-queue';
import type { PeriodicTask } from '../../jobs/scheduler';
import type { BillingEventsService } from './billing-events.service';
import { meteredDailyJob } from './metered.jobs';
import type { SubscriptionsService } from './subscriptions.service';

export interface BillingTaskServices {
  jobs: JobQueue;
  billingEvents: BillingEventsService;
  subscriptionsService: SubscriptionsService;
}

/**
 * Billing's periodic work: metered billing's run, enqueued every hour (idempotent, it does only
 * what is due); the sweep that enqueues provider events stored but never applied; and the end of
 * cancelled subscriptions whose paid period is over.
 */
export function billingTasks(services: BillingTaskServices): PeriodicTask[] {
  return [
    {
      name: 'billing.metered-daily',
      everyMs: 60 * 60_000,
      run: () => services.jobs.enqueue(meteredDailyJob, {}),
    },
    { name: 'billing.events-sweep', everyMs: 5 * 60_000, run: () => services.billingEvents.sweep() },
    {
      name: 'billing.lapsed-subscriptions',
      everyMs: 5 * 60_000,
      run: (at) => services.subscriptionsService.completeEnded(at),
    },
  ];
}
