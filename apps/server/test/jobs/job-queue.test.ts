import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZodError } from 'zod';
import { Worker } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnyJobDefinition } from '../../src/jobs/job-definition';
import type { JobQueue, JobSnapshot } from '../../src/jobs/job-queue';
import { JobsRepository } from '../../src/jobs/jobs.repository';
import {
  blockingJob,
  echoJob,
  flakyJob,
  newTestJobServices,
  permanentJob,
  slowJob,
  testJobs,
  type TestJobServices,
} from './fixtures/test-jobs';
import { openQueue, queueTargetCases, type OpenedQueue, type QueueTarget } from './support/queue-targets';
import { waitFor } from './support/wait-for';

const here = path.dirname(fileURLToPath(import.meta.url));
// The two drivers' ways of taking a job, wrapped by the test that holds a claim.
const claim = JobsRepository.prototype.claim;
type MoveToActive = (...args: unknown[]) => Promise<unknown>;
const moveToActive = (Worker.prototype as unknown as { moveToActive: MoveToActive }).moveToActive;

for (const targetCase of queueTargetCases) {
  describe(targetCase.name, () => {
    let target: QueueTarget;
    let drop: () => Promise<void>;
    const opened: OpenedQueue[] = [];
    const children: ChildProcess[] = [];

    async function open(): Promise<JobQueue> {
      const queue = await openQueue(target);
      opened.push(queue);
      return queue.queue;
    }

    function startWorker(queue: JobQueue, services: TestJobServices, leaseMs = 30_000) {
      return queue.startWorker({ definitions: testJobs, services, leaseMs });
    }

    async function settled(
      queue: JobQueue,
      definition: AnyJobDefinition<never>,
      id: string,
    ): Promise<JobSnapshot> {
      return waitFor(`job ${id} to finish`, async () => {
        const job = await queue.get(definition, id);
        return job && (job.status === 'completed' || job.status === 'failed') ? job : undefined;
      });
    }

    beforeEach(async () => {
      ({ target, drop } = await targetCase.create());
    });

    afterEach(async () => {
      for (const child of children.splice(0)) child.kill('SIGKILL');
      await Promise.all(opened.splice(0).map((q) => q.close()));
      await drop();
    });

    it('runs a job with its validated payload and reports it completed', async () => {
      const queue = await open();
      const services = newTestJobServices();
      startWorker(queue, services);
      const id = await queue.enqueue(echoJob, { text: 'hello' });

      const job = await settled(queue, echoJob, id);
      expect(job).toMatchObject({ id, name: 'test.echo', status: 'completed', attempts: 1, error: null });
      expect(services.runs).toEqual([
        { job: 'echo', jobId: id, attempt: 1, failures: 0, payload: { text: 'hello' } },
      ]);
    });

    it('refuses a bad payload when enqueuing, so nothing ever runs', async () => {
      const queue = await open();
      const services = newTestJobServices();
      startWorker(queue, services);
      await expect(queue.enqueue(echoJob, { text: '' })).rejects.toBeInstanceOf(ZodError);
      const id = await queue.enqueue(echoJob, { text: 'after' });
      await settled(queue, echoJob, id);
      expect(services.runs.map((r) => r.payload)).toEqual([{ text: 'after' }]);
    });

    it('retries a failing job with backoff until it succeeds', async () => {
      const queue = await open();
      const services = newTestJobServices();
      startWorker(queue, services);
      const id = await queue.enqueue(flakyJob, { failures: 2 });

      const job = await settled(queue, flakyJob, id);
      expect(job.status).toBe('completed');
      expect(job.attempts).toBe(3);
      expect(services.runs.map((r) => r.attempt)).toEqual([1, 2, 3]);
      expect(services.runs.map((r) => r.failures)).toEqual([0, 1, 2]);
    });

    it('fails a job after its retries are used up, keeping the last error', async () => {
      const queue = await open();
      startWorker(queue, newTestJobServices());
      const id = await queue.enqueue(flakyJob, { failures: 10 });

      const job = await settled(queue, flakyJob, id);
      expect(job).toMatchObject({ status: 'failed', attempts: 3, error: 'failure 3' });
    });

    it('fails at once when the handler says retrying cannot help', async () => {
      const queue = await open();
      const services = newTestJobServices();
      startWorker(queue, services);
      const id = await queue.enqueue(permanentJob, {});

      const job = await settled(queue, permanentJob, id);
      expect(job).toMatchObject({ status: 'failed', attempts: 1, error: 'the input cannot be rendered' });
      expect(services.runs).toHaveLength(1);
    });

    it('keeps jobs enqueued while no worker runs and runs them after a restart', async () => {
      const api = await open();
      const first = await api.enqueue(echoJob, { text: 'one' });
      const second = await api.enqueue(echoJob, { text: 'two' });
      expect(await api.get(echoJob, first)).toMatchObject({ status: 'queued', attempts: 0, worker: null });
      await opened.shift()!.close();

      const restarted = await open();
      const services = newTestJobServices();
      startWorker(restarted, services);
      await settled(restarted, echoJob, first);
      await settled(restarted, echoJob, second);
      expect(services.runs.map((r) => r.payload)).toEqual(
        expect.arrayContaining([{ text: 'one' }, { text: 'two' }]),
      );
    });

    it('never runs more jobs of one kind at once than its concurrency', async () => {
      const queue = await open();
      const services = newTestJobServices();
      startWorker(queue, services);
      const ids = await Promise.all(Array.from({ length: 6 }, () => queue.enqueue(slowJob, { ms: 60 })));

      for (const id of ids) expect((await settled(queue, slowJob, id)).status).toBe('completed');
      expect(services.runs).toHaveLength(6);
      expect(services.maxActive).toBeLessThanOrEqual(slowJob.concurrency);
    });

    it('shares jobs between workers on separate connections without running any twice', async () => {
      const first = await open();
      const second = await open();
      const services = [newTestJobServices(), newTestJobServices()];
      startWorker(first, services[0]!);
      startWorker(second, services[1]!);
      const ids = await Promise.all(
        Array.from({ length: 30 }, (_, i) => first.enqueue(echoJob, { text: `job ${i}` })),
      );

      for (const id of ids) expect((await settled(first, echoJob, id)).status).toBe('completed');
      const ran = services.flatMap((s) => s.runs.map((r) => r.jobId));
      expect(ran.sort()).toEqual([...ids].sort());
    });

    it('hands a running job back when its worker shuts down, and another worker finishes it', async () => {
      const queue = await open();
      const stopping = newTestJobServices(true);
      const started = new Promise<string>((resolve) => (stopping.onStarted = resolve));
      const worker = startWorker(queue, stopping);
      const id = await queue.enqueue(blockingJob, { label: 'handed back' });
      expect(await started).toBe(id);
      await worker.close();
      expect((await queue.get(blockingJob, id))?.status).toBe('queued');

      const services = newTestJobServices();
      startWorker(queue, services);
      expect((await settled(queue, blockingJob, id)).status).toBe('completed');
      expect(services.runs).toEqual([expect.objectContaining({ job: 'blocking', jobId: id })]);
    });

    it('hands back, unrun, a job it claimed while shutting down', async () => {
      const queue = await open();
      const services = newTestJobServices();
      // The worker's claim of the job is on its way when the shutdown begins.
      let claimed!: () => void;
      const claiming = new Promise<void>((resolve) => (claimed = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding = false;
      // Holds the first job taken, whichever of BullMQ's workers (one per kind) asks first.
      const hold = async <T>(taken: Promise<T>): Promise<T> => {
        const job = await taken;
        if (job && !holding) {
          holding = true;
          claimed();
          await released;
        }
        return job;
      };
      const held =
        target.driver === 'database'
          ? vi.spyOn(JobsRepository.prototype, 'claim').mockImplementation(function (
              this: JobsRepository,
              ...args
            ) {
              return hold(claim.apply(this, args));
            })
          : vi
              .spyOn(Worker.prototype as unknown as { moveToActive: MoveToActive }, 'moveToActive')
              .mockImplementation(function (this: Worker, ...args) {
                return hold(moveToActive.apply(this, args));
              });
      try {
        const id = await queue.enqueue(echoJob, { text: 'claimed at shutdown' });
        const worker = startWorker(queue, services);
        await claiming;
        const closing = worker.close();
        release();
        await closing;

        expect(services.runs).toEqual([]);
        expect((await queue.get(echoJob, id))?.status).toBe('queued');
      } finally {
        held.mockRestore();
      }
    });

    it('takes up the job of a worker process killed mid-job and finishes it', async () => {
      const leaseMs = 1000;
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', path.join(here, 'fixtures/worker-process.ts')],
        {
          env: { ...process.env, QUEUE_TARGET: JSON.stringify(target), LEASE_MS: String(leaseMs) },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      children.push(child);
      const lines = createInterface({ input: child.stdout! });
      const output: string[] = [];
      lines.on('line', (line) => output.push(line));
      await waitFor('the worker process to start', () => output.includes('ready'));

      const queue = await open();
      const id = await queue.enqueue(blockingJob, { label: 'survivor' });
      await waitFor('the worker process to start the job', () => output.includes(`started ${id}`));
      expect(await queue.get(blockingJob, id)).toMatchObject({
        status: 'running',
        worker: expect.stringContaining(`:${child.pid}:`),
      });
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));

      const services = newTestJobServices();
      startWorker(queue, services, leaseMs);
      const job = await settled(queue, blockingJob, id);
      expect(job).toMatchObject({ status: 'completed', attempts: 2 });
      expect(job.worker).toContain(`:${process.pid}:`);
      // Its lost run is a start, not a failure: the job's retries are all left.
      expect(services.runs).toEqual([expect.objectContaining({ jobId: id, attempt: 2, failures: 0 })]);
    });
  });
}
