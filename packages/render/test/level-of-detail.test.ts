import { describe, expect, it } from 'vitest';
import { MAX_ERROR_PX, MIN_TRIANGLES_FOR_LOD, simplifyWithin, unitsPerPixel } from '../src/import/simplify';
import type { Model } from '../src/types';
import { ringMesh } from './fixtures/shapes';

/** A heavy ring (mm -> m) whose occlusion is its height, so a vertex's value can be checked after compaction. */
function heavyRing(): Model {
  const { positions, indices } = ringMesh({ segments: 800, sides: 64 });
  for (let i = 0; i < positions.length; i++) positions[i]! /= 1000;
  const normals = new Float32Array(positions.length).fill(0);
  const occlusion = new Float32Array(positions.length / 3).map((_, v) => positions[v * 3 + 2]! * 10);
  const bounds = {
    min: [-0.0102, -0.0022, 0] as [number, number, number],
    max: [0.0102, 0.0022, 0.0204] as [number, number, number],
  };
  return {
    parts: [{ name: 'band', positions, normals, indices, occlusion, material: 'band' }],
    bounds,
    triangleCount: indices.length / 3,
    source: { format: 'stl', fileName: 'ring.stl', unitScale: 0.001, upAxis: 'z' },
  };
}

describe('level of detail per output size', () => {
  it('draws a heavy part with fewer triangles for a 1080p frame than for a 2048² still, keeping each vertex its occlusion', async () => {
    const model = heavyRing();
    const at = (size: number) =>
      simplifyWithin(model, MAX_ERROR_PX * unitsPerPixel(model.bounds, 0.14, size), MIN_TRIANGLES_FOR_LOD);
    const [still, video] = await Promise.all([at(2048), at(1080)]);
    expect(still.triangleCount).toBeLessThan(model.triangleCount);
    expect(video.triangleCount).toBeLessThan(still.triangleCount);
    for (const detail of [still, video]) {
      const part = detail.parts[0]!;
      expect(part.occlusion).toHaveLength(part.positions.length / 3);
      for (let v = 0; v < part.occlusion!.length; v += 97)
        expect(part.occlusion![v]).toBeCloseTo(part.positions[v * 3 + 2]! * 10, 6);
    }
  });

  it('leaves light parts as they are', async () => {
    const light = { ...heavyRing() };
    const { positions, indices } = ringMesh({ segments: 48, sides: 16 });
    light.parts = [
      { name: 'band', positions, normals: new Float32Array(positions.length), indices, material: 'band' },
    ];
    expect(await simplifyWithin(light, 1, MIN_TRIANGLES_FOR_LOD)).toBe(light);
  });
});
