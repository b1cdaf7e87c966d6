import type { AppDeps } from '../services';
import { jobDefinitions } from './job-registry';
import type { JobWorker } from './job-queue';
import { periodicTasks } from './periodic-tasks';

/**
 * The worker role of SERVICES: consumes the app's jobs from the configured queue and runs the
 * periodic tasks on the scheduler (each once per period across all workers). Closing the app closes
 * the queue, which stops this worker and hands its running jobs back, and stops the scheduler.
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
  deps.scheduler.start(periodicTasks(deps));
  return worker;
}
