import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudioEngine } from '../src/engines/studio/index';
import { acquireSession, releaseSession } from '../src/engines/studio/studio-runtime';
import { buildScene } from '../src/scene/build-scene';
import type { Model } from '../src/types';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'render-relay-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A tetrahedron resting on y = 0, 10 mm across. */
function tetrahedron(): Model {
  const positions = Float32Array.from([0, 0, 0, 0.01, 0, 0, 0, 0, 0.01, 0.003, 0.01, 0.003]);
  const normals = Float32Array.from([0, -1, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0]);
  const indices = Uint32Array.from([0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3]);
  return {
    parts: [{ name: 'part', positions, normals, indices, material: 'steel' }],
    bounds: { min: [0, 0, 0], max: [0.01, 0.01, 0.01] },
    triangleCount: 4,
    source: { format: 'stl', fileName: 'part.stl', unitScale: 1, upAxis: 'y' },
  };
}

describe('studio frame relay', () => {
  // Playwright turns on DevTools' Network domain for the pages it drives, and Chromium then reports
  // every WebSocket message a page sends with its payload base64-encoded: for a frame that cost
  // more CPU than the sending. The page's socket lives in a shared worker, which DevTools does not watch.
  it('carries frames to Node without DevTools seeing them', async () => {
    const engine = new StudioEngine();
    try {
      // The engine takes the warm tab this puts back, with a DevTools session of ours listening.
      const session = await acquireSession();
      const devtools = await session.context.newCDPSession(session.page);
      const seen: number[] = [];
      devtools.on('Network.webSocketFrameSent', (event) => seen.push(event.response.payloadData.length));
      await devtools.send('Network.enable');
      await releaseSession(session, true);

      const result = await engine.render({
        model: tetrahedron(),
        scene: buildScene('mechanical', { resolution: { width: 96, height: 64 } }),
        stills: 2,
        video: { seconds: 0.5, fps: 8, width: 64, height: 48 },
        outDir: dir,
      });
      expect(result.stills).toHaveLength(2);
      expect(result.video).toBeDefined();
      // Our DevTools session stayed attached to the tab that drew them, and saw no frame go out.
      const again = await acquireSession();
      expect(again.page).toBe(session.page);
      await releaseSession(again, true);
      expect(seen).toEqual([]);
    } finally {
      await engine.close();
    }
  });
});
