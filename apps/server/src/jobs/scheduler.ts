import type { Logger } from 'pino';
import type { Database } from '../db/database';
import { newWorkerName } from './job-queue';
import './scheduled-tasks.table';

/** One periodic task of the worker role. */
export interface PeriodicTask {
  /** Stable name, the task's row in `scheduled_tasks`. */
  name: string;
  everyMs: number;
  /**
   * The work of one period, at the clock's time of the claim. Sweeps and enqueues only: longer work
   * belongs in a job, where a failure is retried and the run survives a restart.
   */
  run(at: Date): Promise<unknown>;
}

export interface SchedulerOptions {
  database: Database;
  now: () => Date;
  logger: Logger;
  /** How often a worker looks for due tasks. */
  pollMs?: number;
  /**
   * How long a claim holds unless renewed; a running task's claim is renewed every third of it, so a
   * worker that died (or stalled) holding a task is replaced after this.
   */
  claimMs?: number;
}

const DEFAULT_POLL_MS = 30_000;
const DEFAULT_CLAIM_MS = 10 * 60_000;

/**
 * The one scheduler of periodic work. Every worker process polls, but a task runs only in the worker
 * that claims its row with a conditional update (due, and no live claim): with any number of workers,
 * each period runs once. While a task runs, its worker keeps renewing the claim, so a run longer than
 * one claim is not started again elsewhere. A run that fails is logged, and the next comes a period
 * later, as after a success. Time comes from the injected clock; the timers only decide when to look
 * and when to renew.
 */
export class Scheduler {
  private readonly name = newWorkerName();
  private readonly pollMs: number;
  private readonly claimMs: number;
  private tasks: readonly PeriodicTask[] = [];
  private pollTimer: NodeJS.Timeout | undefined;
  private renewalTimer: NodeJS.Timeout | undefined;
  private running: Promise<string[]> | undefined;
  /** The task this worker is running now, whose claim it renews. */
  private runningTask: string | undefined;

  constructor(private readonly options: SchedulerOptions) {
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.claimMs = options.claimMs ?? DEFAULT_CLAIM_MS;
  }

  /** Polls for these tasks from now on: due ones run at once, then each when its period has passed. */
  start(tasks: readonly PeriodicTask[]): void {
    this.tasks = tasks;
    void this.tick();
    this.pollTimer = setInterval(() => void this.tick(), this.pollMs).unref();
    this.renewalTimer = setInterval(() => void this.renewClaim(), this.claimMs / 3).unref();
  }

  /**
   * Runs every due task this worker can claim, one after another; answers the names it ran. A pass
   * still under way is joined rather than started twice.
   */
  tick(): Promise<string[]> {
    this.running ??= this.runDue(this.tasks).finally(() => (this.running = undefined));
    return this.running;
  }

  /**
   * Stops polling and waits for the pass under way (its claim still renewed), so nothing runs once
   * the database closes.
   */
  async stop(): Promise<void> {
    clearInterval(this.pollTimer);
    await this.running;
    clearInterval(this.renewalTimer);
  }

  /**
   * Moves the claim of the task under way a full claim past now, so no other worker runs it while
   * this one still does; the renewal timer calls it. A claim another worker took over meanwhile (this
   * one stalled past it) is left to that worker.
   */
  async renewClaim(): Promise<void> {
    const name = this.runningTask;
    if (name === undefined) return;
    try {
      const renewed = await this.options.database.db
        .updateTable('scheduled_tasks')
        .set({ claimed_until: this.claimEnd(this.options.now()) })
        .where('name', '=', name)
        .where('claimed_by', '=', this.name)
        .executeTakeFirst();
      // Nothing renewed after the run ended is no loss: the claim was released.
      if (Number(renewed.numUpdatedRows) === 0 && this.runningTask === name)
        this.options.logger.warn({ task: name }, 'a periodic task lost its claim while running');
    } catch (error) {
      // The database failed; the next renewal, well within the claim, tries again.
      this.options.logger.warn({ err: error, task: name }, 'a periodic task’s claim could not be renewed');
    }
  }

  private async runDue(tasks: readonly PeriodicTask[]): Promise<string[]> {
    const ran: string[] = [];
    for (const task of tasks) {
      try {
        const at = await this.claim(task);
        if (!at) continue;
        this.runningTask = task.name;
        await task
          .run(at)
          .catch((error: unknown) => {
            this.options.logger.warn({ err: error, task: task.name }, 'a periodic task failed');
          })
          .finally(() => (this.runningTask = undefined));
        await this.release(task, at);
        ran.push(task.name);
      } catch (error) {
        // The database itself failed; the next poll tries again.
        this.options.logger.warn({ err: error, task: task.name }, 'a periodic task could not be scheduled');
      }
    }
    return ran;
  }

  /** Claims the task when it is due and nobody holds it; answers the time of the claim. */
  private async claim(task: PeriodicTask): Promise<Date | null> {
    const { db } = this.options.database;
    const at = this.options.now();
    const now = at.toISOString();
    // A task seen for the first time is due at once.
    await db
      .insertInto('scheduled_tasks')
      .values({ name: task.name, next_run_at: now, claimed_by: null, claimed_until: null })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const claimed = await db
      .updateTable('scheduled_tasks')
      .set({ claimed_by: this.name, claimed_until: this.claimEnd(at) })
      .where('name', '=', task.name)
      .where('next_run_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
      .returning('name')
      .executeTakeFirst();
    return claimed ? at : null;
  }

  private claimEnd(from: Date): string {
    return new Date(from.getTime() + this.claimMs).toISOString();
  }

  /** The next period starts a full period after this claim; a claim taken over meanwhile is not touched. */
  private async release(task: PeriodicTask, at: Date): Promise<void> {
    await this.options.database.db
      .updateTable('scheduled_tasks')
      .set({
        next_run_at: new Date(at.getTime() + task.everyMs).toISOString(),
        claimed_by: null,
        claimed_until: null,
      })
      .where('name', '=', task.name)
      .where('claimed_by', '=', this.name)
      .execute();
  }
}
