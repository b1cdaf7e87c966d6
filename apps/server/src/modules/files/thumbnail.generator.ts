import { THUMBNAIL_SIZES, type ThumbnailSize } from '@atelier/contracts';
import { ffmpegBinary } from '@atelier/render/binaries';
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import sharp from 'sharp';

export interface Thumbnail {
  size: ThumbnailSize;
  data: Buffer;
  width: number;
  height: number;
}

// Raster formats sharp's bundled libvips decodes; SVG is rasterised, so no script survives into a thumbnail.
const IMAGE_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/tiff',
  'image/svg+xml',
]);

/** What a thumbnail is made from: the image itself, a video's poster frame, or nothing. */
export function thumbnailSource(mimetype: string): 'image' | 'video' | null {
  if (IMAGE_TYPES.has(mimetype)) return 'image';
  if (mimetype.startsWith('video/')) return 'video';
  return null;
}

/** Photos up to about 100 megapixels get thumbnails; larger images are left without. */
const MAX_INPUT_PIXELS = 100_000_000;

/** Every thumbnail size of one image, decoded once; upright per EXIF and never enlarged. */
export async function makeImageThumbnails(input: Readable | Buffer): Promise<Thumbnail[]> {
  // A decompression bomb (a tiny file claiming billions of pixels) is refused instead of filling memory.
  const decoder = sharp({
    failOn: 'error',
    animated: false,
    limitInputPixels: MAX_INPUT_PIXELS,
    sequentialRead: true,
  }).rotate();
  const done = Promise.all(
    (Object.entries(THUMBNAIL_SIZES) as [ThumbnailSize, number][]).map(async ([size, side]) => {
      const { data, info } = await decoder
        .clone()
        .resize(side, side, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer({ resolveWithObject: true });
      return { size, data, width: info.width, height: info.height };
    }),
  );
  if (Buffer.isBuffer(input)) decoder.end(input);
  else input.on('error', (error) => decoder.destroy(error)).pipe(decoder);
  return done;
}

const POSTER_TIMEOUT_MS = 60_000;

/**
 * A representative frame of a video as PNG (ffmpeg's `thumbnail` filter skips black or blurred
 * opening frames). Takes a file path: MP4s often keep their index at the end, which needs seeking.
 */
export function makeVideoPoster(videoPath: string): Promise<Buffer> {
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', videoPath];
  args.push('-vf', `thumbnail,scale='min(${THUMBNAIL_SIZES.lg},iw)':-2`, '-frames:v', '1');
  args.push('-f', 'image2pipe', '-vcodec', 'png', 'pipe:1');
  return new Promise((resolve, reject) => {
    const ffmpeg = spawn(ffmpegBinary(), args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: POSTER_TIMEOUT_MS,
    });
    const frames: Buffer[] = [];
    let errors = '';
    ffmpeg.stdout.on('data', (chunk: Buffer) => frames.push(chunk));
    ffmpeg.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-2000)));
    ffmpeg.on('error', reject);
    ffmpeg.on('close', (code) => {
      const png = Buffer.concat(frames);
      if (code === 0 && png.length > 0) resolve(png);
      else reject(new Error(`ffmpeg made no poster frame (exit ${code}): ${errors.trim()}`));
    });
  });
}
