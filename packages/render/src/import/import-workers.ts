import { abortError } from '../abort';
import type { Worker } from 'node:worker_threads';
import { RenderError } from '../types';
import { spawnWorker } from '../workers/spawn-worker';
import type { ImportRequest, ImportResponse } from './import-pipeline';

const IDLE_WORKERS = 1;
const IDLE_MS = 30_000;

/**
 * Import worker threads, kept warm between files (three.js and the OpenCascade WASM load once)
 * but never trusted past a time limit: a worker that overruns or is cancelled is terminated,
 * and the next file gets a fresh one.
 */
class ImportWorkers {
  private readonly idle: Array<{ worker: Worker; timer: NodeJS.Timeout }> = [];
  private nextId = 1;

  private take(): Worker {
    const warm = this.idle.pop();
    if (warm) {
      clearTimeout(warm.timer);
      warm.worker.ref();
      return warm.worker;
    }
    return spawnWorker('import');
  }

  private giveBack(worker: Worker): void {
    if (this.idle.length >= IDLE_WORKERS) {
      void worker.terminate();
      return;
    }
    worker.unref();
    const timer = setTimeout(() => {
      this.idle.splice(
        this.idle.findIndex((w) => w.worker === worker),
        1,
      );
      void worker.terminate();
    }, IDLE_MS);
    timer.unref();
    this.idle.push({ worker, timer });
  }

  /** Ends the warm workers (shutdown, or a CLI that is done importing). */
  async close(): Promise<void> {
    const idle = this.idle.splice(0);
    await Promise.all(idle.map(({ worker, timer }) => (clearTimeout(timer), worker.terminate())));
  }

  run(
    request: ImportRequest,
    options: { timeoutMs: number; signal?: AbortSignal; stage: string; transfer?: ArrayBuffer[] },
  ): Promise<ImportResponse> {
    if (options.signal?.aborted) return Promise.reject(abortError(options.signal, options.stage));
    const worker = this.take();
    const id = this.nextId++;
    return new Promise<ImportResponse>((resolve, reject) => {
      let settled = false;
      const finish = (keep: boolean, fn: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (keep) this.giveBack(worker);
        else void worker.terminate();
        fn();
      };
      const onMessage = (message: { id: number; response: ImportResponse }): void => {
        if (message.id === id) finish(true, () => resolve(message.response));
      };
      const onError = (error: Error): void =>
        finish(false, () =>
          reject(new RenderError('corrupt_file', `${options.stage} failed: ${error.message}`)),
        );
      const onExit = (code: number): void =>
        finish(false, () =>
          reject(new RenderError('corrupt_file', `${options.stage} stopped unexpectedly (exit ${code})`)),
        );
      const onAbort = (): void => finish(false, () => reject(abortError(options.signal, options.stage)));
      const timer = setTimeout(
        () =>
          finish(false, () =>
            reject(
              new RenderError('timeout', `${options.stage} took longer than ${options.timeoutMs / 1000} s`),
            ),
          ),
        options.timeoutMs,
      );
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ id, request }, options.transfer ?? []);
    });
  }
}

export const importWorkers = new ImportWorkers();

export const closeImportWorkers = (): Promise<void> => importWorkers.close();
