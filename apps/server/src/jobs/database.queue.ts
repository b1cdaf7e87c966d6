import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { ZodError, type z } from 'zod';
import type { Database } from '../db/database';
import { backoffDelay, PermanentJobError, type AnyJobDefinition, type JobDefinition } from './job-definition';
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
import { JobsRepository } from './jobs.repository';
import type { JobRow } from './jobs.table';

const DEFAULT_POLL_INTERVAL_MS = 1000;
const PRUNE_EVERY_MS = 10 * 60_000;
const KEEP_COMPLETED_MS = 24 * 3600_000;
const KEEP_FAILED_MS = 7 * 24 * 3600_000;

export interface DatabaseQueueOptions {
  /** How often an idle worker looks for due jobs enqueued by other processes or delayed by backoff. */
  pollIntervalMs?: number;
}

/**
 * The durable queue of the embedded shape: jobs are rows, so they survive restarts, and any number
 * of worker processes on one SQLite file or PostgreSQL database share them. Delivery is at least
 * once: a job whose worker died is run again, so handlers must be safe to repeat. Its times (when a
 * job is due, leases, backoff, pruning) are the real clock, not the app's injected one: workers wait
 * and leases lapse in real time, as BullMQ's do.
 */
export class DatabaseJobQueue implements JobQueue {
  readonly driver = 'database' as const;
  private readonly repository: JobsRepository;
  /** Lets a worker in this process start a job the moment it is enqueued instead of at its next poll. */
  private readonly enqueued = new EventEmitter();
  private readonly workers = new Set<JobWorker>();

  constructor(
    private readonly database: Database,
    private readonly options: DatabaseQueueOptions = {},
  ) {
    this.repository = new JobsRepository(database);
    this.enqueued.setMaxListeners(0);
  }

  async enqueue<Schema extends z.ZodType>(
    definition: JobDefinition<Schema, never>,
    payload: z.input<Schema>,
    options: EnqueueOptions = {},
  ): Promise<string> {
    const parsed = definition.payload.parse(payload);
    const id = randomUUID();
    const now = Date.now();
    await this.repository.insert({
      id,
      name: definition.id,
      payload: JSON.stringify(parsed),
      runAt: new Date(now + (options.delayMs ?? 0)).toISOString(),
      now: new Date(now).toISOString(),
    });
    // Inside a unit of work the row is not visible until the commit; the worker wakes then.
    await this.database.afterCommit(() => this.enqueued.emit('job'));
    return id;
  }

  async get(definition: AnyJobDefinition<never>, jobId: string): Promise<JobSnapshot | null> {
    const row = await this.repository.findById(jobId);
    if (!row || row.name !== definition.id) return null;
    return {
      id: row.id,
      name: row.name,
      status: row.status,
      attempts: row.attempts,
      error: row.last_error,
      worker: row.locked_by,
      payload: JSON.parse(row.payload),
    };
  }

  counts(names: readonly string[]): Promise<{ waiting: number; failed: number }> {
    return this.repository.counts(names);
  }

  startWorker<Services>(options: WorkerOptions<Services>): JobWorker {
    const worker = new DatabaseJobWorker(
      this.repository,
      this.enqueued,
      options,
      this.options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    );
    worker.start();
    const handle: JobWorker = {
      close: async () => {
        this.workers.delete(handle);
        await worker.close();
      },
    };
    this.workers.add(handle);
    return handle;
  }

  async close(): Promise<void> {
    const workers = [...this.workers];
    this.workers.clear();
    await Promise.all(workers.map((w) => w.close()));
  }
}

type AbortReason = 'shutdown' | 'lease-lost';

interface RunningJob {
  name: string;
  controller: AbortController;
  done: Promise<void>;
}

class DatabaseJobWorker<Services> {
  /** Unique per worker, so a worker only ever finishes jobs it still holds. */
  private readonly id = newWorkerName();
  private readonly definitions: Map<string, AnyJobDefinition<Services>>;
  private readonly running = new Map<string, RunningJob>();
  private readonly leaseMs: number;
  private closed = false;
  private wakeSleeper: (() => void) | null = null;
  private wokenEarly = false;
  private loopDone: Promise<void> = Promise.resolve();
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly onEnqueued = () => this.wake();

  constructor(
    private readonly repository: JobsRepository,
    private readonly enqueued: EventEmitter,
    private readonly options: WorkerOptions<Services>,
    private readonly pollIntervalMs: number,
  ) {
    this.definitions = new Map(options.definitions.map((d) => [d.id, d]));
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  }

  start(): void {
    this.enqueued.on('job', this.onEnqueued);
    this.heartbeat = setInterval(() => void this.renewLeases(), Math.max(50, Math.floor(this.leaseMs / 3)));
    this.loopDone = this.loop();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.enqueued.off('job', this.onEnqueued);
    this.wake();
    for (const job of this.running.values()) job.controller.abort('shutdown' satisfies AbortReason);
    await this.loopDone;
    await Promise.allSettled([...this.running.values()].map((j) => j.done));
    clearInterval(this.heartbeat);
  }

