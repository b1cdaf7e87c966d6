import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Bytes of a xorshift32 stream from `seed`: the same on every run, and no compressor shrinks them. */
export function* seededNoise(seed: number, bytes: number, pieceBytes = 1024 * 1024): Generator<Buffer> {
  let x = seed | 0 || 1;
  for (let left = bytes; left > 0;) {
    const piece = Buffer.allocUnsafe(Math.min(pieceBytes, left));
    for (let i = 0; i + 4 <= piece.length; i += 4) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      piece.writeInt32LE(x, i);
    }
    for (let i = piece.length - (piece.length % 4); i < piece.length; i++) piece[i] = i & 0xff;
    left -= piece.length;
    yield piece;
  }
}

/** `bytes` of seeded noise in memory, for small test files. */
export function seededBuffer(seed: number, bytes: number): Buffer {
  return Buffer.concat([...seededNoise(seed, bytes)]);
}

/** Writes `bytes` of seeded noise to a file a piece at a time, never holding the whole in memory. */
export async function writeSeededFile(path: string, seed: number, bytes: number): Promise<void> {
  await pipeline(Readable.from(seededNoise(seed, bytes)), createWriteStream(path));
}
