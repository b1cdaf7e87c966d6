import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHUNK_AVG, CHUNK_MAX, CHUNK_MIN, Chunker, chunkBoundaries } from '../src';

/** Deterministic pseudo-random bytes (xorshift32), so a failure repeats. */
function randomBytes(length: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = seed | 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

function chunksOf(data: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const end of chunkBoundaries(data)) {
    chunks.push(data.subarray(start, end));
    start = end;
  }
  return chunks;
}

/** Pushes `data` in pieces of the sizes `sizes` gives in turn, and answers the chunks' end offsets. */
function streamedCuts(data: Uint8Array, sizes: () => number): number[] {
  const chunker = new Chunker();
  const cuts: number[] = [];
  let end = 0;
  const record = (chunks: Uint8Array[]) => {
    for (const chunk of chunks) cuts.push((end += chunk.length));
  };
  for (let offset = 0; offset < data.length;) {
    const size = Math.min(sizes(), data.length - offset);
    record(chunker.push(data.subarray(offset, offset + size)));
    offset += size;
  }
  record(chunker.finish());
  return cuts;
}

describe('chunkBoundaries', () => {
  const data = randomBytes(24 * 1024 * 1024, 7);

  it('cuts the same bytes the same way every time, and the cuts cover the buffer in order', () => {
    const cuts = chunkBoundaries(data);
    expect(chunkBoundaries(data.slice())).toEqual(cuts);
    expect(cuts.at(-1)).toBe(data.length);
    for (let i = 1; i < cuts.length; i++) expect(cuts[i]!).toBeGreaterThan(cuts[i - 1]!);
    // Other bytes cut elsewhere: the cuts come from the content.
    expect(chunkBoundaries(randomBytes(data.length, 8))).not.toEqual(cuts);
  });

  it('keeps every chunk but the last within the bounds, and their sizes near the average', () => {
    const cuts = chunkBoundaries(data);
    const sizes = cuts.map((end, i) => end - (i === 0 ? 0 : cuts[i - 1]!));
    for (const size of sizes.slice(0, -1)) {
      expect(size).toBeGreaterThanOrEqual(CHUNK_MIN);
      expect(size).toBeLessThanOrEqual(CHUNK_MAX);
    }
    expect(sizes.at(-1)!).toBeLessThanOrEqual(CHUNK_MAX);
    const mean = data.length / sizes.length;
    expect(mean).toBeGreaterThan(CHUNK_AVG / 2);
    expect(mean).toBeLessThan(CHUNK_AVG * 2);
  });

  it('cuts bytes without content-defined cut points (all zeros) at the maximum size', () => {
    const zeros = new Uint8Array(CHUNK_MAX * 2 + 10);
    const cuts = chunkBoundaries(zeros);
    const sizes = cuts.map((end, i) => end - (i === 0 ? 0 : cuts[i - 1]!));
    for (const size of sizes.slice(0, -1)) {
      expect(size).toBeGreaterThanOrEqual(CHUNK_MIN);
      expect(size).toBeLessThanOrEqual(CHUNK_MAX);
    }
    expect(cuts.at(-1)).toBe(zeros.length);
  });

  it('answers no cut for no bytes, and one chunk for fewer bytes than the minimum', () => {
    expect(chunkBoundaries(new Uint8Array(0))).toEqual([]);
    expect(chunkBoundaries(randomBytes(1000))).toEqual([1000]);
    expect(chunkBoundaries(randomBytes(CHUNK_MIN))).toEqual([CHUNK_MIN]);
  });
});

