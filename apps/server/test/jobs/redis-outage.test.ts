import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { BullmqJobQueue } from '../../src/jobs/bullmq.queue';
import { createScratchDatabase } from '../support/databases';
import { openPreparedDatabase } from '../../src/db/prepare';
import type { Database } from '../../src/db/database';
import { echoJob, newTestJobServices, testJobs } from './fixtures/test-jobs';
import { waitFor } from './support/wait-for';

const hasRedisServer = await new Promise<boolean>((resolve) => {
  const probe = spawn('redis-server', ['--version'], { stdio: 'ignore' });
  probe.once('error', () => resolve(false));
  probe.once('exit', (code) => resolve(code === 0));
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** A Redis of the test's own (the shared one cannot be stopped): started, killed and started again. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await waitFor('the test Redis to accept connections', () => out.includes('Ready to accept connections'));
  return child;
}

async function stopRedis(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
}

const outboxRows = async (database: Database) =>
  Number((await sql<{ n: number }>`select count(*) as n from job_outbox`.execute(database.db)).rows[0]!.n);

// Real redis-server processes (Debian's, on every machine of the project); skipped where there is none.
describe.runIf(hasRedisServer)('the BullMQ queue while Redis is away', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setup() {
    const port = await freePort();
    let redis = await startRedis(port);
    cleanups.push(() => stopRedis(redis));
    const scratch = await createScratchDatabase('sqlite');
    const database = await openPreparedDatabase(scratch.url);
    cleanups.push(async () => {
      await database.destroy();
      await scratch.drop();
    });
    const queue = new BullmqJobQueue({ url: `redis://127.0.0.1:${port}`, prefix: 'outage' }, database);
    cleanups.push(() => queue.close());
    // A first job while Redis is up: the connection is ready before it goes away (the test Redis
    // keeps nothing on disk, so this one is gone with it).
    const first = await queue.enqueue(echoJob, { text: 'before' });
    expect((await queue.get(echoJob, first))?.status).toBe('queued');
    return {
      queue,
      database,
      kill: () => stopRedis(redis),
      restart: async () => {
        redis = await startRedis(port);
      },
    };
  }

  it('answers a write that enqueues at once, keeps its job in the outbox and runs it once Redis is back', async () => {
    const { queue, database, kill, restart } = await setup();
    await kill();

    // Before, both waited for Redis to come back: every request that enqueued a job hung.
    const inUnit = database.transaction(() => queue.enqueue(echoJob, { text: 'inside a unit' }));
    const alone = queue.enqueue(echoJob, { text: 'outside a unit' });
    const settled = await Promise.race([
      Promise.all([inUnit, alone]).then(() => 'answered'),
      new Promise((resolve) => setTimeout(resolve, 10_000, 'still waiting')),
    ]);
    expect(settled).toBe('answered');
    expect(await outboxRows(database)).toBe(2);

    await restart();
    const services = newTestJobServices();
    queue.startWorker({ definitions: testJobs, services });
    await waitFor('both jobs to run', () => services.runs.length >= 2);
    await waitFor('the outbox to empty', async () => (await outboxRows(database)) === 0);
    expect(services.runs.map((run) => run.payload)).toEqual(
      expect.arrayContaining([{ text: 'inside a unit' }, { text: 'outside a unit' }]),
    );
    expect(services.runs).toHaveLength(2);
  });

  it('ends a forwarding pass at once while Redis is away, instead of adding one more that waits each second', async () => {
    const { queue, database, kill, restart } = await setup();
    await kill();
    for (let i = 0; i < 3; i += 1)
      await database.transaction(() => queue.enqueue(echoJob, { text: `job ${i}` }));

    // The worker's timer starts a pass every second; before, each one waited for Redis with a row claimed.
    const pass = await Promise.race([
      queue.forwardOutbox().then(
        () => 'forwarded',
        () => 'ended',
      ),
      new Promise((resolve) => setTimeout(resolve, 10_000, 'still waiting')),
    ]);
    expect(pass).toBe('ended');
    expect(await outboxRows(database)).toBe(3);

    await restart();
    await waitFor('a pass to forward the three jobs', async () => {
      await queue.forwardOutbox().catch(() => 0);
      return (await outboxRows(database)) === 0;
    });
  });
});
