import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { openPreparedDatabase } from '../../../src/db/prepare';
import { BullmqJobQueue } from '../../../src/jobs/bullmq.queue';
import { DatabaseJobQueue } from '../../../src/jobs/database.queue';
import type { JobQueue } from '../../../src/jobs/job-queue';
import { createScratchDatabase, databaseKinds } from '../../support/databases';

/** Where a queue keeps its jobs: enough for another process to open the same queue. */
export type QueueTarget =
  { driver: 'database'; url: string } | { driver: 'bullmq'; url: string; prefix: string };

export interface QueueTargetCase {
  name: string;
  /** A fresh, empty queue store; `drop` removes it. */
  create(): Promise<{ target: QueueTarget; drop(): Promise<void> }>;
}

/** The database driver on SQLite (and PostgreSQL when configured), and BullMQ when REDIS_URL is set. */
export const queueTargetCases: QueueTargetCase[] = [
  ...databaseKinds.map((kind): QueueTargetCase => ({
    name: `database queue on ${kind}`,
    create: async () => {
      const scratch = await createScratchDatabase(kind);
      // Migrated once here, as the app would at start; processes opening it later find it ready.
      await (await openPreparedDatabase(scratch.url)).destroy();
      return { target: { driver: 'database', url: scratch.url }, drop: () => scratch.drop() };
    },
  })),
  ...(process.env.REDIS_URL ? [bullmqCase(process.env.REDIS_URL)] : []),
];

function bullmqCase(url: string): QueueTargetCase {
  return {
    name: 'bullmq queue on redis',
    create: async () => {
      const prefix = `atelier-test-${randomBytes(5).toString('hex')}`;
      return { target: { driver: 'bullmq', url, prefix }, drop: () => deleteKeys(url, `${prefix}:*`) };
    },
  };
}

async function deleteKeys(url: string, pattern: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

export interface OpenedQueue {
  queue: JobQueue;
  /** Closes the queue, its workers and its connections. */
  close(): Promise<void>;
}

/** Opens the queue at `target` as a separate process of the app would. */
export async function openQueue(target: QueueTarget): Promise<OpenedQueue> {
  if (target.driver === 'bullmq') {
    const queue = new BullmqJobQueue({ url: target.url, prefix: target.prefix });
    return { queue, close: () => queue.close() };
  }
  const database = await openPreparedDatabase(target.url);
  const queue = new DatabaseJobQueue(database, { pollIntervalMs: 50 });
  return {
    queue,
    close: async () => {
      await queue.close();
      await database.destroy();
    },
  };
}
