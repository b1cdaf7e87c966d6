import type { Database } from '../db/database';
import type { Env } from '../env';
import { BullmqJobQueue } from './bullmq.queue';
import { DatabaseJobQueue } from './database.queue';
import type { JobQueue } from './job-queue';

/** BullMQ when REDIS_URL is set (scaled out), otherwise the durable queue in the database. */
export function createJobQueue(env: Pick<Env, 'REDIS_URL' | 'REDIS_PREFIX'>, database: Database): JobQueue {
  return env.REDIS_URL
    ? new BullmqJobQueue({ url: env.REDIS_URL, prefix: env.REDIS_PREFIX }, database)
    : new DatabaseJobQueue(database);
}
