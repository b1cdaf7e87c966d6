import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScene, createEngine, type Engine, type EngineName, type Model } from '../src/index';
import type { SceneOverrides } from '../src/scene/build-scene';
import { facetedModel } from './fixtures/faceted-model';
import { boxMesh, gemMesh } from './fixtures/shapes';

// What a photographed jewel needs and a cheap render lacks: a brilliant that splits into near-black
// and near-white facets from every camera (face-on tables included, at catalogue sizes), and a flat
// polished face that mirrors a graduated softbox instead of one flat tone.

/** A 16-facet round brilliant, 6 mm across, table up (for ring views) or to the front (a pendant's). */
const brilliant = (tableTowards: 'up' | 'front'): Model =>
  facetedModel(
    [{ name: 'diamond', mesh: gemMesh({ facets: 16, radius: 3 }) }],
    tableTowards === 'up' ? 'z' : 'y',
  );

/** A flat gold plate, 20 × 20 × 2 mm, standing with its large face to the front camera. */
const plate = (): Model => facetedModel([{ name: 'plate', mesh: boxMesh([20, 20, 2]) }], 'y');

const cutout: SceneOverrides = { background: { kind: 'transparent' }, groundShadow: false };

/** Luminance (Rec. 709, 0..255) of every fully covered pixel, row by row, and the image width. */
async function coveredLuma(path: string): Promise<{ luma: number[]; rows: number[][] }> {
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  const luma: number[] = [];
  const rows: number[][] = [];
  for (let y = 0; y < info.height; y++) {
    const row: number[] = [];
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * info.channels;
      if (data[i + 3] !== 255) continue;
      row.push(0.2126 * data[i]! + 0.7152 * data[i + 1]! + 0.0722 * data[i + 2]!);
    }
    luma.push(...row);
    if (row.length > 0) rows.push(row);
  }
  return { luma, rows };
}

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(q * (sorted.length - 1))]!;
};
const mean = (values: number[]): number => values.reduce((s, v) => s + v, 0) / values.length;

const ENGINES: EngineName[] = ['draft', 'studio'];

describe.each(ENGINES)('the look of stones and flat faces (%s engine)', (name) => {
  let engine: Engine;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `render-look-${name}-`));
    engine = await createEngine(name);
  });
  afterAll(async () => {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  const render = async (model: Model, category: string, size: number, stills: number, out: string) =>
    (
      await engine.render({
        model,
        scene: buildScene(category, { ...cutout, resolution: { width: size, height: size } }),
        stills,
        outDir: join(dir, out),
      })
    ).stills;

  /** The stone spans near-black to near-white: its darkest and brightest 5 % of pixels. */
  async function expectBlackAndWhiteFacets(still: string): Promise<void> {
    const { luma } = await coveredLuma(still);
    expect(luma.length).toBeGreaterThan(400);
    expect(quantile(luma, 0.05)).toBeLessThan(35);
    expect(quantile(luma, 0.95)).toBeGreaterThan(210);
  }

  it("splits a brilliant into black and white facets in a ring's hero and front views", async () => {
    const [hero, front] = await render(brilliant('up'), 'ring', 96, 2, 'ring');
    await expectBlackAndWhiteFacets(hero!);
    await expectBlackAndWhiteFacets(front!);
  });

  it('does so with the table face-on, as a pendant shows it', async () => {
    const [front] = await render(brilliant('front'), 'pendant', 96, 1, 'pendant');
    await expectBlackAndWhiteFacets(front!);
  });

  it('grades a flat polished face from light to dark instead of one flat tone', async () => {
    const [front] = await render(plate(), 'pendant', 96, 1, 'plate');
    const { rows } = await coveredLuma(front!);
    // The middle of each row (away from the bevelled rims), then the top and bottom quarters.
    const middles = rows.slice(4, -4).map((row) => mean(row.slice(row.length / 4, (row.length * 3) / 4)));
    const quarter = Math.floor(middles.length / 4);
    const top = mean(middles.slice(0, quarter));
    const bottom = mean(middles.slice(-quarter));
    // Light at the top, where the face mirrors the bright end of the card (about 21 darker before).
    expect(top - bottom).toBeGreaterThan(30);
  });
});
