import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * A queue prefix no other test uses. Every test file on one Redis that left the default prefix would
 * share BullMQ's queues: a worker of one file (the cross-process cluster's runs every job) would take
 * the jobs another file enqueued and waits for, and jobs left over from earlier runs would reach it.
 */
export function scratchQueuePrefix(): string {
  return `atelier-test-${randomBytes(5).toString('hex')}`;
}

/** Removes every key under `prefix` (a queue's jobs, once its test is done with them). */
export async function deleteQueueKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
