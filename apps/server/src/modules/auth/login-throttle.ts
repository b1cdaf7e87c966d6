import {
  LOGIN_ACCOUNT_WINDOW_MINUTES,
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_ADDRESS_PER_MINUTE,
  LOGIN_MAX_FAILURES_PER_MINUTE,
} from '@atelier/contracts';
import type { Redis } from 'ioredis';
import { AppError } from '../../lib/app-error';
import { clientNetwork } from '../../lib/client-network';

/** The window a count opens unless the caller names another. */
const WINDOW_MS = 60_000;
export const ACCOUNT_WINDOW_MS = LOGIN_ACCOUNT_WINDOW_MINUTES * 60_000;

interface Window {
  count: number;
  resetInMs: number;
}

/**
 * Counts per key in a fixed window that opens at the first count (a minute unless `windowMs` says
 * otherwise) and expires on its own; in memory on one node, in Redis across nodes. Increments are
 * atomic, so concurrent callers each see their own count.
 */
export interface AttemptCounter {
  increment(key: string, windowMs?: number): Promise<Window>;
  /** Gives one count back, unless the window has already expired. */
  decrement(key: string): Promise<void>;
  clear(key: string): Promise<void>;
}

export class MemoryAttemptCounter implements AttemptCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweepAt = 0;

  /** `now` is the app's clock in milliseconds: windows open and close by it. */
  constructor(private readonly now: () => number) {}

  async increment(key: string, windowMs = WINDOW_MS): Promise<Window> {
    const now = this.now();
    this.sweep(now);
    const current = this.windows.get(key);
    const window = current && current.resetAt > now ? current : { count: 0, resetAt: now + windowMs };
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
    /** Where its counters live: the instance's REDIS_PREFIX and what they count. */
    private readonly prefix: string,
  ) {}

  async increment(key: string, windowMs = WINDOW_MS): Promise<Window> {
    const k = this.prefix + key;
    // One transaction opens the window with its expiry (only if none is open) and counts.
    const results = (await this.redis.multi().set(k, '0', 'PX', windowMs, 'NX').incr(k).pttl(k).exec()) as [
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
 * count that was read before it was raised; an IPv6 client counts by its /64. An attempt that passes
 * those is counted per account too (10 in 15 minutes, whatever the addresses), by the e-mail as
 * typed, so an unknown address answers like a known one. While the account's window is full only a
 * browser known to the account (it signed in before) may still try, held to its own per-minute
 * window: someone guessing from many addresses cannot lock the person out. A successful sign-in
 * gives its counts back.
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

  /**
   * Counts a guess at the account, after `begin`. When the account's window is full, `knownDevice`
   * is asked (only then) whether this browser signed in to the account before; its id then carries
   * the attempt, with the limit of one e-mail and address, a minute's (or `deviceWindowMs`'s). Throws
   * 429 otherwise.
   */
  async beginAccount(
    email: string,
    knownDevice: () => Promise<string | null>,
    field = 'email',
    deviceWindowMs?: number,
  ): Promise<void> {
    const account = await this.counter.increment(accountKey(email), ACCOUNT_WINDOW_MS);
    if (account.count <= LOGIN_MAX_FAILURES_PER_ACCOUNT) return;
    const device = await knownDevice();
    if (!device) throw throttled(account.resetInMs, field);
    const own = await this.counter.increment(deviceKey(device), deviceWindowMs);
    if (own.count > LOGIN_MAX_FAILURES_PER_MINUTE) throw throttled(own.resetInMs, field);
  }

  async succeeded(email: string, ip: string): Promise<void> {
    await this.release(pairKey(email, ip), ip);
  }

  /** Gives back the account's count of a sign-in whose password was right (after `beginAccount`). */
  async accountSucceeded(email: string, device: string | null): Promise<void> {
    await Promise.all([
      this.counter.decrement(accountKey(email)),
      device ? this.counter.clear(deviceKey(device)) : undefined,
    ]);
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

function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

function pairKey(email: string, ip: string): string {
  return `pair|${normalEmail(email)}|${clientNetwork(ip)}`;
}

function addressKey(ip: string): string {
  return `address|${clientNetwork(ip)}`;
}

function accountKey(email: string): string {
  return `account|${normalEmail(email)}`;
}

function deviceKey(device: string): string {
  return `device|${device}`;
}

function throttled(resetInMs: number, field: string): AppError {
  const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
  return new AppError('throttled', 'auth.throttled', { [field]: ['auth.throttled'] }, { seconds });
}
