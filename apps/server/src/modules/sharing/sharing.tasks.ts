import type { JobQueue } from '../../jobs/job-queue';
import type { PeriodicTask } from '../../jobs/scheduler';
import { shareHousekeepingJob } from './sharing.jobs';

/** Sharing's periodic work: housekeeping of links that expired long ago, enqueued every six hours. */
export function sharingTasks(services: { jobs: JobQueue }): PeriodicTask[] {
  return [
    {
      name: 'sharing.housekeeping',
      everyMs: 6 * 60 * 60_000,
      run: () => services.jobs.enqueue(shareHousekeepingJob, {}),
    },
  ];
}
