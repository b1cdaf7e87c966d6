import { LOGIN_MAX_FAILURES_PER_MINUTE } from '@atelier/contracts';
import type { Redis } from 'ioredis';
import { AppError } from '../../lib/app-error';

const WINDOW_MS = 60_000;

interface Window {
  count: number;
  resetInMs: number;
}

/** Counts failures per key in a fixed window; in memory on one node, in Redis across nodes. */
export interface FailureCounter {
  increment(key: string): Promise<Window>;
  peek(key: string): Promise<Window>;
  clear(key: string): Promise<void>;
}

export class MemoryFailureCounter implements FailureCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  async increment(key: string): Promise<Window> {
    const now = Date.now();
    const current = this.windows.get(key);
    const window = current && current.resetAt > now ? current : { count: 0, resetAt: now + WINDOW_MS };
    window.count += 1;
    this.windows.set(key, window);
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  async peek(key: string): Promise<Window> {
    const now = Date.now();
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      this.windows.delete(key);
      return { count: 0, resetInMs: 0 };
    }
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  async clear(key: string): Promise<void> {
    this.windows.delete(key);
  }
}

export class RedisFailureCounter implements FailureCounter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'atelier:login-failures:',
  ) {}

  async increment(key: string): Promise<Window> {
    const k = this.prefix + key;
    const [[, count], [, ttl]] = (await this.redis.multi().incr(k).pttl(k).exec()) as [
      [null, number],
      [null, number],
    ];
    if (ttl < 0) await this.redis.pexpire(k, WINDOW_MS);
    return { count, resetInMs: ttl < 0 ? WINDOW_MS : ttl };
  }

  async peek(key: string): Promise<Window> {
    const k = this.prefix + key;
    const [[, count], [, ttl]] = (await this.redis.multi().get(k).pttl(k).exec()) as [
      [null, string | null],
      [null, number],
    ];
    return { count: Number(count ?? 0), resetInMs: Math.max(ttl, 0) };
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}

/** Sign-in throttling: 5 failures a minute per e-mail and address lock that pair out for the minute. */
export class LoginThrottle {
  constructor(private readonly counter: FailureCounter) {}

  async assertAllowed(email: string, ip: string): Promise<void> {
    const window = await this.counter.peek(keyOf(email, ip));
    if (window.count >= LOGIN_MAX_FAILURES_PER_MINUTE) throw throttled(window.resetInMs);
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    await this.counter.increment(keyOf(email, ip));
  }

  async clear(email: string, ip: string): Promise<void> {
    await this.counter.clear(keyOf(email, ip));
  }
}

function keyOf(email: string, ip: string): string {
  return `${email.trim().toLowerCase()}|${ip}`;
}

function throttled(resetInMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
  return new AppError('throttled', 'auth.throttled', { email: ['auth.throttled'] }, { seconds });
}
