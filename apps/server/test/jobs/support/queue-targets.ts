import type { Database } from '../../../src/db/database';
import { openPreparedDatabase } from '../../../src/db/prepare';
import { BullmqJobQueue } from '../../../src/jobs/bullmq.queue';
import { DatabaseJobQueue } from '../../../src/jobs/database.queue';
import type { JobQueue } from '../../../src/jobs/job-queue';
import { createScratchDatabase, databaseKinds } from '../../support/databases';
import { deleteRedisKeys, scratchRedisPrefix } from '../../support/redis-scratch';

/** Where a queue keeps its jobs: enough for another process to open the same queue. */
export type QueueTarget =
  | { driver: 'database'; url: string }
  /** `databaseUrl`: the database that holds the outbox of jobs enqueued inside units of work. */
  | { driver: 'bullmq'; url: string; prefix: string; databaseUrl: string };

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
      const prefix = scratchRedisPrefix();
      const scratch = await createScratchDatabase('sqlite');
      await (await openPreparedDatabase(scratch.url)).destroy();
      return {
        target: { driver: 'bullmq', url, prefix, databaseUrl: scratch.url },
        drop: async () => {
          await deleteRedisKeys(url, prefix);
          await scratch.drop();
        },
      };
    },
  };
}

export interface OpenedQueue {
  queue: JobQueue;
  /** The database the queue stores its jobs (or, for BullMQ, its outbox) in. */
  database: Database;
  /** Closes the queue, its workers and its connections. */
  close(): Promise<void>;
}

/** Opens the queue at `target` as a separate process of the app would. */
export async function openQueue(target: QueueTarget): Promise<OpenedQueue> {
  const database = await openPreparedDatabase(target.driver === 'bullmq' ? target.databaseUrl : target.url);
  const queue =
    target.driver === 'bullmq'
      ? new BullmqJobQueue({ url: target.url, prefix: target.prefix }, database)
      : new DatabaseJobQueue(database, { pollIntervalMs: 50 });
  return {
    queue,
    database,
    close: async () => {
      await queue.close();
      await database.destroy();
    },
  };
}
