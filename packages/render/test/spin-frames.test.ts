import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Binaries from '../src/encode/binaries';
import { extractSpinFrames, openVideoSink } from '../src/index';

// A test may stand a script in for ffmpeg (probing and encoding the turntable keep the real tools).
const ffmpegStandIn = vi.hoisted(() => ({ path: undefined as string | undefined }));
vi.mock('../src/encode/binaries', async (importOriginal) => {
  const actual = await importOriginal<typeof Binaries>();
  return { ...actual, ffmpegBinary: () => ffmpegStandIn.path ?? actual.ffmpegBinary() };
});
afterEach(() => {
  ffmpegStandIn.path = undefined;
});

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

  describe('stopped by its signal (the render cancelled or out of time)', () => {
    /** An ffmpeg that writes its process id to `pidFile` and then hangs. */
    async function hangingFfmpeg(pidFile: string): Promise<string> {
      const script = join(dir, 'hanging-ffmpeg.sh');
      await writeFile(script, `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 60\n`);
      await chmod(script, 0o755);
      return script;
    }

    async function pidIn(pidFile: string): Promise<number> {
      for (;;) {
        const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
        if (pid) return pid;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    const running = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };

    it('kills its ffmpeg and answers cancelled, taking no frames', async () => {
      const video = join(dir, 'stopped.mp4');
      await turntable(video, 8);
      const out = join(dir, 'stopped');
      await mkdir(out);
      const pidFile = join(dir, 'ffmpeg.pid');
      ffmpegStandIn.path = await hangingFfmpeg(pidFile);
      const controller = new AbortController();

      const extraction = extractSpinFrames(video, out, { signal: controller.signal });
      const pid = await pidIn(pidFile);
      controller.abort();
      await expect(extraction).rejects.toMatchObject({ code: 'cancelled' });
      // Killed, and gone once Node has reaped it.
      await vi.waitFor(() => expect(running(pid)).toBe(false));
      expect(await readdir(out)).toEqual([]);
    });

    it('starts no ffmpeg when the signal has already stopped', async () => {
      const video = join(dir, 'never.mp4');
      await turntable(video, 8);
      const out = join(dir, 'never');
      await mkdir(out);
      const pidFile = join(dir, 'never-ffmpeg.pid');
      ffmpegStandIn.path = await hangingFfmpeg(pidFile);

      const extraction = extractSpinFrames(video, out, { signal: AbortSignal.abort() });
      await expect(extraction).rejects.toMatchObject({ code: 'cancelled' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expect(readFile(pidFile)).rejects.toMatchObject({ code: 'ENOENT' });
    });
  });
});
