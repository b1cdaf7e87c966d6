import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { RenderError } from '../types';
import { ffprobeBinary } from './binaries';

const run = promisify(execFile);

export interface VideoProbe {
  durationSeconds: number;
  fps: number;
  codec: string;
  pixFmt: string;
  width: number;
  height: number;
  frames: number;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  nb_frames?: string;
  duration?: string;
}

function parseRate(rate: string | undefined): number {
  if (!rate) return 0;
  const [num, den] = rate.split('/').map(Number);
  return den ? num! / den : (num ?? 0);
}

/** Reads the first video stream of a media file with ffprobe. */
export async function probeVideo(path: string): Promise<VideoProbe> {
  let stdout: string;
  try {
    ({ stdout } = await run(
      ffprobeBinary(),
      ['-v', 'error', '-select_streams', 'v:0', '-show_streams', '-show_format', '-of', 'json', path],
      { timeout: 30_000 },
    ));
  } catch (error) {
    throw new RenderError('corrupt_file', `ffprobe could not read ${path}: ${(error as Error).message}`);
  }
  const parsed = JSON.parse(stdout) as { streams?: FfprobeStream[]; format?: { duration?: string } };
  const stream = parsed.streams?.find((s) => s.codec_type === 'video');
  if (!stream) throw new RenderError('corrupt_file', `${path} has no video stream`);
  return {
    durationSeconds: Number(stream.duration ?? parsed.format?.duration ?? 0),
    fps: parseRate(stream.avg_frame_rate) || parseRate(stream.r_frame_rate),
    codec: stream.codec_name ?? '',
    pixFmt: stream.pix_fmt ?? '',
    width: stream.width ?? 0,
    height: stream.height ?? 0,
    frames: Number(stream.nb_frames ?? 0),
  };
}
