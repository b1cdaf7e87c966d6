import type { Redis } from 'ioredis';
import { AppError } from '../../lib/app-error';

const DAY_MS = 24 * 60 * 60_000;

/**
 * Counts per key, raised by any amount at once and atomically: in memory on one node, in Redis
 * across nodes. A key lives until `expiresInMs` after its first count.
 */
export interface AmountCounter {
  /** Adds `amount` and answers the total after it. */
  add(key: string, amount: number, expiresInMs: number): Promise<number>;
  /** Gives `amount` back (a refused call). */
  subtract(key: string, amount: number): Promise<void>;
}

export class MemoryAmountCounter implements AmountCounter {
  private readonly totals = new Map<string, { total: number; expiresAt: number }>();
  private nextSweepAt = 0;

  constructor(private readonly now: () => number) {}

  async add(key: string, amount: number, expiresInMs: number): Promise<number> {
    const now = this.now();
    // Expired keys go at most once a minute, so a call does not walk every account each time.
    if (now >= this.nextSweepAt) {
      for (const [k, entry] of this.totals) if (entry.expiresAt <= now) this.totals.delete(k);
      this.nextSweepAt = now + 60_000;
    }
    const current = this.totals.get(key);
    const entry = current && current.expiresAt > now ? current : { total: 0, expiresAt: now + expiresInMs };
    entry.total += amount;
    this.totals.set(key, entry);
    return entry.total;
  }

  async subtract(key: string, amount: number): Promise<void> {
    const entry = this.totals.get(key);
    if (entry) entry.total = Math.max(0, entry.total - amount);
  }
}

export class RedisAmountCounter implements AmountCounter {
  constructor(
    private readonly redis: Redis,
    /** Where its totals live: the instance's REDIS_PREFIX and what they count. */
    private readonly prefix: string,
  ) {}

  async add(key: string, amount: number, expiresInMs: number): Promise<number> {
    const k = this.prefix + key;
    // One transaction opens the key with its expiry (only if none is open) and counts.
    const results = (await this.redis
      .multi()
      .set(k, '0', 'PX', expiresInMs, 'NX')
      .incrby(k, amount)
      .exec()) as [[null, unknown], [null, number]];
    return results[1][1];
  }

  async subtract(key: string, amount: number): Promise<void> {
    await this.redis.decrby(this.prefix + key, amount);
  }
}

/**
 * The addresses one account may have mailed with its own text (share links, upload requests, team
 * invitations) in a day, UTC. Taken before any mail goes out and all at once, so concurrent calls
 * cannot together pass the cap; a call that would pass it sends nothing and answers 429 until the
 * next day starts.
 */
export class MailRecipientQuota {
  constructor(
    private readonly counter: AmountCounter,
    private readonly perDay: number,
    private readonly now: () => Date,
  ) {}

  async take(userId: string, recipients: number): Promise<void> {
    if (recipients <= 0) return;
    const now = this.now().getTime();
    const day = Math.floor(now / DAY_MS);
    const untilTomorrowMs = (day + 1) * DAY_MS - now;
    const key = `${userId}:${day}`;
    // The key outlives its day a little, so a clock a few seconds apart between nodes still finds it.
    const total = await this.counter.add(key, recipients, untilTomorrowMs + 60_000);
    if (total <= this.perDay) return;
    await this.counter.subtract(key, recipients);
    throw new AppError(
      'throttled',
      'errors.mail_quota',
      undefined,
      { limit: this.perDay },
      {
        retry_after: Math.max(1, Math.ceil(untilTomorrowMs / 1000)),
      },
    );
  }
}
