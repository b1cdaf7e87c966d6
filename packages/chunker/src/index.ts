/**
 * Content-defined chunking by local maxima (Bjørner, Blass and Gurevich, "Content-dependent chunking
 * for differential compression: the local maximum approach", 2010) on a gear rolling hash: a file is
 * cut after a byte whose hash is the greatest of the hashes less than WINDOW bytes away on either
 * side. Whether a byte is a cut point depends only on the bytes around it, never on where its chunk
 * began, so an edit moves only the cut points less than WINDOW bytes from it, and the chunks after it
 * are the same as before from the first cut point past that. (FastCDC, used before, decides a cut by
 * its distance from the chunk's start, so after an edit its cuts could stay shifted for several
 * chunks: on the versions bench a save that changed 1 % of a file sent up to 8.9 % of it; see
 * docs/performance.md.)
 *
 * Cut points lie at least WINDOW bytes apart, about 2 × WINDOW on average (CHUNK_AVG); a chunk ends at
 * the first cut point at least CHUNK_MIN bytes after its start, or after CHUNK_MAX bytes when there is
 * none by then (a run of bytes without one, such as zeros).
 *
 * The server's block store and the web client's delta upload cut with this module; both must keep
 * cutting the same way, so the gear table, the rule and the bounds below are part of the stored
 * format (changing them loses the deduplication of everything stored before, though nothing breaks).
 *
 * No dependencies: it runs in Node, in browsers and in web workers.
 */

/** No chunk but a file's last is shorter. */
export const CHUNK_MIN = 256 * 1024;
/** The mean size: cut points lie about 2 × WINDOW bytes apart. */
export const CHUNK_AVG = 1024 * 1024;
/** No chunk is longer. */
export const CHUNK_MAX = 4 * 1024 * 1024;
/** A cut point's hash is the greatest of those less than this many bytes away on either side. */
const WINDOW = CHUNK_AVG / 2;

/**
 * The gear table: 256 pseudo-random 32-bit values, one per byte value, from a fixed seed (a Weyl
 * sequence through the murmur3 finalizer), so every runtime builds the same table.
 */
const GEAR: Int32Array = (() => {
  const table = new Int32Array(256);
  let state = 0x41544c52; // "ATLR"
  for (let i = 0; i < 256; i++) {
    state = (state + 0x9e3779b9) | 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    table[i] = z ^ (z >>> 16);
  }
  return table;
})();

/**
 * Only bytes whose hash has its 12 high bits set can be cut points: one in 4,096, so a window holds
 * about 256 and the others need no work (a window without one, such as a long run of one byte value,
 * has no cut point).
 */
const CANDIDATE = 0xfff00000 | 0;

/**
 * Finds the cut points of a stream of bytes (it reads them, never keeps them). The hash at a byte is
 * (hash << 1) + gear[byte] over 32 bits, so it depends on that byte and the 31 before it. A byte is a
 * cut point when its hash has the CANDIDATE bits, is greater than every hash less than WINDOW bytes
 * after it and no smaller than any less than WINDOW bytes before it. A queue holds the candidates that may still
 * be cut points, in order, with decreasing hashes (each one removes the equal and smaller ones before
 * it); a candidate still there WINDOW bytes later is a cut point if, when it came, the queue held no
 * candidate (all greater) less than WINDOW bytes before it.
 */
class CutFinder {
  private hash = 0;
  /** Bytes hashed so far. */
  private length = 0;
  private readonly positions: number[] = [];
  private readonly hashes: number[] = [];
  private readonly clearBefore: boolean[] = [];
  private head = 0;
  /** Cut points (a chunk's end offset) decided and not yet used, in order. */
  private readonly points: number[] = [];
  /** Where the unfinished chunk starts. */
  private start = 0;

  /** Reads `bytes`, the stream's next; answers the chunks' ends that are now decided. */
  push(bytes: Uint8Array): number[] {
    let hash = this.hash;
    let position = this.length;
    let due = this.due();
    for (let k = 0; k < bytes.length; k++, position++) {
      hash = ((hash << 1) + GEAR[bytes[k]!]!) | 0;
      if (position >= due) due = this.decide(position - WINDOW);
      if ((hash & CANDIDATE) === CANDIDATE) due = this.add(position, hash >>> 0);
    }
    this.hash = hash;
    this.length = position;
    return this.cuts(false);
  }

