import type { BlockHashMessage, BlockHashRequest } from './block-hash.worker';
import type { HashBlocks } from './block-hashes';

/** Hashing on the page, loaded only where a worker cannot do it. */
const hashFileBlocks: HashBlocks = async (file, onProgress, signal) =>
  (await import('./block-hashes')).hashFileBlocks(file, onProgress, signal);

function abortError(): DOMException {
  return new DOMException('The upload was cancelled.', 'AbortError');
}

/**
 * Cuts and hashes a file in a web worker, so a large file does not hold up the page; where workers
 * cannot start, it runs on the page. Cancelling (the signal) ends the worker.
 */
export const hashBlocksInWorker: HashBlocks = (file, onProgress, signal) => {
  if (typeof Worker === 'undefined') return hashFileBlocks(file, onProgress, signal);
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    let worker: Worker;
    try {
      worker = new Worker(new URL('./block-hash.worker.ts', import.meta.url), { type: 'module' });
    } catch {
      hashFileBlocks(file, onProgress, signal).then(resolve, reject);
      return;
    }
    const stop = () => {
      worker.terminate();
      reject(abortError());
    };
    signal.addEventListener('abort', stop, { once: true });
    const settle = () => {
      signal.removeEventListener('abort', stop);
      worker.terminate();
    };
    let started = false;
    worker.onmessage = (event: MessageEvent<BlockHashMessage>) => {
      const message = event.data;
      started = true;
      if (message.type === 'progress') return onProgress(message.bytes);
      settle();
      if (message.type === 'done') resolve(message.blocks);
      else reject(new Error(message.message));
    };
    worker.onerror = (event) => {
      settle();
      // A worker that could not load (its script refused or missing) hashes nothing: the page does it.
      if (!started) hashFileBlocks(file, onProgress, signal).then(resolve, reject);
      else reject(new Error(event.message || 'The block hashing worker failed.'));
    };
    worker.postMessage({ file } satisfies BlockHashRequest);
  });
};
