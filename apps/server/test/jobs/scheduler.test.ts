import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/database';
import { openPreparedDatabase } from '../../src/db/prepare';
import { periodicTasks } from '../../src/jobs/periodic-tasks';
import { Scheduler, type PeriodicTask } from '../../src/jobs/scheduler';
import { createScratchDatabase } from '../support/databases';
import { describeEachDatabase } from '../support/each-database';
import { createTestApp } from '../support/test-app';

const T0 = new Date('2026-05-01T08:00:00.000Z');
const HOUR = 60 * 60_000;
const logger = pino({ level: 'silent' });

describeEachDatabase('the scheduler', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  let now = T0;
  const clock = () => now;

  beforeAll(async () => {
    const scratch = await createScratchDatabase(kind);
    database = await openPreparedDatabase(scratch.url);
    drop = async () => {
      await database.destroy();
      await scratch.drop();
    };
  });
  afterAll(() => drop());

  /** A task of its own name per test (schedules are rows of the shared database), counting its runs. */
  function countingTask(everyMs: number, run: () => Promise<unknown> = async () => undefined) {
    const task = { name: `test.${randomUUID()}`, everyMs, runs: [] as string[] };
    const periodic: PeriodicTask = {
      name: task.name,
      everyMs,
      run: async (at) => {
        task.runs.push(at.toISOString());
        await run();
      },
    };
    return { task, periodic };
  }

  /** Two worker processes' schedulers on the one database, each with the same tasks. */
  function twoWorkers(tasks: PeriodicTask[], claimMs?: number) {
    const workers = [1, 2].map(() => new Scheduler({ database, now: clock, logger, claimMs }));
    for (const worker of workers) worker.start(tasks);
    return {
      tickBoth: () => Promise.all(workers.map((worker) => worker.tick())),
      stop: () => Promise.all(workers.map((worker) => worker.stop())),
    };
  }

  it('runs a task once per period however many workers poll, from the first poll on', async () => {
    now = T0;
    const { task, periodic } = countingTask(HOUR);
    const workers = twoWorkers([periodic]);
    await workers.tickBoth();
    await workers.tickBoth();
    expect(task.runs).toEqual([T0.toISOString()]);

    now = new Date(T0.getTime() + HOUR - 1);
    await workers.tickBoth();
    expect(task.runs).toHaveLength(1);

    now = new Date(T0.getTime() + HOUR);
    await workers.tickBoth();
    await workers.tickBoth();
    now = new Date(T0.getTime() + 2 * HOUR + 5_000);
    await workers.tickBoth();
    await workers.stop();
    expect(task.runs).toEqual([
      T0.toISOString(),
      new Date(T0.getTime() + HOUR).toISOString(),
      new Date(T0.getTime() + 2 * HOUR + 5_000).toISOString(),
    ]);
  });

  it('runs each period once while the workers poll at the same moment', async () => {
    now = T0;
    const { task, periodic } = countingTask(HOUR);
    const workers = twoWorkers([periodic]);
    for (let hour = 0; hour < 5; hour += 1) {
      now = new Date(T0.getTime() + hour * HOUR);
      await Promise.all([workers.tickBoth(), workers.tickBoth()]);
    }
    await workers.stop();
    expect(task.runs).toHaveLength(5);
  });

  it('keeps to the schedule after a failed run, and runs the other tasks of the pass', async () => {
    now = T0;
    const failing = countingTask(HOUR, () => Promise.reject(new Error('provider down')));
    const healthy = countingTask(HOUR);
    const workers = twoWorkers([failing.periodic, healthy.periodic]);
    await workers.tickBoth();
    now = new Date(T0.getTime() + 30 * 60_000);
    await workers.tickBoth();
    expect(failing.task.runs).toHaveLength(1);
    expect(healthy.task.runs).toHaveLength(1);
    now = new Date(T0.getTime() + HOUR);
    await workers.tickBoth();
    await workers.stop();
    expect(failing.task.runs).toHaveLength(2);
    expect(healthy.task.runs).toHaveLength(2);
  });

  it('keeps the claim of a task that runs longer than one claim, so no other worker starts it meanwhile', async () => {
    now = T0;
    const claimMs = 10 * 60_000;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    // The first run lasts until the test ends it; a second, the double run this guards against, would not.
    let first = true;
    const { task, periodic } = countingTask(HOUR, async () => {
      if (!first) return;
      first = false;
      started();
      await finished;
    });
    const [holder, other] = [1, 2].map(() => new Scheduler({ database, now: clock, logger, claimMs }));
    holder!.start([periodic]);
    await running;
    other!.start([periodic]);
    // Half an hour of the clock, three claims long, renewed as the holder's timer does (every third).
    for (let minutes = 3; minutes <= 30; minutes += 3) {
      now = new Date(T0.getTime() + minutes * 60_000);
      await holder!.renewClaim();
      expect(await other!.tick()).toEqual([]);
    }
    finish();
    await holder!.stop();
    expect(task.runs).toEqual([T0.toISOString()]);
    // Released: the next period comes a period after the claim, and any worker may run it.
    now = new Date(T0.getTime() + HOUR);
    expect(await other!.tick()).toEqual([task.name]);
    await other!.stop();
    expect(task.runs).toHaveLength(2);
  });

  it('leaves a task another worker holds, and takes it over once that claim has lapsed', async () => {
    now = T0;
    const { task, periodic } = countingTask(HOUR);
    // A worker that claimed the task and died before finishing it.
    await database.db
      .insertInto('scheduled_tasks')
      .values({
        name: task.name,
        next_run_at: T0.toISOString(),
        claimed_by: 'gone:1:dead',
        claimed_until: new Date(T0.getTime() + 10 * 60_000).toISOString(),
      })
      .execute();
    const workers = twoWorkers([periodic], 10 * 60_000);
    await workers.tickBoth();
    expect(task.runs).toHaveLength(0);
    now = new Date(T0.getTime() + 10 * 60_000);
    await workers.tickBoth();
    await workers.tickBoth();
    await workers.stop();
    expect(task.runs).toEqual([now.toISOString()]);
    const row = await database.db
      .selectFrom('scheduled_tasks')
      .selectAll()
      .where('name', '=', task.name)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      next_run_at: new Date(now.getTime() + HOUR).toISOString(),
      claimed_by: null,
      claimed_until: null,
    });
  });
});

