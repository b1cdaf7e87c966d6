import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng, openVideoSink, probeVideo, RenderError, writePng } from '../src/index';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'render-encode-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function gradientFrame(width: number, height: number, t: number): Uint8Array {
  const frame = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      frame[i] = (x * 4 + t * 8) & 255;
      frame[i + 1] = (y * 4) & 255;
      frame[i + 2] = 128;
      frame[i + 3] = 255;
    }
  }
  return frame;
}

describe('png encoder', () => {
  it('writes float RGB and byte RGBA buffers at their size with their pixels', async () => {
    const floats = new Float32Array(4 * 2 * 3);
    floats.set([1, 0, 0]); // top-left red
    floats.set([0, 0, 1], floats.length - 3); // bottom-right blue
    const png = await encodePng({ width: 4, height: 2, channels: 3, data: floats });
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([4, 2, 3]);
    expect([...data.subarray(0, 3)]).toEqual([255, 0, 0]);
    expect([...data.subarray(data.length - 3)]).toEqual([0, 0, 255]);

    const path = await writePng(
      { width: 64, height: 48, channels: 4, data: gradientFrame(64, 48, 0) },
      join(dir, 'a.png'),
    );
    const meta = await sharp(path).metadata();
    expect([meta.format, meta.width, meta.height, meta.channels]).toEqual(['png', 64, 48, 4]);
  });

  it('shrinks to a preview size keeping the aspect ratio', async () => {
    const png = await encodePng(
      { width: 64, height: 48, channels: 4, data: gradientFrame(64, 48, 0) },
      { maxSize: 32 },
    );
    const meta = await sharp(png).metadata();
    expect([meta.width, meta.height]).toEqual([32, 24]);
  });

  it('rejects a buffer that does not match its size', async () => {
    await expect(encodePng({ width: 4, height: 4, channels: 4, data: new Uint8Array(10) })).rejects.toThrow(
      RangeError,
    );
  });
});

describe('video sink', () => {
  it('encodes streamed frames to an H.264 yuv420p mp4 of the asked duration and fps', async () => {
    const path = join(dir, 'clip.mp4');
    const sink = openVideoSink({ path, width: 64, height: 48, fps: 24 });
    for (let f = 0; f < 48; f++) await sink.write(gradientFrame(64, 48, f));
    expect(await sink.finish()).toEqual({ path, frames: 48 });
    const probe = await probeVideo(path);
    expect(probe).toMatchObject({
      codec: 'h264',
      pixFmt: 'yuv420p',
      width: 64,
      height: 48,
      fps: 24,
      frames: 48,
    });
    expect(probe.durationSeconds).toBeCloseTo(2, 1);
  });

  it('pads odd sizes to even, as yuv420p needs', async () => {
    const path = join(dir, 'odd.mp4');
    const sink = openVideoSink({ path, width: 33, height: 21, fps: 10 });
    for (let f = 0; f < 5; f++) await sink.write(new Uint8Array(33 * 21 * 4).fill(200));
    await sink.finish();
    expect(await probeVideo(path)).toMatchObject({ width: 34, height: 22, pixFmt: 'yuv420p' });
  });

  it('runs ffmpeg with the environment variables it is given added', async () => {
    // FFREPORT makes ffmpeg write a log of its run to the file named.
    const report = join(dir, 'report.log');
    const sink = openVideoSink({
      path: join(dir, 'env.mp4'),
      width: 64,
      height: 48,
      fps: 10,
      pixelFormat: 'yuv420p',
      env: { FFREPORT: `file=${report}:level=32` },
    });
    for (let f = 0; f < 3; f++) await sink.write(new Uint8Array(64 * 48 * 1.5).fill(128));
    await sink.finish();
    expect(await readFile(report, 'utf8')).toContain('libx264');
  });

  it('aborts through its signal, leaving no partial file', async () => {
    const path = join(dir, 'aborted.mp4');
    const controller = new AbortController();
    const sink = openVideoSink({ path, width: 64, height: 48, fps: 30, signal: controller.signal });
    await sink.write(gradientFrame(64, 48, 0));
    controller.abort();
    await sink.abort();
    await expect(sink.write(gradientFrame(64, 48, 1))).rejects.toMatchObject({ code: 'cancelled' });
    await expect(stat(path)).rejects.toThrow();
  });

  it('rejects frames of the wrong size and a finish without frames', async () => {
    const sink = openVideoSink({ path: join(dir, 'empty.mp4'), width: 64, height: 48, fps: 30 });
    await expect(sink.write(new Uint8Array(12))).rejects.toThrow(RangeError);
    await expect(sink.finish()).rejects.toMatchObject({ code: 'encoder_failed' });
  });

  it('probe gives a typed error for a missing or unreadable file', async () => {
    await expect(probeVideo(join(dir, 'missing.mp4'))).rejects.toBeInstanceOf(RenderError);
  });
});
