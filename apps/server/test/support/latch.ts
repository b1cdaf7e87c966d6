import { vi } from 'vitest';

/**
 * A pause in the code under test: it calls `reached` and waits for `gone`; the test waits for
 * `paused`, acts meanwhile, then calls `go`.
 */
export function latch() {
  let reached!: () => void;
  const paused = new Promise<void>((resolve) => (reached = resolve));
  let go!: () => void;
  const gone = new Promise<void>((resolve) => (go = resolve));
  return { reached, paused, go, gone };
}

/**
 * Pauses the next call of an async method of `target` (a class's prototype: whichever instance
 * calls it), before the method runs or once it has; the test waits for `paused`, acts, then calls
 * `go`, and `restore`s the method when done.
 */
export function pauseOnce<T extends object>(target: T, method: keyof T & string, when: 'before' | 'after') {
  const { reached, paused, go, gone } = latch();
  const original = target[method] as (...args: unknown[]) => Promise<unknown>;
  const spy = vi
    .spyOn(target as Record<string, typeof original>, method)
    .mockImplementationOnce(async function (this: unknown, ...args: unknown[]) {
      if (when === 'before') {
        reached();
        await gone;
        return original.apply(this, args);
      }
      const done = await original.apply(this, args);
      reached();
      await gone;
      return done;
    });
  return { paused, go, restore: () => spy.mockRestore() };
}
