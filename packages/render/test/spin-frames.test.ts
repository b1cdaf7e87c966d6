import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractSpinFrames, openVideoSink } from '../src/index';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'render-spin-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A flat grey frame, lighter with each frame of the turn. */
function greyFrame(width: number, height: number, level: number): Uint8Array {
  const frame = new Uint8Array(width * height * 4).fill(level);
  for (let i = 3; i < frame.length; i += 4) frame[i] = 255;
  return frame;
}

async function turntable(path: string, frames: number): Promise<void> {
  const sink = openVideoSink({ path, width: 64, height: 48, fps: 8 });
  for (let f = 0; f < frames; f++) await sink.write(greyFrame(64, 48, 20 + f * 14));
  await sink.finish();
}

describe('spin frames', () => {
  it('takes frames at equal steps of the turn, in order, as WebP no larger than asked', async () => {
    const video = join(dir, 'turn.mp4');
    await turntable(video, 16);
    const out = join(dir, 'four');
    await mkdir(out);
    const frames = await extractSpinFrames(video, out, { frames: 4, maxSide: 32 });
    expect(frames.map((path) => path.slice(out.length + 1))).toEqual([
      'spin-00.webp',
      'spin-01.webp',
      'spin-02.webp',
      'spin-03.webp',
    ]);
    const levels: number[] = [];
    for (const path of frames) {
      const { info, data } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
      expect((await sharp(path).metadata()).format).toBe('webp');
      expect([info.width, info.height]).toEqual([32, 24]);
      levels.push(data[0]!);
    }
    // Frames 0, 4, 8 and 12 of the turn: each step four frames (4 × 14 grey levels) lighter.
    const steps = levels.slice(1).map((level, i) => level - levels[i]!);
    for (const step of steps) expect(step).toBeGreaterThan(40);
    expect(steps.every((step) => step < 72)).toBe(true);
  });

  it('never asks for more frames than the video has', async () => {
    const video = join(dir, 'short.mp4');
    await turntable(video, 3);
    const out = join(dir, 'short');
    await mkdir(out);
    expect(await extractSpinFrames(video, out, { frames: 36 })).toHaveLength(3);
  });
});
