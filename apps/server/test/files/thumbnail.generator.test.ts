import { THUMBNAIL_SIZES } from '@atelier/contracts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeImageThumbnails,
  makeVideoPoster,
  thumbnailSource,
} from '../../src/modules/files/thumbnail.generator';
import { writeClip } from './files-harness';

/** Just the signature and header of a PNG announcing `width` x `height` pixels: a decompression bomb's calling card. */
function pngHeader(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const data = chunk('IDAT', deflateSync(Buffer.alloc(1024)));
  return Buffer.concat([signature, chunk('IHDR', header), data, chunk('IEND', Buffer.alloc(0))]);
}

describe('image thumbnails', () => {
  it('makes every size, keeping the aspect ratio, as webp', async () => {
    const photo = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer();
    const thumbnails = await makeImageThumbnails(Readable.from([photo]));
    expect(thumbnails.map((t) => t.size)).toEqual(Object.keys(THUMBNAIL_SIZES));
    for (const thumbnail of thumbnails) {
      const side = THUMBNAIL_SIZES[thumbnail.size];
      const meta = await sharp(thumbnail.data).metadata();
      expect(meta.format).toBe('webp');
      expect([meta.width, meta.height]).toEqual([side, side / 2]);
      expect([thumbnail.width, thumbnail.height]).toEqual([side, side / 2]);
    }
  });

  it('never enlarges a small image', async () => {
    const icon = await sharp({ create: { width: 50, height: 30, channels: 4, background: '#0000' } })
      .png()
      .toBuffer();
    for (const thumbnail of await makeImageThumbnails(icon)) {
      expect([thumbnail.width, thumbnail.height]).toEqual([50, 30]);
    }
  });

  it('turns a photo upright as its EXIF orientation says', async () => {
    const sideways = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#888' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const [xs] = await makeImageThumbnails(sideways);
    expect([xs?.width, xs?.height]).toEqual([48, 96]);
  });

  it('refuses an image claiming more pixels than it may decode', async () => {
    await expect(makeImageThumbnails(pngHeader(12_000, 12_000))).rejects.toThrow(/pixel limit/i);
  });

  it('rejects bytes that are not an image', async () => {
    await expect(makeImageThumbnails(Buffer.from('not an image at all'))).rejects.toThrow();
  });
});

describe('video poster', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'atelier-poster-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('takes a frame of an MP4 whose index sits at the end', async () => {
    const video = join(dir, 'clip.mp4');
    await writeClip(video, 'color=c=red');
    const poster = await makeVideoPoster(video);
    const { width, height, format } = await sharp(poster).metadata();
    expect({ width, height, format }).toEqual({ width: 320, height: 240, format: 'png' });
    const { channels } = await sharp(poster).stats();
    expect(channels[0]?.mean).toBeGreaterThan(200);
    expect(channels[1]?.mean).toBeLessThan(50);
  });

  it('fails clearly on a file that is no video', async () => {
    const bogus = join(dir, 'bogus.mp4');
    await writeFile(bogus, 'this is a text file, not a video');
    await expect(makeVideoPoster(bogus)).rejects.toThrow('ffmpeg made no poster frame');
  });
});

describe('thumbnailSource', () => {
  it('knows which types get a thumbnail', () => {
    expect(thumbnailSource('image/jpeg')).toBe('image');
    expect(thumbnailSource('image/svg+xml')).toBe('image');
    expect(thumbnailSource('video/quicktime')).toBe('video');
    expect(thumbnailSource('application/pdf')).toBeNull();
    expect(thumbnailSource('image/x-icon')).toBeNull();
  });
});
