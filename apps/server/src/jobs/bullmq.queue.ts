import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Job, Queue, UnrecoverableError, WaitingError, Worker, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { ZodError, type z } from 'zod';
import type { JobStatus } from '@atelier/contracts';
import type { Database } from '../db/database';
import { JobOutbox, type OutboxRow } from './job-outbox';
import { PermanentJobError, type AnyJobDefinition, type JobDefinition } from './job-definition';
import {
  DEFAULT_LEASE_MS,
  MAX_STALLS,
  newWorkerName,
  type EnqueueOptions,
  type JobQueue,
  type JobSnapshot,
  type JobWorker,
  type WorkerOptions,
} from './job-queue';

const KEEP_COMPLETED_SECONDS = 24 * 3600;
const KEEP_FAILED_SECONDS = 7 * 24 * 3600;
const SHUTDOWN = 'shutdown';
/** How often a worker forwards outbox rows that the process which stored them could not. */
const OUTBOX_POLL_MS = 1000;
/** How long a forward waits for the connection a starting process is still opening, or for Redis's answer. */
const FORWARD_WAIT_MS = 2000;

export interface BullmqQueueOptions {
  url: string;
  /** Key prefix in Redis; tests use their own so they never see each other's jobs. */
  prefix?: string;
}

/**
 * The scaled-out queue: BullMQ on Redis. Each definition gets its own BullMQ queue so that its
 * concurrency is a worker setting; BullMQ's lock renewal is the heartbeat and its stalled-job check
 * hands jobs of a dead worker to another one. Redis cannot join a database transaction, so a job
 * enqueued inside a unit of work goes through the database's outbox (see `JobOutbox`).
 */
export class BullmqJobQueue implements JobQueue {
  readonly driver = 'bullmq' as const;
  private readonly connection: Redis;
  private readonly queues = new Map<string, Queue>();
  private readonly workers = new Set<JobWorker>();
  private readonly prefix: string;
  private readonly outbox: JobOutbox;
  private forwarding: Promise<number> | null = null;

  constructor(
    options: BullmqQueueOptions,
    private readonly database: Database,
  ) {
    // BullMQ needs commands to wait for a reconnect instead of failing after a few retries.
    this.connection = new Redis(options.url, { maxRetriesPerRequest: null });
    // Without a listener ioredis prints every failed reconnect; an outage shows where it matters, as
    // forwards that fail (the after-commit log) and the workers' error events.
    this.connection.on('error', () => {});
    this.prefix = options.prefix ?? 'atelier';
    this.outbox = new JobOutbox(database);
  }

  async enqueue<Schema extends z.ZodType>(
    definition: JobDefinition<Schema, never>,
    payload: z.input<Schema>,
    options: EnqueueOptions = {},
  ): Promise<string> {
    const parsed = definition.payload.parse(payload);
    const id = randomUUID();
    const jobOptions: JobsOptions = {
      attempts: definition.retries + 1,
      backoff: { type: definition.backoff.type, delay: definition.backoff.delayMs },
      removeOnComplete: { age: KEEP_COMPLETED_SECONDS },
      removeOnFail: { age: KEEP_FAILED_SECONDS },
    };
    // Every job goes through the outbox: stored, it survives Redis being away and is forwarded later.
    if (!this.database.inUnitOfWork)
      return this.database.transaction(() => this.enqueue(definition, payload, options));
    await this.outbox.store({
      id,
      name: definition.id,
      payload: JSON.stringify(parsed),
      options: JSON.stringify(jobOptions),
      // Real time, not the app's clock: BullMQ's delay is.
      run_at: new Date(Date.now() + (options.delayMs ?? 0)).toISOString(),
    });
    // Forwarded at once after the commit; if this process dies first, a worker's forwarder does it.
    await this.database.afterCommit(() => this.outbox.forwardOne(id, (row) => this.forward(row)));
    return id;
  }

  /**
   * Forwards what the outbox holds unclaimed; answers how many rows went to Redis. A pass asked for
   * while one runs joins it.
   */
  forwardOutbox(): Promise<number> {
    this.forwarding ??= this.outbox
      .forwardAll((row) => this.forward(row))
      .finally(() => (this.forwarding = null));
    return this.forwarding;
  }