describe('Chunker', () => {
  it('gives the same cuts as chunkBoundaries however the bytes are pushed', () => {
    const data = randomBytes(12 * 1024 * 1024 + 12345, 3);
    const expected = chunkBoundaries(data);
    expect(expected.length).toBeGreaterThan(3);
    let seed = 99;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    expect(streamedCuts(data, () => data.length)).toEqual(expected);
    expect(streamedCuts(data, () => CHUNK_MAX)).toEqual(expected);
    expect(streamedCuts(data, () => CHUNK_MAX + 1)).toEqual(expected);
    expect(streamedCuts(data, () => 64 * 1024)).toEqual(expected);
    expect(streamedCuts(data, () => 1 + (next() % (3 * 1024 * 1024)))).toEqual(expected);
    expect(streamedCuts(data, () => 1 + (next() % 4096))).toEqual(expected);
  });

  it('gives the same cuts when pushed one byte at a time', () => {
    const data = randomBytes(3 * 1024 * 1024 + 7, 5);
    expect(streamedCuts(data, () => 1)).toEqual(chunkBoundaries(data));
  });

  it('returns chunks holding the pushed bytes, which stay intact after more pushes', () => {
    const data = randomBytes(9 * 1024 * 1024, 11);
    const chunker = new Chunker();
    const chunks = [...chunker.push(data.subarray(0, 5_000_000)), ...chunker.push(data.subarray(5_000_000))];
    chunks.push(...chunker.finish());
    expect(chunks.map(sha256)).toEqual(chunksOf(data).map(sha256));
    expect(chunker.finish()).toEqual([]);
    expect(() => chunker.push(new Uint8Array(1))).toThrow();
  });

  it('finishes nothing when nothing was pushed', () => {
    const chunker = new Chunker();
    expect(chunker.push(new Uint8Array(0))).toEqual([]);
    expect(chunker.finish()).toEqual([]);
  });
});

describe('an edit changes only the chunks near it', () => {
  const data = randomBytes(64 * 1024 * 1024, 42);
  const before = new Set(chunksOf(data).map(sha256));

  const newChunks = (edited: Uint8Array) =>
    chunksOf(edited).filter((chunk) => !before.has(sha256(chunk))).length;

  it('an insert of a few bytes in the middle of 64 MiB changes 1 to 3 chunks', () => {
    const middle = data.length / 2 + 12_345;
    const inserted = new Uint8Array(data.length + 5);
    inserted.set(data.subarray(0, middle));
    inserted.set([1, 2, 3, 4, 5], middle);
    inserted.set(data.subarray(middle), middle + 5);
    const changed = newChunks(inserted);
    expect(changed).toBeGreaterThanOrEqual(1);
    expect(changed).toBeLessThanOrEqual(3);
  });

  it('an overwrite of a few bytes and a deletion change 1 to 3 chunks', () => {
    const overwritten = data.slice();
    overwritten.set([9, 9, 9], 10_000_000);
    expect(newChunks(overwritten)).toBeGreaterThanOrEqual(1);
    expect(newChunks(overwritten)).toBeLessThanOrEqual(3);
    const deleted = new Uint8Array(data.length - 100);
    deleted.set(data.subarray(0, 40_000_000));
    deleted.set(data.subarray(40_000_100), 40_000_000);
    expect(newChunks(deleted)).toBeGreaterThanOrEqual(1);
    expect(newChunks(deleted)).toBeLessThanOrEqual(3);
  });

  it('moves no cut point more than the mean chunk away from an edit, however many edits', () => {
    // Eight places, each 64 KiB overwritten; every other one also has 1,000 bytes inserted after it.
    const places = Array.from({ length: 8 }, (_, i) => (i + 1) * 7 * 1024 * 1024 + i * 12_345);
    const pieces: Uint8Array[] = [];
    const shifts: number[] = [];
    let from = 0;
    let shift = 0;
    for (const [i, place] of places.entries()) {
      pieces.push(data.subarray(from, place), randomBytes(64 * 1024, 100 + i));
      from = place + 64 * 1024;
      if (i % 2 === 1) {
        pieces.push(randomBytes(1000, 200 + i));
        shift += 1000;
      }
      shifts.push(shift);
    }
    pieces.push(data.subarray(from));
    const edited = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
    pieces.reduce((offset, piece) => (edited.set(piece, offset), offset + piece.length), 0);

    // An old cut far from every place, where the edited file has it (moved by the bytes inserted before it).
    const moved = (cut: number) => {
      const near = places.some((place) => cut > place - CHUNK_AVG && cut < place + 64 * 1024 + CHUNK_AVG);
      const before = places.filter((place) => place < cut).length;
      return near ? null : cut + (before === 0 ? 0 : shifts[before - 1]!);
    };
    const expected = chunkBoundaries(data).flatMap((cut) => moved(cut) ?? []);
    const cuts = new Set(chunkBoundaries(edited));
    expect(expected.length).toBeGreaterThan(30);
    expect(expected.filter((cut) => !cuts.has(cut))).toEqual([]);
  });
});
