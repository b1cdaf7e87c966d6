import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { abortError } from '../abort';
import { RenderError } from '../types';
import { ffmpegBinary } from './binaries';
import { probeVideo } from './probe';

const run = promisify(execFile);

export interface SpinFrameOptions {
  /** How many frames to take, evenly over one turn (the turntable's whole length). */
  frames?: number;
  /** Longest side of each frame, in pixels; never larger than the video. */
  maxSide?: number;
  /** WebP quality, 1 to 100. */
  quality?: number;
  /** Stops the extraction (its ffmpeg killed) when the render it is part of is stopped. */
  signal?: AbortSignal;
}

/** Frames of a 360° spin: 36 (one every 10°) keeps a drag smooth while each frame stays small. */
export const SPIN_FRAMES = 36;
const SPIN_MAX_SIDE = 720;

/**
 * Takes `frames` evenly spaced frames of a turntable video as WebP files (`spin-00.webp`, …) in
 * `outDir`, in turn order: the frames a product page's 360° spin steps through. Answers their paths.
 */
export async function extractSpinFrames(
  videoPath: string,
  outDir: string,
  options: SpinFrameOptions = {},
): Promise<string[]> {
  const { signal } = options;
  if (signal?.aborted) throw abortError(signal, 'spin frames');
  const wanted = options.frames ?? SPIN_FRAMES;
  const probe = await probeVideo(videoPath);
  // A stream that does not state its frame count has it from its length and rate.
  const total = probe.frames || Math.round(probe.durationSeconds * probe.fps);
  const count = Math.max(1, Math.min(wanted, total));
  const side = Math.min(options.maxSide ?? SPIN_MAX_SIDE, Math.max(probe.width, probe.height));
  const scale = probe.width >= probe.height ? `${side}:-2` : `-2:${side}`;
  // Every step-th frame, so a turn's frames are taken at equal angles whatever the video's rate.
  const step = total / count;
  try {
    await run(
      ffmpegBinary(),
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-i',
        videoPath,
        '-vf',
        `select='lt(mod(n\\,${step})\\,1)',scale=${scale}`,
        '-vsync',
        'vfr',
        '-frames:v',
        String(count),
        join(outDir, 'spin-raw-%03d.png'),
      ],
      { signal },
    );
  } catch (error) {
    // ffmpeg killed by the signal is a stop, not a fault of the encoder.
    if (signal?.aborted) throw abortError(signal, 'spin frames');
    throw new RenderError('encoder_failed', `ffmpeg could not take the spin frames: ${String(error)}`);
  }
  const raw = (await readdir(outDir)).filter((name) => name.startsWith('spin-raw-')).sort();
  return Promise.all(
    raw.map(async (name, index) => {
      const path = join(outDir, `spin-${String(index).padStart(2, '0')}.webp`);
      await sharp(join(outDir, name))
        .webp({ quality: options.quality ?? 80 })
        .toFile(path);
      return path;
    }),
  );
}