describeEachDatabase('the periodic tasks of the worker role', (kind) => {
  it('are each run once by two workers, and enqueue their jobs once', async () => {
    const now = T0;
    const t = await createTestApp({ database: kind, clock: () => now });
    try {
      const tasks = periodicTasks(t.deps);
      expect(tasks.map((task) => task.name).sort()).toEqual([
        'billing.events-sweep',
        'billing.lapsed-subscriptions',
        'billing.metered-daily',
        'files.block-collection',
        'files.block-packing',
        'files.blockify-sweep',
        'files.thumbnail-sweep',
        'files.upload-sweep',
        'files.version-retention',
        'projects.render-sweep',
        'sharing.housekeeping',
        'webdav.chunked-upload-sweep',
      ]);
      const workers = [1, 2].map(() => new Scheduler({ database: t.deps.database, now: () => now, logger }));
      for (const worker of workers) worker.start(tasks);
      const ran = (await Promise.all(workers.map((worker) => worker.tick()))).flat();
      await Promise.all(workers.map((worker) => worker.stop()));
      expect(ran.sort()).toEqual(tasks.map((task) => task.name).sort());
      const waiting = (name: string) => t.deps.jobs.counts([name]).then((counts) => counts.waiting);
      expect(await waiting('billing.metered-daily')).toBe(1);
      expect(await waiting('sharing.housekeeping')).toBe(1);
    } finally {
      await t.close();
    }
  });
});
