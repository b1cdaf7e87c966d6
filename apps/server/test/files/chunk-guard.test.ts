import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { ChunkGuard } from '../../src/modules/files/chunk-guard';

const MiB = 1024 * 1024;

/** Sends `bytes` through a guard in 64 KiB pieces, as a socket hands them over; answers the asks it made. */
async function reservationsFor(bytes: number, fits: (bytes: number) => boolean) {
  const asks: { bytes: number; ahead: boolean; held: boolean }[] = [];
  const guard = new ChunkGuard(
    { chunkBytes: 8 * MiB, uploadBytes: Infinity },
    async (asked, ahead) => {
      const held = fits(asked);
      asks.push({ bytes: asked, ahead, held });
      return held;
    },
    null,
  );
  const piece = Buffer.alloc(64 * 1024);
  const pieces = Array.from({ length: bytes / piece.length }, () => piece);
  await pipeline(Readable.from(pieces), guard, new Writable({ write: (_chunk, _encoding, done) => done() }));
  return asks;
}

describe('the chunk guard', () => {
  it('holds a whole chunk with one reservation, asked ahead of its bytes', async () => {
    expect(await reservationsFor(8 * MiB, () => true)).toEqual([{ bytes: 8 * MiB, ahead: true, held: true }]);
  });

  it('asks for what arrived, then doubles, when the whole chunk does not fit', async () => {
    const asks = await reservationsFor(4 * MiB, (bytes) => bytes < 8 * MiB);
    expect(asks[0]).toEqual({ bytes: 8 * MiB, ahead: true, held: false });
    expect(asks[1]).toEqual({ bytes: 64 * 1024, ahead: false, held: true });
    // A MiB, then as much as the chunk holds each time: 64 KiB + 1 MiB, then twice that.
    const held = 64 * 1024 + MiB;
    expect(asks.slice(2)).toEqual([MiB, held, 2 * held].map((bytes) => ({ bytes, ahead: true, held: true })));
  });
});
