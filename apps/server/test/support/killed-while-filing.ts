import { vi } from 'vitest';
import { ABANDONED_UPLOAD_MS } from '../../src/modules/files/files.tasks';
import type { PutOptions } from '../../src/storage/storage';
import type { TestApp } from './test-app';

/**
 * A process killed as it files what it wrote, as after a kill -9: from here on the objects
 * `storage.put` writes that `counts` picks are recorded in `written`, clean-ups delete nothing, and
 * quota reservations release nothing (nor file anything, with `failFiling`). `restore` ends it;
 * `leftAfterSweep` runs the upload sweep a day on, as a live process does for a dead one, and
 * answers which of the written objects are still stored.
 */
export async function killedWhileFiling(
  t: TestApp,
  options: {
    counts: (body: unknown, options: PutOptions | undefined) => boolean;
    failFiling?: boolean;
  },
) {
  const storage = await t.deps.storage.current();
  const put = storage.put.bind(storage);
  const written: string[] = [];
  const spies: Array<{ mockRestore(): void }> = [
    vi.spyOn(storage, 'put').mockImplementation(async (key, body, putOptions) => {
      if (options.counts(body, putOptions)) written.push(key);
      return put(key, body, putOptions);
    }),
    vi.spyOn(storage, 'deleteMany').mockResolvedValue(),
  ];
  const reserve = t.deps.uploads.reserve.bind(t.deps.uploads);
  spies.push(
    vi.spyOn(t.deps.uploads, 'reserve').mockImplementation(async (ownerId, bytes) => {
      const reservation = await reserve(ownerId, bytes);
      return (
        reservation && {
          ...reservation,
          ...(options.failFiling && { file: () => Promise.reject(new Error('killed')) }),
          release: () => Promise.resolve(),
        }
      );
    }),
  );
  return {
    written,
    restore: () => spies.forEach((spy) => spy.mockRestore()),
    async leftAfterSweep(now = new Date()): Promise<string[]> {
      await t.deps.uploads.sweepAbandoned(
        ABANDONED_UPLOAD_MS,
        new Date(now.getTime() + ABANDONED_UPLOAD_MS + 60_000),
      );
      const left = [];
      for (const key of written) if (await storage.exists(key)) left.push(key);
      return left;
    },
  };
}
