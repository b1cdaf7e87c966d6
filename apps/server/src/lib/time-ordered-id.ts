import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

/**
 * A UUIDv7 (RFC 9562): the millisecond clock first, then a counter, then random bits. Ids made by
 * one process sort in creation order even within one millisecond, so "newest first" stays exact
 * when rows share a created_at.
 */
export function timeOrderedId(): string {
  let ms = Date.now();
  if (ms > lastMs) {
    lastMs = ms;
    counter = 0;
  } else {
    counter += 1;
    // 12 counter bits used up: borrow the next millisecond rather than lose the order.
    if (counter > 0xfff) {
      lastMs += 1;
      counter = 0;
    }
    ms = lastMs;
  }
  const random = randomBytes(8);
  const variant =
    ((random[0]! & 0x3f) | 0x80).toString(16).padStart(2, '0') + random.subarray(1, 2).toString('hex');
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${counter.toString(16).padStart(3, '0')}-${variant}-${random.subarray(2, 8).toString('hex')}`;
}
