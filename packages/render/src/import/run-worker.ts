import { RenderError } from '../types';
import { spawnWorker } from '../workers/spawn-worker';

/**
 * Runs a one-shot worker that answers with a single message, bounded by a time limit and an
 * abort signal; the worker is terminated on every path so a stuck parser never outlives its job.
 */
export function runWorkerOnce<T>(
  entry: URL,
  workerData: Record<string, unknown>,
  options: { timeoutMs: number; signal?: AbortSignal; stage: string; transfer?: ArrayBuffer[] },
): Promise<T> {
  if (options.signal?.aborted) return Promise.reject(new RenderError('cancelled', `${options.stage} was cancelled`));
  return new Promise<T>((resolve, reject) => {
    const worker = spawnWorker(entry, workerData, options.transfer);
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () => settle(() => reject(new RenderError('timeout', `${options.stage} took longer than ${options.timeoutMs / 1000} s`))),
      options.timeoutMs,
    );
    const onAbort = (): void => settle(() => reject(new RenderError('cancelled', `${options.stage} was cancelled`)));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (message: T) => settle(() => resolve(message)));
    worker.once('error', (error) => settle(() => reject(new RenderError('corrupt_file', `${options.stage} failed: ${error.message}`))));
    worker.once('exit', (code) =>
      settle(() => reject(new RenderError('corrupt_file', `${options.stage} stopped unexpectedly (exit ${code})`))),
    );
  });
}
