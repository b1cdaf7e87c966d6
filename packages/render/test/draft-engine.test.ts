import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildScene,
  closeImportWorkers,
  createEngine,
  importModel,
  probeVideo,
  type Engine,
  type Model,
  type RenderProgress,
} from '../src/index';
import { ffmpegBinary } from '../src/encode/binaries';
import { ringMesh } from './fixtures/shapes';
import { binaryStl } from './fixtures/write-formats';

let dir: string;
let engine: Engine;
let ring: Model;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'render-draft-'));
  engine = await createEngine('draft');
  ring = await importModel({ fileName: 'ring.stl', data: binaryStl(ringMesh({ segments: 64, sides: 20 })) });
});
afterAll(async () => {
  await engine.close();
  await closeImportWorkers();
  await rm(dir, { recursive: true, force: true });
});

/** Bounding box of pixels that differ from the background colour (the model). */
async function modelBox(path: string, background: [number, number, number]) {
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  let minX = info.width,
    minY = info.height,
    maxX = -1,
    maxY = -1;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * info.channels;
      const differs = [0, 1, 2].some((c) => Math.abs(data[i + c]! - background[c]!) > 8);
      if (!differs) continue;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  return { minX, minY, maxX, maxY, width: info.width, height: info.height };
}

describe('draft engine', () => {
  it('writes stills of the asked size, a 512 px preview and an mp4 of the asked duration, fps and format', async () => {
    const outDir = join(dir, 'full');
    const progress: RenderProgress[] = [];
    const result = await engine.render({
      model: ring,
      scene: buildScene('ring', { resolution: { width: 640, height: 480 } }),
      stills: 2,
      preview: true,
      video: { seconds: 1, fps: 12, width: 96, height: 64 },
      outDir,
      onProgress: (p) => progress.push(p),
    });
    expect(result.stills.map((p) => p.slice(outDir.length + 1))).toEqual([
      'still-01-three-quarter-front.png',
      'still-02-front.png',
    ]);
    for (const still of result.stills)
      expect(await sharp(still).metadata()).toMatchObject({ format: 'png', width: 640, height: 480 });
    expect(await sharp(result.preview!).metadata()).toMatchObject({ width: 512, height: 384 });
    const probe = await probeVideo(result.video!);
    expect(probe).toMatchObject({
      codec: 'h264',
      pixFmt: 'yuv420p',
      width: 96,
      height: 64,
      fps: 12,
      frames: 12,
    });
    expect(probe.durationSeconds).toBeCloseTo(1, 1);
    // Progress walks through the stages and counts frames.
    expect(progress.map((p) => p.stage).filter((s, i, all) => s !== all[i - 1])).toEqual([
      'prepare',
      'stills',
      'preview',
      'stills',
      'video',
      'done',
    ]);
    expect(progress.filter((p) => p.stage === 'video').at(-1)).toEqual({
      stage: 'video',
      frame: 12,
      frames: 12,
    });
  });

  it("hands ffmpeg turntable frames of either size in the background's colour around the model", async () => {
    // A saturated background: a chroma plane out of place or scaled wrongly shows as another colour.
    const scene = buildScene('ring', {
      resolution: { width: 64, height: 64 },
      background: { kind: 'color', color: '#3366cc' },
    });
    for (const [width, height] of [
      [96, 64],
      [97, 65],
    ] as const) {
      const result = await engine.render({
        model: ring,
        scene,
        stills: 0,
        video: { seconds: 0.25, fps: 12, width, height },
        outDir: join(dir, `turntable-${width}`),
      });
      // Odd sizes are padded to even by ffmpeg.
      expect(await probeVideo(result.video!)).toMatchObject({ width: width + (width % 2), frames: 3 });
      const decoded = spawnSync(
        ffmpegBinary(),
        [
          '-v',
          'error',
          '-i',
          result.video!,
          '-frames:v',
          '1',
          '-f',
          'rawvideo',
          '-pix_fmt',
          'rgb24',
          'pipe:1',
        ],
        { maxBuffer: 1 << 20 },
      );
      expect(decoded.status).toBe(0);
      const rgb = new Uint8Array(decoded.stdout);
      const w = width + (width % 2);
      const at = (x: number, y: number): number[] => [...rgb.subarray((y * w + x) * 3, (y * w + x) * 3 + 3)];
      for (const [x, y] of [
        [2, 2],
        [w - 4, 4],
        [3, height - 4],
      ] as const)
        at(x, y).forEach((c, i) =>
          expect(Math.abs(c - [0x33, 0x66, 0xcc][i]!), `${x},${y}`).toBeLessThanOrEqual(4),
        );
      // The ring itself: a good part of the frame far from the background's colour.
      let model = 0;
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++)
          if (Math.max(...at(x, y).map((c, i) => Math.abs(c - [0x33, 0x66, 0xcc][i]!))) > 40) model++;
      expect(model).toBeGreaterThan(0.05 * width * height);
    }
  });

  it('frames the model inside the margins, whole and not empty, from every camera', async () => {
    const outDir = join(dir, 'framing');
    const margin = 0.15;
    const scene = buildScene('ring', {
      resolution: { width: 160, height: 120 },
      background: { kind: 'color', color: '#ffffff' },
      groundShadow: false,
      margin,
    });
    const result = await engine.render({ model: ring, scene, stills: 6, outDir });
    for (const still of result.stills) {
      const box = await modelBox(still, [255, 255, 255]);
      expect(box.maxX).toBeGreaterThan(box.minX); // not empty
      const slackX = box.width * margin,
        slackY = box.height * margin;
      expect(box.minX).toBeGreaterThanOrEqual(slackX - 2);
      expect(box.maxX).toBeLessThanOrEqual(box.width - slackX + 1);
      expect(box.minY).toBeGreaterThanOrEqual(slackY - 2);
      expect(box.maxY).toBeLessThanOrEqual(box.height - slackY + 1);
      // Tight on at least one axis: the model reaches the margin there.
      const fillX = (box.maxX - box.minX + 1) / (box.width * (1 - 2 * margin));
      const fillY = (box.maxY - box.minY + 1) / (box.height * (1 - 2 * margin));
      expect(Math.max(fillX, fillY)).toBeGreaterThan(0.95);
    }
  });

  it('renders gold that reads as gold: warm, bright highlights and dark reflections', async () => {
    const outDir = join(dir, 'gold');
    const scene = buildScene('ring', {
      resolution: { width: 128, height: 128 },
      background: { kind: 'color', color: '#ffffff' },
      groundShadow: false,
    });
    const [still] = (await engine.render({ model: ring, scene, stills: 1, outDir })).stills;
    const { data } = await sharp(still!).raw().toBuffer({ resolveWithObject: true });
    let r = 0,
      g = 0,
      b = 0,
      n = 0,
      darkest = 255,
      brightest = 0;
    for (let i = 0; i < data.length; i += 3) {
      if (data[i]! > 250 && data[i + 1]! > 250 && data[i + 2]! > 250) continue;
      r += data[i]!;
      g += data[i + 1]!;
      b += data[i + 2]!;
      n++;
      const luma = (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
      darkest = Math.min(darkest, luma);
      brightest = Math.max(brightest, luma);
    }
    expect(n).toBeGreaterThan(500);
    expect(r / n).toBeGreaterThan(g / n);
    expect(g / n).toBeGreaterThan((b / n) * 1.25);
    expect(brightest - darkest).toBeGreaterThan(150);
  });

  it('gives byte-identical output for the same input', async () => {
    const scene = buildScene('pendant', { resolution: { width: 120, height: 90 } });
    const render = async (name: string) => {
      const result = await engine.render({ model: ring, scene, stills: 2, outDir: join(dir, name) });
      return Promise.all(result.stills.map((p) => readFile(p)));
    };
    const [first, second] = [await render('same-a'), await render('same-b')];
    expect(first.length).toBe(2);
    first.forEach((bytes, i) => expect(Buffer.compare(bytes, second[i]!)).toBe(0));
    const third = await createEngine('draft', { draft: { threads: 1 } });
    try {
      const result = await third.render({ model: ring, scene, stills: 2, outDir: join(dir, 'same-c') });
      const single = await Promise.all(result.stills.map((p) => readFile(p)));
      single.forEach((bytes, i) => expect(Buffer.compare(bytes, first[i]!)).toBe(0));
    } finally {
      await third.close();
    }
  });

  it('writes a transparent background as alpha, keeping the soft shadow', async () => {
    const scene = buildScene('product', {
      resolution: { width: 96, height: 96 },
      background: { kind: 'transparent' },
    });
    const [still] = (await engine.render({ model: ring, scene, stills: 1, outDir: join(dir, 'alpha') }))
      .stills;
    const { data, info } = await sharp(still!).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    expect(data[3]).toBe(0); // top-left corner is see-through
    const alphas = new Set<number>();
    for (let i = 3; i < data.length; i += 4) alphas.add(data[i]!);
    expect(alphas.has(255)).toBe(true); // the model
    expect([...alphas].some((a) => a > 0 && a < 200)).toBe(true); // shadow and edges
  });

  it('stops when cancelled and leaves no partial outputs', async () => {
    const outDir = join(dir, 'cancelled');
    const controller = new AbortController();
    const pending = engine.render({
      model: ring,
      scene: buildScene('ring', { resolution: { width: 64, height: 64 } }),
      stills: 1,
      video: { seconds: 4, fps: 30, width: 64, height: 64 },
      outDir,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.stage === 'video' && p.frame === 5) controller.abort();
      },
    });
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    expect(await readdir(outDir)).toEqual([]);
  });

  it('reports a job time limit (AbortSignal.timeout) as timeout', async () => {
    const outDir = join(dir, 'timed-out');
    const pending = engine.render({
      model: ring,
      scene: buildScene('ring', { resolution: { width: 64, height: 64 } }),
      stills: 0,
      video: { seconds: 60, fps: 30, width: 64, height: 64 },
      outDir,
      signal: AbortSignal.timeout(300),
    });
    await expect(pending).rejects.toMatchObject({ code: 'timeout' });
    expect(await readdir(outDir)).toEqual([]);
  });
});

describe('createEngine', () => {
  it('refuses an unknown engine with engine_unavailable', async () => {
    await expect(createEngine('raytracer' as 'draft')).rejects.toMatchObject({ code: 'engine_unavailable' });
  });
});
