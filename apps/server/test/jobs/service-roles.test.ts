import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thumbnailsJob } from '../../src/modules/files/files.jobs';
import { createScratchDatabase, type ScratchDatabase } from '../support/databases';
import { freePort, isListening, MAIN_SCRIPT, startProcess, type AppProcess } from './support/app-processes';
import { openQueue, type OpenedQueue } from './support/queue-targets';
import { waitFor } from './support/wait-for';

describe('SERVICES roles (npm start processes on one database queue)', () => {
  let scratch: ScratchDatabase;
  let dataDir: string;
  let queue: OpenedQueue;
  const processes: AppProcess[] = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase('sqlite');
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'atelier-roles-'));
    queue = await openQueue({ driver: 'database', url: scratch.url });
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await queue.close();
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function startRole(services: string, port: number): AppProcess {
    const app = startProcess(MAIN_SCRIPT, {
      SERVICES: services,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: scratch.url,
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      REDIS_URL: '',
    });
    processes.push(app);
    return app;
  }

  // Two processes boot from TypeScript source, which takes a while on a busy machine.
  it('leaves jobs to the worker process: an API-only process never takes one', async () => {
    const api = startRole('api', await freePort());
    await waitFor('the API process', () => isListening(api), 60_000);

    // Queued while only the API runs; an API that consumed jobs would take it within a poll.
    const id = await queue.queue.enqueue(thumbnailsJob, { itemId: randomUUID() });
    const worker = startRole('worker', await freePort());

    const job = await waitFor(
      'the worker to run the job',
      async () => {
        const snapshot = await queue.queue.get(thumbnailsJob, id);
        return snapshot?.status === 'completed' ? snapshot : undefined;
      },
      60_000,
    );
    expect(job.worker).toContain(`:${worker.child.pid}:`);
    // The worker-only process serves no HTTP.
    expect(isListening(worker)).toBe(false);
  }, 150_000);
});
