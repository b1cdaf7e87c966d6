import sharp from 'sharp';

/**
 * A raw image: `channels` interleaved samples per pixel, row-major from the top-left.
 * Byte samples are 0..255; float samples are display-referred 0..1 (already tone mapped).
 */
export interface RawImage {
  width: number;
  height: number;
  channels: 3 | 4;
  data: Uint8Array | Uint8ClampedArray | Float32Array;
}

export interface PngOptions {
  /** Fit inside a square of this many pixels (keeps the aspect ratio), e.g. 512 for previews. */
  maxSize?: number;
  /** zlib level 0..9; 6 balances size and speed for 2048² stills. */
  compressionLevel?: number;
  /** Drop the alpha channel of RGBA input (smaller files for opaque backgrounds). */
  opaque?: boolean;
}

function toBytes(image: RawImage): Uint8Array | Uint8ClampedArray {
  const expected = image.width * image.height * image.channels;
  if (image.data.length !== expected) {
    throw new RangeError(`raw image has ${image.data.length} samples, expected ${expected}`);
  }
  if (!(image.data instanceof Float32Array)) return image.data;
  const bytes = new Uint8Array(expected);
  const src = image.data;
  for (let i = 0; i < expected; i++) {
    const v = src[i]!;
    bytes[i] = v <= 0 ? 0 : v >= 1 ? 255 : Math.round(v * 255);
  }
  return bytes;
}

function pipeline(image: RawImage, options: PngOptions): sharp.Sharp {
  const bytes = toBytes(image);
  let s = sharp(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
    raw: { width: image.width, height: image.height, channels: image.channels },
  });
  if (options.opaque && image.channels === 4) s = s.removeAlpha();
  if (options.maxSize && Math.max(image.width, image.height) > options.maxSize) {
    s = s.resize(options.maxSize, options.maxSize, { fit: 'inside', kernel: 'lanczos3' });
  }
  return s.png({ compressionLevel: options.compressionLevel ?? 6, adaptiveFiltering: false });
}

export async function encodePng(image: RawImage, options: PngOptions = {}): Promise<Buffer> {
  return pipeline(image, options).toBuffer();
}

export async function writePng(image: RawImage, path: string, options: PngOptions = {}): Promise<string> {
  await pipeline(image, options).toFile(path);
  return path;
}
