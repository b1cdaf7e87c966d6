import { scheduleBillingSweep } from '../modules/billing/billing.jobs';
import { scheduleMeteredDaily } from '../modules/billing/metered.jobs';
import type { AppDeps } from '../services';
import { jobDefinitions } from './job-registry';
import type { JobWorker } from './job-queue';

/**
 * The worker role of SERVICES: consumes the app's jobs from the configured queue. Closing the app
 * closes the queue, which stops this worker and hands its running jobs back.
 */
export function startWorkerRole(deps: AppDeps): JobWorker {
  const { env, logger, jobs } = deps;
  if (!env.SERVICES.includes('api') && !env.REDIS_URL) {
    logger.warn(
      'SERVICES=worker without REDIS_URL: realtime events of jobs cannot reach browsers connected to other processes.',
    );
  }
  logger.info({ driver: jobs.driver, jobs: jobDefinitions.map((d) => d.id) }, 'worker started');
  const worker = jobs.startWorker({
    definitions: jobDefinitions,
    services: deps,
    onError: (error, job) => logger.error({ err: error, job }, 'job failed'),
  });
  // Metered billing's daily run, enqueued at start and every hour; and the sweep that enqueues
  // provider events stored but never applied. Closing the services stops the schedule's timers.
  void scheduleMeteredDaily(deps.schedule, jobs, logger);
  void scheduleBillingSweep(deps.schedule, deps.billingEvents, logger);
  return worker;
}
