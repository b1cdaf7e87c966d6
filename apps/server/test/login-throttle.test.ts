import { describe, expect, it } from 'vitest';
import { MemoryAttemptCounter } from '../src/modules/auth/login-throttle';

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