  /** The stream ended: answers the remaining chunks' ends. */
  finish(): number[] {
    this.decide(this.length);
    return this.cuts(true);
  }

  /** Where the queue's first candidate is decided (all the bytes of its window read). */
  private due(): number {
    return this.head < this.positions.length ? this.positions[this.head]! + WINDOW : Infinity;
  }

  private add(position: number, hash: number): number {
    const { positions, hashes } = this;
    while (positions.length > this.head && hashes[hashes.length - 1]! <= hash) {
      positions.pop();
      hashes.pop();
      this.clearBefore.pop();
    }
    this.clearBefore.push(
      positions.length === this.head || positions[positions.length - 1]! < position - WINDOW,
    );
    positions.push(position);
    hashes.push(hash);
    return this.due();
  }

  /** Decides the candidates at or before `last`: cut points if still queued and clear before. */
  private decide(last: number): number {
    const { positions } = this;
    while (this.head < positions.length && positions[this.head]! <= last) {
      if (this.clearBefore[this.head]) this.points.push(positions[this.head]! + 1);
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > positions.length) {
      positions.splice(0, this.head);
      this.hashes.splice(0, this.head);
      this.clearBefore.splice(0, this.head);
      this.head = 0;
    }
    return this.due();
  }

  /** The chunks' ends decided by the cut points found so far (all of them once the stream ended). */
  private cuts(ended: boolean): number[] {
    // Every position before `decided` is decided: the queue's first candidate, or WINDOW bytes back.
    const decided = ended ? this.length : Math.min(this.due() - WINDOW, this.length - WINDOW);
    const cuts: number[] = [];
    let next = 0;
    for (;;) {
      while (next < this.points.length && this.points[next]! < this.start + CHUNK_MIN) next++;
      const point = this.points[next];
      let end: number;
      if (point !== undefined && point <= this.start + CHUNK_MAX) end = point;
      else if (decided >= this.start + CHUNK_MAX) end = this.start + CHUNK_MAX;
      else if (ended && this.start < this.length) end = this.length;
      else break;
      cuts.push(end);
      this.start = end;
    }
    this.points.splice(0, next);
    return cuts;
  }
}

/** Cut points (exclusive end offsets) of a whole buffer; same cuts as the streaming Chunker. */
export function chunkBoundaries(data: Uint8Array): number[] {
  const finder = new CutFinder();
  return [...finder.push(data), ...finder.finish()];
}

/**
 * Streaming chunking: push bytes, get back the chunks completed so far; finish() returns the rest.
 * Holds at most CHUNK_MAX + WINDOW bytes (a chunk's end is known once the window after it is read).
 * The chunks returned are copies the caller may keep.
 */
export class Chunker {
  private readonly finder = new CutFinder();
  private buffer = new Uint8Array(CHUNK_MAX + WINDOW);
  private length = 0;
  /** The stream offset of buffer[0]. */
  private offset = 0;
  private finished = false;

  push(bytes: Uint8Array): Uint8Array<ArrayBuffer>[] {
    if (this.finished) throw new Error('Chunker: push after finish');
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let read = 0;
    while (read < bytes.length) {
      const take = Math.min(bytes.length - read, this.buffer.length - this.length);
      const piece = bytes.subarray(read, read + take);
      this.buffer.set(piece, this.length);
      this.length += take;
      read += take;
      for (const end of this.finder.push(piece)) chunks.push(this.take(end));
    }
    return chunks;
  }

  finish(): Uint8Array<ArrayBuffer>[] {
    if (this.finished) return [];
    this.finished = true;
    return this.finder.finish().map((end) => this.take(end));
  }

  /** The buffered bytes up to the stream offset `end`, as a chunk. */
  private take(end: number): Uint8Array<ArrayBuffer> {
    const length = end - this.offset;
    const chunk = this.buffer.slice(0, length);
    this.buffer.copyWithin(0, length, this.length);
    this.length -= length;
    this.offset = end;
    return chunk;
  }
}
