import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegBinary } from '../src/encode/binaries';
import { probeVideo } from '../src/encode/probe';
import { findChromium, sharedBrowser } from '../src/engines/studio/browser';
import { StudioEngine } from '../src/engines/studio/index';
import { buildScene } from '../src/scene/build-scene';
import { RenderError, type Model, type RenderProgress } from '../src/types';

/** A ring band standing on its edge: a torus in the xy plane with exact normals, resting on y = 0. */
function ringModel(segments = 96, sides = 24): Model {
  const R = 0.009;
  const r = 0.0015;
  const positions = new Float32Array(segments * sides * 3);
  const normals = new Float32Array(segments * sides * 3);
  const indices = new Uint32Array(segments * sides * 6);
  for (let i = 0; i < segments; i++) {
    const u = (i / segments) * Math.PI * 2;
    for (let j = 0; j < sides; j++) {
      const v = (j / sides) * Math.PI * 2;
      const o = (i * sides + j) * 3;
      normals.set([Math.cos(v) * Math.cos(u), Math.cos(v) * Math.sin(u), Math.sin(v)], o);
      positions.set(
        [(R + r * Math.cos(v)) * Math.cos(u), (R + r * Math.cos(v)) * Math.sin(u) + R + r, r * Math.sin(v)],
        o,
      );
      const a = i * sides + j;
      const b = ((i + 1) % segments) * sides + j;
      const c = ((i + 1) % segments) * sides + ((j + 1) % sides);
      const d = i * sides + ((j + 1) % sides);
      indices.set([a, b, c, a, c, d], (i * sides + j) * 6);
    }
  }
  return {
    parts: [{ name: 'band', positions, normals, indices, material: 'band' }],
    bounds: { min: [-R - r, 0, -r], max: [R + r, 2 * (R + r), r] },
    triangleCount: indices.length / 3,
    source: { format: 'stl', fileName: 'ring.stl', unitScale: 1, upAxis: 'y' },
  };
}

/** Box of the pixels whose alpha is set (the model, on a transparent background without shadow). */
async function opaqueBox(
  path: string,
): Promise<{ width: number; height: number; box: [number, number, number, number] | null; gold: number[] }> {
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  let minX = Infinity,
    minY = Infinity,
    maxX = -1,
    maxY = -1;
  const sum = [0, 0, 0];
  let count = 0;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * info.channels;
      if (data[i + 3]! < 128) continue;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      for (let c = 0; c < 3; c++) sum[c]! += data[i + c]!;
      count++;
    }
  }
  return {
    width: info.width,
    height: info.height,
    box: maxX < 0 ? null : [minX, minY, maxX, maxY],
    gold: sum.map((s) => s / Math.max(1, count)),
  };
}

