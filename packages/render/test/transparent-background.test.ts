import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScene, closeImportWorkers, createEngine, importModel, type Model } from '../src/index';
import { ringMesh } from './fixtures/shapes';
import { binaryStl } from './fixtures/write-formats';

let dir: string;
let ring: Model;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'render-alpha-'));
  ring = await importModel({ fileName: 'ring.stl', data: binaryStl(ringMesh({ segments: 64, sides: 20 })) });
});
afterAll(async () => {
  await closeImportWorkers();
  await rm(dir, { recursive: true, force: true });
});

/**
 * Where a transparent still is see-through: the model (opaque pixels), what lies clearly away from
 * it and from the floor it stands on, and the shadow under it (rows below the model's lowest pixel).
 */
async function alphaLayout(path: string) {
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const alpha = (x: number, y: number): number => data[(y * width + x) * channels + 3]!;
  let top = height,
    bottom = -1,
    left = width,
    right = -1;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (alpha(x, y) === 255) {
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
  // Away from the model: above it, and beside it down to the lower third of its height (the floor's shadow spreads there).
  const away: number[] = [];
  for (let y = 0; y < top + (bottom - top) * 0.66; y++)
    for (let x = 0; x < width; x++) if (y < top - 2 || x < left - 3 || x > right + 3) away.push(alpha(x, y));
  const shadow: Array<{ alpha: number; light: number }> = [];
  for (let y = bottom + 2; y < height; y++)
    for (let x = left; x <= right; x++) {
      const i = (y * width + x) * channels;
      if (data[i + 3]! > 0)
        shadow.push({ alpha: data[i + 3]!, light: data[i]! + data[i + 1]! + data[i + 2]! });
    }
  return { channels, opaque: bottom >= 0, away, shadow };
}

describe('transparent background', () => {
  for (const engineName of ['draft', 'studio'] as const) {
    it(`${engineName}: alpha is 0 away from the object and its shadow, and the shadow is partial alpha`, async () => {
      const engine = await createEngine(engineName);
      try {
        const scene = buildScene('ring', {
          resolution: { width: 96, height: 96 },
          background: { kind: 'transparent' },
          groundShadow: true,
        });
        const [still] = (
          await engine.render({ model: ring, scene, stills: 1, outDir: join(dir, engineName) })
        ).stills;
        const { channels, opaque, away, shadow } = await alphaLayout(still!);
        expect(channels).toBe(4);
        expect(opaque).toBe(true);
        expect(away.length).toBeGreaterThan(96 * 20);
        expect(away.filter((a) => a !== 0)).toEqual([]);
        // A soft shadow under the ring: several pixels, none opaque, the darkest clearly there.
        expect(shadow.length).toBeGreaterThan(20);
        expect(shadow.every((s) => s.alpha < 255)).toBe(true);
        const darkest = shadow.reduce((a, b) => (b.alpha > a.alpha ? b : a));
        expect(darkest.alpha).toBeGreaterThan(60);
        // A shadow is dark, so it darkens whatever background a shop puts under it.
        expect(darkest.light).toBeLessThan(150);
      } finally {
        await engine.close();
      }
    });
  }
});
