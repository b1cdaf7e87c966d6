import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * A REDIS_PREFIX no other test uses. Test files on one Redis that kept the default would share its
 * queues, throttles and channels: a worker of one file (the cross-process cluster's runs every job)
 * would take the jobs another file enqueued and waits for, and jobs left by earlier runs would reach it.
 */
export function scratchRedisPrefix(): string {
  return `atelier-test-${randomBytes(5).toString('hex')}`;
}

/** Removes every key under `prefix` (a test instance's jobs and counters, once it is done with them). */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
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
