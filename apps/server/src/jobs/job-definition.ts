import type { z } from 'zod';

/** How long to wait before the next attempt after a failure. */
export interface Backoff {
  type: 'fixed' | 'exponential';
  /** The first wait; exponential doubles it after every further failure. */
  delayMs: number;
}

export interface JobContext<Services> {
  jobId: string;
  /** 1 on the first run, counting every start (a run lost with its worker counts too). */
  attempt: number;
  /**
   * Runs of the job that failed before this one: the retries spent. A run lost with its worker (a
   * stall) is not one; the queue fails a job whose worker vanished more than MAX_STALLS times.
   */
  failures: number;
  /** Aborted when the worker shuts down or loses the job to another worker; long handlers should stop. */
  signal: AbortSignal;
  services: Services;
}

export type JobHandler<Payload, Services> = (
  payload: Payload,
  context: JobContext<Services>,
) => Promise<void>;

/**
 * One kind of background work. `handler` answers the function a worker calls, asked when a worker
 * first runs a job of the kind. Every definition of the app answers a function written in place; the
 * heavy code a job reaches is imported by the service it calls, on first use (the thumbnail generator
 * by the thumbnail service, the render engine by the render catalogue), not by the definition.
 */
export interface JobDefinition<Schema extends z.ZodType = z.ZodType, Services = unknown> {
  /** Stable name stored with every job; never rename one that may still be queued. */
  id: string;
  payload: Schema;
  handler: () => Promise<JobHandler<z.output<Schema>, Services>>;
  /** Attempts after the first failed one; 0 means a failure is final. */
  retries: number;
  backoff: Backoff;
  /** Jobs of this kind one worker process runs at the same time (renders: 1, so the API stays fast). */
  concurrency: number;
}

/** A definition of any payload, as lists of definitions hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler checks its own payload type
export type AnyJobDefinition<Services> = JobDefinition<z.ZodType<any>, Services>;

export function defineJob<Schema extends z.ZodType, Services>(
  definition: JobDefinition<Schema, Services>,
): JobDefinition<Schema, Services> {
  if (!Number.isInteger(definition.retries) || definition.retries < 0)
    throw new Error(`${definition.id}: retries must be a whole number ≥ 0`);
  if (!Number.isInteger(definition.concurrency) || definition.concurrency < 1)
    throw new Error(`${definition.id}: concurrency must be ≥ 1`);
  return definition;
}

/** The wait before attempt `failures + 1`, after `failures` failed runs (≥ 1). */
export function backoffDelay(backoff: Backoff, failures: number): number {
  return backoff.type === 'fixed' ? backoff.delayMs : backoff.delayMs * 2 ** Math.max(0, failures - 1);
}

/** Thrown by a handler when retrying cannot help (the input itself is wrong); the job fails at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}
