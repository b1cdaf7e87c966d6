import { LOGIN_MAX_FAILURES_PER_ADDRESS_PER_MINUTE, LOGIN_MAX_FAILURES_PER_MINUTE } from '@atelier/contracts';
import type { Redis } from 'ioredis';
import { AppError } from '../../lib/app-error';

const WINDOW_MS = 60_000;

interface Window {
  count: number;
  resetInMs: number;
}

/**
 * Counts per key in a fixed window that opens at the first count and expires on its own; in memory
 * on one node, in Redis across nodes. Increments are atomic, so concurrent callers each see their
 * own count.
 */
export interface AttemptCounter {
  increment(key: string): Promise<Window>;
  /** Gives one count back, unless the window has already expired. */
  decrement(key: string): Promise<void>;
  clear(key: string): Promise<void>;
}

export class MemoryAttemptCounter implements AttemptCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweepAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async increment(key: string): Promise<Window> {
    const now = this.now();
    this.sweep(now);
    const current = this.windows.get(key);
    const window = current && current.resetAt > now ? current : { count: 0, resetAt: now + WINDOW_MS };
    window.count += 1;
    this.windows.set(key, window);
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  async decrement(key: string): Promise<void> {
    const window = this.windows.get(key);
    if (window && window.resetAt > this.now()) window.count = Math.max(0, window.count - 1);
  }

  async clear(key: string): Promise<void> {
    this.windows.delete(key);
  }

  /** How many windows are held: expired ones go at the next sweep, so junk keys do not pile up. */
  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    if (now < this.nextSweepAt) return;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    this.nextSweepAt = now + WINDOW_MS;
  }
}

// Decrements only a live window: after expiry a DECR would leave a counter without a TTL behind.
const DECREMENT_LIVE =
  "if redis.call('exists', KEYS[1]) == 1 then return redis.call('decr', KEYS[1]) end return 0";

export class RedisAttemptCounter implements AttemptCounter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'atelier:login-attempts:',
  ) {}

  async increment(key: string): Promise<Window> {
    const k = this.prefix + key;
    // One transaction opens the window with its expiry (only if none is open) and counts.
    const results = (await this.redis.multi().set(k, '0', 'PX', WINDOW_MS, 'NX').incr(k).pttl(k).exec()) as [
      [null, unknown],
      [null, number],
      [null, number],
    ];
    return { count: results[1][1], resetInMs: Math.max(results[2][1], 0) };
  }

  async decrement(key: string): Promise<void> {
    await this.redis.eval(DECREMENT_LIVE, 1, this.prefix + key);
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}

/**
 * Sign-in throttling. Every attempt is counted before the password is checked, per e-mail and
 * address (5 a minute) and per address alone (30 a minute), so parallel guesses cannot slip past a
 * count that was read before it was raised. A successful sign-in gives its counts back.
 */
export class LoginThrottle {
  constructor(private readonly counter: AttemptCounter) {}

  /**
   * Counts the attempt; throws 429 when either window is already full, naming `field` (the form's
   * password field where the password is checked outside sign-in).
   */
  async begin(email: string, ip: string, field = 'email'): Promise<void> {
    await this.count(pairKey(email, ip), ip, field);
  }

  async succeeded(email: string, ip: string): Promise<void> {
    await this.release(pairKey(email, ip), ip);
  }

  /**
   * Counts a second-factor attempt per account whatever the address (whoever reaches the challenge
   * already has the password, and may have many addresses) and per address, with sign-in's limits.
   */
  async beginSecondFactor(userId: string, ip: string, field: string): Promise<void> {
    await this.count(secondFactorKey(userId), ip, field);
  }

  async secondFactorSucceeded(userId: string, ip: string): Promise<void> {
    await this.release(secondFactorKey(userId), ip);
  }

  private async count(key: string, ip: string, field: string): Promise<void> {
    const [own, address] = await Promise.all([
      this.counter.increment(key),
      this.counter.increment(addressKey(ip)),
    ]);
    if (own.count > LOGIN_MAX_FAILURES_PER_MINUTE) throw throttled(own.resetInMs, field);
    if (address.count > LOGIN_MAX_FAILURES_PER_ADDRESS_PER_MINUTE) throw throttled(address.resetInMs, field);
  }

  private async release(key: string, ip: string): Promise<void> {
    await Promise.all([this.counter.clear(key), this.counter.decrement(addressKey(ip))]);
  }
}

function secondFactorKey(userId: string): string {
  return `second-factor|${userId}`;
}

function pairKey(email: string, ip: string): string {
  return `pair|${email.trim().toLowerCase()}|${ip}`;
}

function addressKey(ip: string): string {
  return `address|${ip}`;
}

function throttled(resetInMs: number, field: string): AppError {
  const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
  return new AppError('throttled', 'auth.throttled', { [field]: ['auth.throttled'] }, { seconds });
}