  private async loop(): Promise<void> {
    let lastPrune = 0;
    while (!this.closed) {
      try {
        await this.claimWhileFree();
        if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
          lastPrune = Date.now();
          await this.repository.prune(
            new Date(lastPrune - KEEP_COMPLETED_MS).toISOString(),
            new Date(lastPrune - KEEP_FAILED_MS).toISOString(),
          );
        }
      } catch (error) {
        // The database may be briefly unreachable; the next poll tries again.
        this.options.onError?.(error, { id: '-', name: 'claim', attempt: 0 });
      }
      // Sleeps until the next poll, an enqueue in this process, or a finished job freeing a slot.
      await this.sleep(this.pollIntervalMs);
    }
  }

  private async claimWhileFree(): Promise<void> {
    while (!this.closed) {
      const names = this.namesWithFreeSlots();
      if (names.length === 0) return;
      const now = Date.now();
      const row = await this.repository.claim(
        names,
        this.id,
        new Date(now).toISOString(),
        new Date(now + this.leaseMs).toISOString(),
      );
      if (!row) return;
      // Claimed while closing, after the running jobs were aborted: handed back unrun.
      if (this.closed) {
        await this.repository.release(row.id, this.id, new Date().toISOString());
        return;
      }
      this.run(row);
    }
  }

  private namesWithFreeSlots(): string[] {
    const busy = new Map<string, number>();
    for (const job of this.running.values()) busy.set(job.name, (busy.get(job.name) ?? 0) + 1);
    return [...this.definitions.values()]
      .filter((d) => (busy.get(d.id) ?? 0) < d.concurrency)
      .map((d) => d.id);
  }

  private run(row: JobRow): void {
    const controller = new AbortController();
    const done = this.execute(row, controller.signal)
      .catch((error: unknown) =>
        this.options.onError?.(error, { id: row.id, name: row.name, attempt: row.attempts }),
      )
      .finally(() => {
        this.running.delete(row.id);
        this.wake();
      });
    this.running.set(row.id, { name: row.name, controller, done });
  }

  private async execute(row: JobRow, signal: AbortSignal): Promise<void> {
    // Only names of known definitions are claimed.
    const definition = this.definitions.get(row.name)!;
    const now = () => new Date().toISOString();
    if (row.stalls > MAX_STALLS) {
      await this.repository.fail(
        row.id,
        this.id,
        `Its worker stopped responding ${row.stalls} times.`,
        now(),
      );
      return;
    }
    try {
      const payload: unknown = definition.payload.parse(JSON.parse(row.payload));
      const handler = await definition.handler();
      await handler(payload, {
        jobId: row.id,
        attempt: row.attempts,
        // `attempts` counts this start, and every run lost with its worker (`stalls`).
        failures: row.attempts - 1 - row.stalls,
        signal,
        services: this.options.services,
      });
      await this.repository.complete(row.id, this.id, now());
    } catch (error) {
      const reason = signal.aborted ? (signal.reason as AbortReason) : null;
      if (reason === 'lease-lost') return; // another worker has taken it up
      if (reason === 'shutdown') {
        await this.repository.release(row.id, this.id, now());
        return;
      }
      this.options.onError?.(error, { id: row.id, name: row.name, attempt: row.attempts });
      const message = error instanceof Error ? error.message : String(error);
      const failures = row.attempts - row.stalls;
      const permanent = error instanceof PermanentJobError || error instanceof ZodError;
      if (permanent || failures > definition.retries) {
        await this.repository.fail(row.id, this.id, message, now());
      } else {
        const runAt = new Date(Date.now() + backoffDelay(definition.backoff, failures)).toISOString();
        await this.repository.retryLater(row.id, this.id, message, runAt, now());
      }
    }
  }

  private async renewLeases(): Promise<void> {
    const ids = [...this.running.keys()];
    if (ids.length === 0) return;
    try {
      const held = await this.repository.renewLeases(
        ids,
        this.id,
        new Date(Date.now() + this.leaseMs).toISOString(),
      );
      for (const id of ids) {
        if (!held.has(id)) this.running.get(id)?.controller.abort('lease-lost' satisfies AbortReason);
      }
    } catch (error) {
      this.options.onError?.(error, { id: '-', name: 'heartbeat', attempt: 0 });
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.closed || this.wokenEarly) {
      this.wokenEarly = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wakeSleeper?.(), ms);
      this.wakeSleeper = () => {
        this.wakeSleeper = null;
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Ends the current sleep, or the next one if the loop is busy claiming right now. */
  private wake(): void {
    if (this.wakeSleeper) this.wakeSleeper();
    else this.wokenEarly = true;
  }
}
