import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BullmqJobQueue } from '../../src/jobs/bullmq.queue';
import { echoJob, newTestJobServices, testJobs } from './fixtures/test-jobs';
import { openQueue, queueTargetCases, type OpenedQueue, type QueueTarget } from './support/queue-targets';
import { waitFor } from './support/wait-for';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A row the tests write beside a job, to see that both commit or neither does. */
const marker = async (opened: OpenedQueue) =>
  (
    await sql<{ value: string }>`select value from settings where key = 'unit-of-work'`.execute(
      opened.database.db,
    )
  ).rows[0]?.value ?? null;
const writeMarker = (opened: OpenedQueue) =>
  sql`insert into settings (key, value, updated_at) values ('unit-of-work', '"written"', ${new Date().toISOString()})`.execute(
    opened.database.db,
  );

for (const targetCase of queueTargetCases) {
  describe(`jobs in a unit of work: ${targetCase.name}`, () => {
    let target: QueueTarget;
    let drop: () => Promise<void>;
    const opened: OpenedQueue[] = [];

    const open = async () => {
      const queue = await openQueue(target);
      opened.push(queue);
      return queue;
    };

    beforeEach(async () => {
      ({ target, drop } = await targetCase.create());
    });
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((q) => q.close()));
      await drop();
    });

    it('stores and runs a job only when the unit it was enqueued in commits', async () => {
      const one = await open();
      const services = newTestJobServices();
      one.queue.startWorker({ definitions: testJobs, services });

      let undone = '';
      await expect(
        one.database.transaction(async () => {
          await writeMarker(one);
          undone = await one.queue.enqueue(echoJob, { text: 'rolled back' });
          throw new Error('a later step failed');
        }),
      ).rejects.toThrow('a later step failed');
      expect(await marker(one)).toBeNull();
      expect(await one.queue.get(echoJob, undone)).toBeNull();

      const kept = await one.database.transaction(async () => {
        await writeMarker(one);
        return one.queue.enqueue(echoJob, { text: 'committed' });
      });
      await waitFor('the committed job to run', async () => {
        return (await one.queue.get(echoJob, kept))?.status === 'completed';
      });
      expect(await marker(one)).toBe('"written"');
      expect(services.runs.map((r) => r.payload)).toEqual([{ text: 'committed' }]);
    });

    it('runs a job whose process was killed right after the commit, once', async () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', path.join(here, 'fixtures/enqueue-and-die.ts')],
        {
          env: { ...process.env, QUEUE_TARGET: JSON.stringify(target) },
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      );
      const signal = await new Promise((resolve) => child.once('exit', (_code, s) => resolve(s)));
      expect(signal).toBe('SIGKILL');

      // Two processes take up what the dead one left; the job still runs once.
      const [one, two] = [await open(), await open()];
      expect(await marker(one)).toBe('"written"');
      const services = newTestJobServices();
      one.queue.startWorker({ definitions: testJobs, services });
      two.queue.startWorker({ definitions: testJobs, services });
      await waitFor('the job left by the killed process to run', () => services.runs.length > 0);
      if (one.queue instanceof BullmqJobQueue) {
        await waitFor('the outbox to empty', async () => {
          return (
            (await sql<{ n: number }>`select count(*) as n from job_outbox`.execute(one.database.db)).rows[0]!
              .n == 0
          );
        });
        // A forward repeated for the same row (a forwarder that died after adding it) adds nothing.
        expect(await one.queue.forwardOutbox()).toBe(0);
      }
      expect(services.runs).toEqual([expect.objectContaining({ payload: { text: 'survives the crash' } })]);
    });
  });
}
