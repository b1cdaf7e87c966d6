/**
 * Maps each vertex to the first vertex with bit-identical coordinates (open-addressing hash on the
 * float bits; no strings, so a million vertices weld in milliseconds).
 */
export function weldByPosition(positions: Float32Array): Uint32Array {
  const count = positions.length / 3;
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, positions.length);
  let size = 1;
  while (size < count * 2) size <<= 1;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  const weld = new Uint32Array(count);
  for (let v = 0; v < count; v++) {
    const x = bits[v * 3]!,
      y = bits[v * 3 + 1]!,
      z = bits[v * 3 + 2]!;
    let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d);
    h ^= h >>> 15;
    let slot = h & mask;
    for (;;) {
      const other = table[slot]!;
      if (other < 0) {
        table[slot] = v;
        weld[v] = v;
        break;
      }
      if (bits[other * 3] === x && bits[other * 3 + 1] === y && bits[other * 3 + 2] === z) {
        weld[v] = other;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return weld;
}