/** The first frame of a video as RGB bytes, decoded by ffmpeg. */
async function firstFrame(path: string): Promise<Buffer> {
  const { stdout } = await promisify(execFile)(
    ffmpegBinary(),
    ['-loglevel', 'error', '-i', path, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

describe('studio engine (three.js in headless Chromium)', () => {
  const engine = new StudioEngine();
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'render-studio-'));
  });
  afterAll(async () => {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('renders framed gold stills, a preview and an H.264 turntable, reusing one browser across jobs', async () => {
    const model = ringModel();
    const margin = 0.12;
    const scene = buildScene('ring', {
      resolution: { width: 320, height: 240 },
      background: { kind: 'transparent' },
      groundShadow: false,
      margin,
    });
    const progress: RenderProgress[] = [];
    const first = await engine.render({
      model,
      scene,
      stills: 2,
      preview: true,
      video: { seconds: 1, fps: 12, width: 160, height: 120 },
      outDir: join(dir, 'first'),
      onProgress: (p) => progress.push(p),
    });
    const browser = await sharedBrowser();

    expect(first.stills).toHaveLength(2);
    for (const still of first.stills) {
      const { width, height, box, gold } = await opaqueBox(still);
      expect([width, height]).toEqual([320, 240]);
      expect(box).not.toBeNull();
      const [minX, minY, maxX, maxY] = box!;
      // Not clipped: a clear border on every side; framed: the tight side fills the frame up to the margin.
      expect(Math.min(minX, minY, width - 1 - maxX, height - 1 - maxY)).toBeGreaterThanOrEqual(4);
      const fill = Math.max((maxX - minX + 1) / width, (maxY - minY + 1) / height);
      expect(fill).toBeGreaterThan((1 - 2 * margin) * 0.85);
      expect(fill).toBeLessThanOrEqual(1 - 2 * margin + 0.03);
      // Centred within a few pixels.
      expect(Math.abs((minX + maxX) / 2 - width / 2)).toBeLessThan(width * 0.04);
      expect(Math.abs((minY + maxY) / 2 - height / 2)).toBeLessThan(height * 0.04);
      // Yellow gold reads warm: red over green over blue, clearly.
      expect(gold[0]! - gold[2]!).toBeGreaterThan(40);
      expect(gold[1]!).toBeGreaterThan(gold[2]!);
    }
    const corner = await sharp(first.stills[0]!)
      .extract({ left: 0, top: 0, width: 1, height: 1 })
      .raw()
      .toBuffer();
    expect(corner[3]).toBe(0);

    const preview = await sharp(first.preview!).metadata();
    expect(Math.max(preview.width!, preview.height!)).toBeLessThanOrEqual(512);

    const video = await probeVideo(first.video!);
    expect(video).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p', width: 160, height: 120, fps: 12 });
    expect(video.durationSeconds).toBeGreaterThan(0.9);
    expect(video.durationSeconds).toBeLessThan(1.1);

    // The frame survived the GPU conversion to yuv420p: a white backdrop (mp4 has no alpha) around a
    // gold ring in the middle of the picture.
    const rgb = await firstFrame(first.video!);
    expect(rgb.length).toBe(160 * 120 * 3);
    expect([...rgb.subarray(0, 3)].every((v) => v > 235)).toBe(true);
    let minX = 160,
      maxX = -1,
      warm = 0,
      count = 0;
    for (let i = 0; i < rgb.length; i += 3) {
      if (rgb[i]! + rgb[i + 1]! + rgb[i + 2]! > 3 * 225) continue;
      const x = (i / 3) % 160;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      warm += rgb[i]! - rgb[i + 2]!;
      count++;
    }
    expect(count).toBeGreaterThan(300);
    expect(warm / count).toBeGreaterThan(40);
    expect(Math.abs((minX + maxX) / 2 - 80)).toBeLessThan(8);

    const videoFrames = progress.filter((p) => p.stage === 'video').map((p) => p.frame);
    expect(videoFrames.at(-1)).toBe(12);
    expect(progress.at(-1)).toEqual({ stage: 'done' });

    // A second job on the same engine draws in the same browser, with an opaque gradient and a shadow.
    const second = await engine.render({
      model,
      scene: buildScene('ring', { resolution: { width: 200, height: 200 } }),
      stills: 1,
      outDir: join(dir, 'second'),
    });
    expect(await sharedBrowser()).toBe(browser);
    expect(browser.isConnected()).toBe(true);
    const { data, info } = await sharp(second.stills[0]!).raw().toBuffer({ resolveWithObject: true });
    // An opaque background gives an RGB file.
    expect([info.width, info.height, info.channels]).toEqual([200, 200, 3]);
    // The ground under the ring is darker than the background beside it (the contact shadow).
    const at = (x: number, y: number): number => data[(y * info.width + x) * info.channels]!;
    const footY = Math.round(info.height * 0.9);
    let darkest = 255;
    for (let y = footY - 12; y < Math.min(info.height, footY + 12); y++)
      darkest = Math.min(darkest, at(100, y));
    expect(at(4, footY)).toBeGreaterThan(darkest + 20);
  });

  it('stops a turntable when cancelled and leaves no outputs behind', async () => {
    const controller = new AbortController();
    const outDir = join(dir, 'cancelled');
    const job = engine.render({
      model: ringModel(),
      scene: buildScene('ring', { resolution: { width: 128, height: 128 } }),
      stills: 1,
      video: { seconds: 10, fps: 24, width: 128, height: 128 },
      outDir,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.stage === 'video' && p.frame === 3) controller.abort();
      },
    });
    await expect(job).rejects.toMatchObject({ code: 'cancelled' });
    await expect(job).rejects.toBeInstanceOf(RenderError);
    expect(await readdir(outDir)).toEqual([]);
  });

  it("takes the browser from CHROMIUM_PATH first, then Debian's Chromium", async () => {
    const configured = process.env.CHROMIUM_PATH;
    try {
      process.env.CHROMIUM_PATH = '/opt/custom/chrome';
      expect(await findChromium()).toEqual({ path: '/opt/custom/chrome', source: 'CHROMIUM_PATH' });
      delete process.env.CHROMIUM_PATH;
      const found = await findChromium();
      expect(found.path).toBeTruthy();
      expect(found.source).not.toBe('CHROMIUM_PATH');
    } finally {
      if (configured === undefined) delete process.env.CHROMIUM_PATH;
      else process.env.CHROMIUM_PATH = configured;
    }
  });

  it('refuses an empty model with a typed error', async () => {
    const empty: Model = { ...ringModel(), parts: [], triangleCount: 0 };
    await expect(
      engine.render({ model: empty, scene: buildScene('ring'), stills: 1, outDir: join(dir, 'empty') }),
    ).rejects.toMatchObject({ code: 'empty_model' });
  });
});