  /**
   * Adds an outbox row as its job; a second add of the same id is a no-op for BullMQ. While Redis is
   * away it fails at once and leaves the row to a later pass: the connection would hold the command
   * until Redis came back, and with it the request whose unit of work committed the job.
   */
  private async forward(row: OutboxRow): Promise<void> {
    await this.connected();
    const added = this.queueFor(row.name).add(row.name, JSON.parse(row.payload), {
      ...(JSON.parse(row.options) as JobsOptions),
      jobId: row.id,
      delay: Math.max(0, Date.parse(row.run_at) - Date.now()),
    });
    // A connection that has not yet seen Redis go holds the command; once it lands the job is there
    // (a later pass adding it again adds nothing), but the row stays for that pass.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('Redis did not answer in time; the outbox keeps the job')),
        FORWARD_WAIT_MS,
      );
    });
    added.catch(() => {});
    try {
      await Promise.race([added, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves once the connection is up: waits a little for a first connect, not for a lost one. */
  private async connected(): Promise<void> {
    const status = this.connection.status;
    if (status === 'ready') return;
    if (status !== 'wait' && status !== 'connecting' && status !== 'connect')
      throw new Error(`Redis is not reachable (${status}); the outbox keeps the job`);
    const ready = once(this.connection, 'ready', { signal: AbortSignal.timeout(FORWARD_WAIT_MS) });
    await ready.catch(() => {
      throw new Error('Redis did not answer in time; the outbox keeps the job');
    });
  }

  async get(definition: AnyJobDefinition<never>, jobId: string): Promise<JobSnapshot | null> {
    const queue = this.queueFor(definition.id);
    // The state first: a job read before it is seen failed could lack its failure reason.
    const state = await queue.getJobState(jobId);
    const job = await Job.fromId(queue, jobId);
    if (state === 'unknown' || !job?.id) return null;
    return {
      id: job.id,
      name: definition.id,
      status: statusOf(state),
      attempts: job.attemptsStarted,
      error: job.failedReason || null,
      worker: job.processedBy ?? null,
      payload: job.data,
    };
  }

  startWorker<Services>(options: WorkerOptions<Services>): JobWorker {
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    const workerName = newWorkerName();
    // Aborts every job of this worker on close, also those BullMQ hands out while it closes: their
    // fetch was under way, and BullMQ starts them after it has cancelled the running ones.
    const shutdown = new AbortController();
    const workers = options.definitions.map(
      (definition) =>
        new Worker(
          definition.id,
          async (job: Job, token?: string, signal?: AbortSignal) => {
            if (shutdown.signal.aborted) {
              // Claimed while closing: handed back unrun.
              await job.moveToWait(token);
              throw new WaitingError();
            }
            const aborted = signal ? AbortSignal.any([signal, shutdown.signal]) : shutdown.signal;
            try {
              const payload: unknown = definition.payload.parse(job.data);
              const handler = await definition.handler();
              await handler(payload, {
                jobId: job.id!,
                attempt: job.attemptsStarted,
                // BullMQ counts failed runs apart from stalled ones (its stalled counter).
                failures: job.attemptsMade,
                signal: aborted,
                services: options.services,
              });
            } catch (error) {
              if (aborted.aborted && aborted.reason === SHUTDOWN) {
                // Hand it back at once instead of waiting for the stalled check.
                await job.moveToWait(token);
                throw new WaitingError();
              }
              options.onError?.(error, { id: job.id!, name: definition.id, attempt: job.attemptsStarted });
              if (error instanceof PermanentJobError || error instanceof ZodError) {
                throw new UnrecoverableError(error.message);
              }
              throw error;
            }
          },
          {
            name: workerName,
            connection: this.connection,
            prefix: this.prefix,
            concurrency: definition.concurrency,
            lockDuration: leaseMs,
            stalledInterval: leaseMs,
            maxStalledCount: MAX_STALLS,
          },
        ),
    );
    for (const worker of workers) {
      // BullMQ reports connection trouble as events; without a listener Node would throw them.
      worker.on('error', (error) => options.onError?.(error, { id: '-', name: 'worker', attempt: 0 }));
    }
    const outboxTimer = setInterval(() => {
      this.forwardOutbox().catch((error: unknown) =>
        options.onError?.(error, { id: '-', name: 'outbox', attempt: 0 }),
      );
    }, OUTBOX_POLL_MS);
    outboxTimer.unref();
    const handle: JobWorker = {
      close: async () => {
        this.workers.delete(handle);
        clearInterval(outboxTimer);
        shutdown.abort(SHUTDOWN);
        await Promise.all(workers.map((w) => w.close()));
      },
    };
    this.workers.add(handle);
    return handle;
  }

  async close(): Promise<void> {
    await Promise.all([...this.workers].map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
    await this.connection.quit();
  }

  async counts(names: readonly string[]): Promise<{ waiting: number; failed: number }> {
    const all = await Promise.all(
      names.map((name) => this.queueFor(name).getJobCounts('waiting', 'delayed', 'prioritized', 'failed')),
    );
    const sum = (pick: (c: Record<string, number>) => number) => all.reduce((total, c) => total + pick(c), 0);
    return {
      waiting: sum((c) => (c.waiting ?? 0) + (c.delayed ?? 0) + (c.prioritized ?? 0)),
      failed: sum((c) => c.failed ?? 0),
    };
  }

  private queueFor(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
      this.queues.set(name, queue);
    }
    return queue;
  }
}

function statusOf(state: string): JobStatus {
  switch (state) {
    case 'active':
      return 'running';
    case 'completed':
      return 'completed';
    case 'failed':
      return 'failed';
    default:
      // waiting, delayed (backoff), prioritized, waiting-children
      return 'queued';
  }
}
