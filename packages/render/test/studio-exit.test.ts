import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudioEngine } from '../src/engines/studio/index';
import { importModel } from '../src/import/import-model';
import { closeImportWorkers } from '../src/import/import-workers';
import { buildScene } from '../src/scene/build-scene';
import { boxMesh } from './fixtures/shapes';
import { binaryStl } from './fixtures/write-formats';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'render-exit-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** What keeps Node's event loop alive (timers, sockets, child processes), counted by kind. */
function liveResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

describe('studio engine shutdown', () => {
  // The render CLI printed its outputs, then sat for a minute on a setup timer nobody cleared.
  it('leaves no timer, socket or browser behind once closed, so a process that used it can end', async () => {
    const model = await importModel({ fileName: 'part.stl', data: binaryStl(boxMesh([30, 20, 10])) });
    await closeImportWorkers();
    const before = liveResources();
    const engine = new StudioEngine();
    const result = await engine.render({
      model,
      scene: buildScene('mechanical', { resolution: { width: 48, height: 48 } }),
      stills: 1,
      outDir: dir,
    });
    expect(result.stills).toHaveLength(1);
    await engine.close();
    const left = [...liveResources()].filter(([kind, n]) => n > (before.get(kind) ?? 0));
    expect(left).toEqual([]);
  });
});
