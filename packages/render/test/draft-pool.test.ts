import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  buildScene,
  closeDraftWorkers,
  closeImportWorkers,
  createEngine,
  importModel,
  type Model,
  type RenderRequest,
} from '../src/index';
import type * as SpawnWorker from '../src/workers/spawn-worker';
import { ringMesh } from './fixtures/shapes';
import { binaryStl } from './fixtures/write-formats';

// Every raster worker started, to tell a reused pool from a new one, and those still running.
const { spawned, running } = vi.hoisted(() => ({ spawned: [] as Worker[], running: new Set<Worker>() }));
vi.mock('../src/workers/spawn-worker', async (importOriginal) => {
  const actual = await importOriginal<typeof SpawnWorker>();
  return {
    ...actual,
    spawnWorker: (...args: Parameters<typeof actual.spawnWorker>) => {
      const worker = actual.spawnWorker(...args);
      if (args[0] === 'raster') {
        spawned.push(worker);
        running.add(worker);
        worker.once('exit', () => running.delete(worker));
      }
      return worker;
    },
  };
});

const THREADS = 2;
let dir: string;
let ring: Model;
let reference: Buffer[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'render-pool-'));
  ring = await importModel({ fileName: 'ring.stl', data: binaryStl(ringMesh({ segments: 48, sides: 16 })) });
  await closeImportWorkers();
});
afterAll(async () => {
  await closeDraftWorkers();
  await rm(dir, { recursive: true, force: true });
});

/** One job as the server runs it: an engine of its own, closed afterwards; the stills' bytes. */
async function job(name: string, extra: Partial<RenderRequest> = {}): Promise<Buffer[]> {
  const engine = await createEngine('draft', { draft: { threads: THREADS } });
  try {
    const result = await engine.render({
      model: ring,
      scene: buildScene('pendant', { resolution: { width: 96, height: 72 } }),
      stills: 2,
      outDir: join(dir, name),
      ...extra,
    });
    return await Promise.all(result.stills.map((path) => readFile(path)));
  } finally {
    await engine.close();
  }
}

const expectSame = (stills: Buffer[]): void => {
  expect(stills).toHaveLength(reference.length);
  stills.forEach((bytes, i) => expect(Buffer.compare(bytes, reference[i]!)).toBe(0));
};

describe('the draft engine’s shared raster pool', () => {
  it('serves consecutive jobs with the workers of the first', async () => {
    reference = await job('first');
    expect(spawned).toHaveLength(THREADS);
    expectSame(await job('second'));
    expect(spawned).toHaveLength(THREADS);
  });

  it('gives two jobs at once a pool each, both drawing what they draw alone', async () => {
    const before = spawned.length;
    const [a, b] = await Promise.all([job('together-a'), job('together-b')]);
    expectSame(a);
    expectSame(b);
    expect(spawned.length - before).toBe(THREADS);
    // One pool is kept: the next job starts no worker.
    expectSame(await job('after-both'));
    expect(spawned.length - before).toBe(THREADS);
  });

  it('is whole again after a cancelled job', async () => {
    const before = spawned.length;
    const controller = new AbortController();
    const cancelled = job('cancelled', {
      video: { seconds: 4, fps: 30, width: 64, height: 48 },
      signal: controller.signal,
      onProgress: (p) => {
        if (p.stage === 'video' && p.frame === 5) controller.abort();
      },
    });
    await expect(cancelled).rejects.toMatchObject({ code: 'cancelled' });
    expectSame(await job('after-cancel'));
    expect(spawned.length).toBe(before);
  });

  it('replaces a pool whose worker died while it waited', async () => {
    // Only the waiting pool's workers run between jobs.
    expect(running.size).toBe(THREADS);
    const victim = [...running][0]!;
    const exited = new Promise((resolve) => victim.once('exit', resolve));
    await victim.terminate();
    await exited;
    const before = spawned.length;
    expectSame(await job('after-crash'));
    expect(spawned.length - before).toBe(THREADS);
  });

  it('lets a process that rendered end at once, its pool still waiting', async () => {
    const script = join(dir, 'one-job.mjs');
    const index = pathToFileURL(join(import.meta.dirname, '../src/index.ts')).href;
    await writeFile(
      script,
      `import { buildScene, createEngine, importModel, closeImportWorkers } from ${JSON.stringify(index)};
const model = await importModel(${JSON.stringify(join(dir, 'ring.stl'))});
await closeImportWorkers();
const engine = await createEngine('draft', { draft: { threads: ${THREADS} } });
await engine.render({ model, scene: buildScene('ring', { resolution: { width: 48, height: 48 } }), stills: 1, outDir: ${JSON.stringify(join(dir, 'child'))} });
await engine.close();
const done = performance.now();
process.on('exit', () => console.log(Math.round(performance.now() - done)));
`,
    );
    await writeFile(join(dir, 'ring.stl'), binaryStl(ringMesh({ segments: 48, sides: 16 })));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
      timeout: 60_000,
    });
    // The idle pool waits 30 s for another job; the process must not wait with it.
    expect(Number(stdout.trim())).toBeLessThan(5_000);
  });
});
