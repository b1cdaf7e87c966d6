/**
 * Content-defined chunking after FastCDC (Xia et al., "FastCDC: a Fast and Efficient Content-Defined
 * Chunking Approach for Data Deduplication", USENIX ATC 2016): a gear rolling hash, cut-point skipping
 * (nothing is hashed in a chunk's first CHUNK_MIN bytes) and normalized chunking (a stricter mask before
 * the normal size, a looser one after it, so chunk sizes gather around CHUNK_AVG).
 *
 * The cuts depend only on the bytes, so an edit moves the cuts near it and the chunks after it are the
 * same as before: a save of a file that changed in a few places has only a few new chunks. The server's
 * block store and the web client's delta upload cut with this module; both must keep cutting the same
 * way, so the gear table, the masks and the bounds below are part of the stored format (changing them
 * loses the deduplication of everything stored before, though nothing breaks).
 *
 * No dependencies: it runs in Node, in browsers and in web workers.
 */

/** No chunk but a file's last is shorter. */
export const CHUNK_MIN = 256 * 1024;
/** The normal size: chunks gather around it. */
export const CHUNK_AVG = 1024 * 1024;
/** No chunk is longer. */
export const CHUNK_MAX = 4 * 1024 * 1024;

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

// The hash is 32 bits: (hash << 1) + gear[byte]. Its high bits depend on the most recent bytes (up to the
// last 32), so the masks test high bits. log2(CHUNK_AVG) = 20 bits on average; normalization level 2
// tests 2 bits more before the normal size (a cut there is 4x rarer) and 2 fewer after it (4x likelier).
const MASK_STRICT = 0xfffffc00 | 0; // 22 high bits
const MASK_LOOSE = 0xffffc000 | 0; // 18 high bits

/** Where a scan of an unfinished chunk stands: the next chunk-relative index to hash, and the hash. */
interface ScanState {
  next: number;
  hash: number;
}

const freshState = (): ScanState => ({ next: CHUNK_MIN, hash: 0 });

/**
 * Looks for the end of the chunk that starts at `start`, with `data[start, end)` known so far. Answers
 * the chunk's length once it is decided by the bytes seen (a cut found, or CHUNK_MAX bytes), or 0 when
 * more bytes are needed; `state` keeps the scan's progress so a later call with more bytes goes on where
 * this one stopped (the answer is the same however the bytes arrive).
 */
function findCut(data: Uint8Array, start: number, end: number, state: ScanState): number {
  const available = end - start;
  let i = state.next;
  let hash = state.hash;
  const strictEnd = Math.min(CHUNK_AVG, available);
  for (; i < strictEnd; i++) {
    hash = ((hash << 1) + GEAR[data[start + i]!]!) | 0;
    if ((hash & MASK_STRICT) === 0) return i + 1;
  }
  const looseEnd = Math.min(CHUNK_MAX, available);
  for (; i < looseEnd; i++) {
    hash = ((hash << 1) + GEAR[data[start + i]!]!) | 0;
    if ((hash & MASK_LOOSE) === 0) return i + 1;
  }
  if (available >= CHUNK_MAX) return CHUNK_MAX;
  state.next = Math.max(i, CHUNK_MIN);
  state.hash = hash;
  return 0;
}

/** Cut points (exclusive end offsets) of a whole buffer; same cuts as the streaming Chunker. */
export function chunkBoundaries(data: Uint8Array): number[] {
  const cuts: number[] = [];
  let start = 0;
  while (start < data.length) {
    const length = findCut(data, start, data.length, freshState());
    start = length === 0 ? data.length : start + length;
    cuts.push(start);
  }
  return cuts;
}

/**
 * Streaming FastCDC: push bytes, get back the chunks completed so far; finish() returns the tail.
 * Holds at most CHUNK_MAX bytes. The chunks returned are copies the caller may keep.
 */
export class Chunker {
  private buffer = new Uint8Array(CHUNK_MAX);
  private length = 0;
  private state = freshState();
  private finished = false;

  push(bytes: Uint8Array): Uint8Array<ArrayBuffer>[] {
    if (this.finished) throw new Error('Chunker: push after finish');
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let offset = 0;
    while (offset < bytes.length) {
      const take = Math.min(bytes.length - offset, CHUNK_MAX - this.length);
      this.buffer.set(bytes.subarray(offset, offset + take), this.length);
      this.length += take;
      offset += take;
      for (;;) {
        const cut = findCut(this.buffer, 0, this.length, this.state);
        if (cut === 0) break;
        chunks.push(this.take(cut));
      }
    }
    return chunks;
  }

  finish(): Uint8Array<ArrayBuffer>[] {
    if (this.finished) return [];
    this.finished = true;
    return this.length > 0 ? [this.take(this.length)] : [];
  }

  private take(length: number): Uint8Array<ArrayBuffer> {
    const chunk = this.buffer.slice(0, length);
    this.buffer.copyWithin(0, length, this.length);
    this.length -= length;
    this.state = freshState();
    return chunk;
  }
}
