import { LOGOUT_POPUP_DELAY_MS } from '@atelier/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withDelayedIndicator } from '../../src/lib/delayed-indicator';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('delayed indicator (the logout popup rule)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('never shows for a task that ends before the delay', async () => {
    const calls: boolean[] = [];
    const task = deferred();
    const run = withDelayedIndicator(
      () => task.promise,
      (visible) => calls.push(visible),
      LOGOUT_POPUP_DELAY_MS,
    );
    vi.advanceTimersByTime(LOGOUT_POPUP_DELAY_MS - 1);
    task.resolve();
    await run;
    vi.advanceTimersByTime(LOGOUT_POPUP_DELAY_MS);
    expect(calls).toEqual([]);
  });

  it('shows after the delay and hides when the task ends', async () => {
    const calls: boolean[] = [];
    const task = deferred();
    const run = withDelayedIndicator(
      () => task.promise,
      (visible) => calls.push(visible),
      LOGOUT_POPUP_DELAY_MS,
    );
    vi.advanceTimersByTime(LOGOUT_POPUP_DELAY_MS);
    expect(calls).toEqual([true]);
    task.resolve();
    await run;
    expect(calls).toEqual([true, false]);
  });

  it('hides again and passes the failure on when the task fails', async () => {
    const calls: boolean[] = [];
    const task = deferred();
    const run = withDelayedIndicator(
      () => task.promise,
      (visible) => calls.push(visible),
      LOGOUT_POPUP_DELAY_MS,
    );
    vi.advanceTimersByTime(LOGOUT_POPUP_DELAY_MS);
    task.reject(new Error('500'));
    await expect(run).rejects.toThrow('500');
    expect(calls).toEqual([true, false]);
  });
});
