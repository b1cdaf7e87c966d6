import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { z } from 'zod';
import type { JobStatus } from '@atelier/contracts';
import type { AnyJobDefinition, JobDefinition } from './job-definition';

export interface EnqueueOptions {
  /** Run no sooner than this many milliseconds from now. */
  delayMs?: number;
}

/** A job as either driver reports it. */
export interface JobSnapshot {
  id: string;
  name: string;
  status: JobStatus;
  /** Times a worker started it. */
  attempts: number;
  /** The last failure's message, if any. */
  error: string | null;
  /** The worker that took it last (`host:pid:instance`), null until one did. */
  worker: string | null;
  payload: unknown;
}

export interface WorkerOptions<Services> {
  definitions: ReadonlyArray<AnyJobDefinition<Services>>;
  services: Services;
  /**
   * How long a running job may go without its worker's heartbeat before another worker takes it up
   * again. Heartbeats are sent three times per lease.
   */
  leaseMs?: number;
  /** Called with every failure of a handler, for logs. */
  onError?: (error: unknown, job: { id: string; name: string; attempt: number }) => void;
}

export interface JobWorker {
  /** Stops taking jobs, aborts the running ones and hands them back to the queue at once. */
  close(): Promise<void>;
}

/**
 * The queue both drivers implement: the database (default, embedded) and BullMQ (with REDIS_URL).
 * Any process may enqueue; only processes with the worker role call `startWorker`.
 */
export interface JobQueue {
  readonly driver: 'database' | 'bullmq';
  /** Validates the payload (a zod error for bad input, nothing stored) and stores the job; returns its id. */
  enqueue<Schema extends z.ZodType>(
    definition: JobDefinition<Schema, never>,
    payload: z.input<Schema>,
    options?: EnqueueOptions,
  ): Promise<string>;
  /** The job, when it exists and is of this definition. */
  get(definition: AnyJobDefinition<never>, jobId: string): Promise<JobSnapshot | null>;
  startWorker<Services>(options: WorkerOptions<Services>): JobWorker;
  /** Jobs of these kinds waiting to run (delayed retries included) and failed ones still kept. */
  counts(names: readonly string[]): Promise<{ waiting: number; failed: number }>;
  /** Closes the queue and every worker it started. */
  close(): Promise<void>;
}

export const DEFAULT_LEASE_MS = 30_000;
/** A job whose worker vanished more often than this is failed, so one poison job cannot crash workers forever. */
export const MAX_STALLS = 2;

/** A unique name per worker instance that still tells the operator which machine and process it is. */
export function newWorkerName(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}
