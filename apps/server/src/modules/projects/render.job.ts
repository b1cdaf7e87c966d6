import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition';

/**
 * What the job calls of the render runner, declared here rather than imported: the runner's module
 * imports the projects service, which enqueues this job, and a type import would close that circle.
 */
export interface RenderJobServices {
  projectRenders: {
    run(
      renderId: string,
      context: { attempt: number; failures: number; signal: AbortSignal; retries: number },
    ): Promise<void>;
  };
}

/** Attempts after a failed one; the runner reports a render as failed only after the last. */
const RENDER_RETRIES = 1;

/**
 * One input file rendered in one category. Renders run one at a time per worker process so that
 * browsing stays fast while the CPU is busy; the engine itself uses every core.
 */
export const renderJob = defineJob({
  id: 'projects.render',
  payload: z.object({ renderId: z.string().uuid() }),
  handler:
    async () =>
    async (
      payload: { renderId: string },
      context: { attempt: number; failures: number; signal: AbortSignal; services: RenderJobServices },
    ) => {
      await context.services.projectRenders.run(payload.renderId, {
        attempt: context.attempt,
        failures: context.failures,
        signal: context.signal,
        retries: RENDER_RETRIES,
      });
    },
  retries: RENDER_RETRIES,
  backoff: { type: 'fixed', delayMs: 5_000 },
  concurrency: 1,
});
