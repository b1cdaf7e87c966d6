import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Starts a worker entry given as the URL of its TypeScript source. Bundled builds (tsup) emit each
 * entry as `<name>.js` beside the bundle that imports it, so that file wins when it exists; from
 * source the .ts runs through a small tsx boot file.
 */
export function spawnWorker(entry: URL, workerData: Record<string, unknown> = {}): Worker {
  const compiled = new URL(entry.href.replace(/\.ts$/, '.js'));
  // Native parsers (OpenCascade) chat on stdout; keep that out of the host's output.
  const quiet = { stdout: true, stderr: true };
  const worker = existsSync(fileURLToPath(compiled))
    ? new Worker(compiled, { workerData, ...quiet })
    : new Worker(new URL('./ts-worker-boot.mjs', import.meta.url), {
        workerData: { ...workerData, __entry: entry.href },
        ...quiet,
      });
  worker.stdout.resume();
  worker.stderr.resume();
  return worker;
}
