import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packageRoot, runsFromSource } from '../package-root';

/** Worker entry points, by name: their source inside this package (tsup emits `<name>.worker.js`). */
const WORKER_SOURCES = {
  raster: 'src/engines/draft/raster.worker.ts',
  import: 'src/import/import.worker.ts',
} as const;

export type WorkerName = keyof typeof WORKER_SOURCES;

/**
 * Where a worker's code lives: from source, the TypeScript entry through a small tsx boot file;
 * from a build, `<name>.worker.js` beside the bundle (this package's dist) or in this package's dist.
 */
function workerEntry(name: WorkerName): { url: URL; source?: string } {
  if (!runsFromSource) {
    const beside = new URL(`./${name}.worker.js`, import.meta.url);
    if (existsSync(fileURLToPath(beside))) return { url: beside };
  }
  const root = packageRoot();
  const built = join(root, 'dist', `${name}.worker.js`);
  if (!runsFromSource && existsSync(built)) return { url: pathToFileURL(built) };
  return {
    url: pathToFileURL(join(root, 'src/workers/ts-worker-boot.mjs')),
    source: pathToFileURL(join(root, WORKER_SOURCES[name])).href,
  };
}

/**
 * Native parsers (OpenCascade) chat on stdout: the import workers' output is kept out of the host's.
 * Only theirs: on Node 20 a worker whose output is read keeps the process alive even unreferenced,
 * which an idle raster pool must not.
 */
const CAPTURED: ReadonlySet<WorkerName> = new Set(['import']);

export function spawnWorker(name: WorkerName, workerData: Record<string, unknown> = {}): Worker {
  const entry = workerEntry(name);
  const captured = CAPTURED.has(name);
  const worker = new Worker(entry.url, {
    workerData: entry.source ? { ...workerData, __entry: entry.source } : workerData,
    stdout: captured,
    stderr: captured,
  });
  if (captured) {
    worker.stdout.resume();
    worker.stderr.resume();
  }
  return worker;
}
