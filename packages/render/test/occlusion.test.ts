import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildScene,
  closeImportWorkers,
  createEngine,
  importModel,
  type Engine,
  type Model,
} from '../src/index';
import { setRingMesh } from './fixtures/set-ring';
import { binaryStl } from './fixtures/write-formats';

let dir: string;
let ring: Model;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'render-occlusion-'));
  ring = await importModel({ fileName: 'set-ring.stl', data: binaryStl(setRingMesh()) });
});
afterAll(async () => {
  await closeImportWorkers();
  await rm(dir, { recursive: true, force: true });
});

/** Luminance (sum of channels) and coverage of a transparent still, pixel by pixel. */
async function pixels(path: string): Promise<{ width: number; light: Float64Array; covered: Uint8Array }> {
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  const count = info.width * info.height;
  const light = new Float64Array(count);
  const covered = new Uint8Array(count);
  for (let p = 0; p < count; p++) {
    const i = p * info.channels;
    light[p] = data[i]! + data[i + 1]! + data[i + 2]!;
    covered[p] = data[i + 3] === 255 ? 1 : 0;
  }
  return { width: info.width, light, covered };
}

describe('ambient occlusion baked at import', () => {
  // The studio engine checks its shader reads the attribute (at a small size: a browser start is most of its cost).
  it.each(['draft', 'studio'] as const)(
    '%s: darkens the band where the head sits on it, not the open band',
    async (name) => {
      const engine: Engine = await createEngine(name);
      const scene = buildScene('ring', {
        resolution: { width: 128, height: 128 },
        background: { kind: 'transparent' },
        groundShadow: false,
        cameras: [{ name: 'front', azimuth: 0, elevation: 15, fov: 30 }],
      });
      const render = async (model: Model, out: string) =>
        pixels((await engine.render({ model, scene, stills: 1, outDir: join(dir, name, out) })).stills[0]!);
      let withOcclusion, plain;
      try {
        withOcclusion = await render(ring, 'baked');
        // The same model with its occlusion left out: what the band looks like without it.
        plain = await render(
          { ...ring, parts: ring.parts.map(({ occlusion: _occlusion, ...part }) => part) },
          'plain',
        );
      } finally {
        await engine.close();
      }

      const { width, covered } = plain;
      let top = width,
        bottom = 0,
        left = width,
        right = 0;
      covered.forEach((c, p) => {
        if (!c) return;
        top = Math.min(top, Math.floor(p / width));
        bottom = Math.max(bottom, Math.floor(p / width));
        left = Math.min(left, p % width);
        right = Math.max(right, p % width);
      });
      /** Mean brightness with occlusion over without, over the covered pixels in a box (fractions of the model's box). */
      const ratio = (x0: number, x1: number, y0: number, y1: number): number => {
        let baked = 0,
          open = 0;
        for (let y = Math.round(top + (bottom - top) * y0); y <= top + (bottom - top) * y1; y++) {
          for (let x = Math.round(left + (right - left) * x0); x <= left + (right - left) * x1; x++) {
            const p = y * width + x;
            if (!covered[p] || !withOcclusion.covered[p]) continue;
            baked += withOcclusion.light[p]!;
            open += plain.light[p]!;
          }
        }
        return baked / open;
      };
      const underHead = ratio(0.35, 0.65, 0.15, 0.25);
      const outerRim = Math.min(ratio(0, 0.04, 0.4, 0.6), ratio(0.96, 1, 0.4, 0.6));
      expect(underHead).toBeLessThan(0.85);
      expect(outerRim).toBeGreaterThan(0.93);
      expect(ring.parts.every((part) => part.occlusion?.length === part.positions.length / 3)).toBe(true);
    },
  );
});
