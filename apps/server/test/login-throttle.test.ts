import { describe, expect, it } from 'vitest';
import { LOGIN_MAX_FAILURES_PER_ACCOUNT, LOGIN_MAX_FAILURES_PER_MINUTE } from '@atelier/contracts';
import { ACCOUNT_WINDOW_MS, LoginThrottle, MemoryAttemptCounter } from '../src/modules/auth/login-throttle';

describe('in-memory attempt counter', () => {
  it('forgets windows once they expire, so junk e-mails and addresses do not pile up', async () => {
    let now = 1_000_000;
    const counter = new MemoryAttemptCounter(() => now);
    for (let i = 0; i < 1000; i++) await counter.increment(`pair|junk-${i}@example.test|10.0.0.1`);
    expect(counter.size).toBe(1000);
    now += 61_000;
    await counter.increment('address|10.0.0.2');
    expect(counter.size).toBe(1);
  });

  it('opens a new window after a minute and gives back counts only within the window', async () => {
    let now = 0;
    const counter = new MemoryAttemptCounter(() => now);
    expect((await counter.increment('k')).count).toBe(1);
    expect((await counter.increment('k')).count).toBe(2);
    await counter.decrement('k');
    expect((await counter.increment('k')).count).toBe(2);
    now += 60_000;
    await counter.decrement('k');
    expect(await counter.increment('k')).toEqual({ count: 1, resetInMs: 60_000 });
  });
});

describe("a known browser's guesses while the account's window is full", () => {
  const fill = async (
    throttle: LoginThrottle,
    email: string,
    known: () => Promise<string | null>,
    window?: number,
  ) => {
    const outcomes: string[] = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ACCOUNT + LOGIN_MAX_FAILURES_PER_MINUTE + 1; i++)
      outcomes.push(
        await throttle.beginAccount(email, known, 'password', window).then(
          () => 'counted',
          () => 'throttled',
        ),
      );
    return outcomes;
  };

  it('gives a signed-in session a few of its own for the whole window, a browser a few a minute', async () => {
    let now = 0;
    const throttle = new LoginThrottle(new MemoryAttemptCounter(() => now));
    const allowed = LOGIN_MAX_FAILURES_PER_ACCOUNT + LOGIN_MAX_FAILURES_PER_MINUTE;
    const session = await fill(throttle, 'a@example.test', async () => 'session:1', ACCOUNT_WINDOW_MS);
    const browser = await fill(throttle, 'b@example.test', async () => 'device:1');
    for (const outcomes of [session, browser]) {
      expect(outcomes.filter((o) => o === 'counted')).toHaveLength(allowed);
      expect(outcomes.at(-1)).toBe('throttled');
    }
    // Two minutes on, the account windows still full: the browser has its next minute's few, the session none.
    now += 120_000;
    await expect(throttle.beginAccount('b@example.test', async () => 'device:1')).resolves.toBeUndefined();
    await expect(
      throttle.beginAccount('a@example.test', async () => 'session:1', 'password', ACCOUNT_WINDOW_MS),
    ).rejects.toMatchObject({ code: 'throttled' });
  });
});
