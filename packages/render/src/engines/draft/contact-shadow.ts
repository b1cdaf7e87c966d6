import type { Model } from '../../types';

/** A top-down occlusion map of the model on the ground plane, in model space (it turns with the model). */
export interface ShadowMap {
  data: Float32Array;
  size: number;
  /** World x/z of texel (0, 0) and the world size covered by the whole map. */
  originX: number;
  originZ: number;
  extent: number;
}

const SIZE = 256;

/** Separable box blur, run three times (close to a Gaussian). */
function blur(source: Float32Array, size: number, radius: number): Float32Array {
  let a = Float32Array.from(source);
  let b = new Float32Array(a.length);
  const r = Math.max(1, Math.round(radius));
  const norm = 1 / (2 * r + 1);
  for (let pass = 0; pass < 3; pass++) {
    for (const horizontal of [true, false]) {
      for (let line = 0; line < size; line++) {
        let sum = 0;
        const at = (i: number): number => {
          const k = Math.min(size - 1, Math.max(0, i));
          return horizontal ? a[line * size + k]! : a[k * size + line]!;
        };
        for (let i = -r; i <= r; i++) sum += at(i);
        for (let i = 0; i < size; i++) {
          b[horizontal ? line * size + i : i * size + line] = sum * norm;
          sum += at(i + r + 1) - at(i - r);
        }
      }
      [a, b] = [b, a];
    }
  }
  return a;
}

/**
 * Soft contact shadow: the model's footprint weighted by how close each part is to the floor,
 * as a tight dark core where it touches plus a wide faint ambient pool.
 */
export function computeShadowMap(model: Model): ShadowMap {
  const { min, max } = model.bounds;
  const width = Math.max(max[0] - min[0], max[2] - min[2]);
  const height = Math.max(1e-9, max[1] - min[1]);
  const extent = width * 1.8 + height * 0.6;
  const originX = -extent / 2;
  const originZ = -extent / 2;
  const lowest = new Float32Array(SIZE * SIZE).fill(Infinity);
  const toTexel = SIZE / extent;

  for (const part of model.parts) {
    const p = part.positions;
    const idx = part.indices;
    for (let t = 0; t < idx.length; t += 3) {
      const a = idx[t]! * 3,
        b = idx[t + 1]! * 3,
        c = idx[t + 2]! * 3;
      const ax = (p[a]! - originX) * toTexel,
        az = (p[a + 2]! - originZ) * toTexel;
      const bx = (p[b]! - originX) * toTexel,
        bz = (p[b + 2]! - originZ) * toTexel;
      const cx = (p[c]! - originX) * toTexel,
        cz = (p[c + 2]! - originZ) * toTexel;
      const area = (bx - ax) * (cz - az) - (bz - az) * (cx - ax);
      const y = Math.min(p[a + 1]!, p[b + 1]!, p[c + 1]!);
      const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx))),
        x1 = Math.min(SIZE - 1, Math.ceil(Math.max(ax, bx, cx)));
      const z0 = Math.max(0, Math.floor(Math.min(az, bz, cz))),
        z1 = Math.min(SIZE - 1, Math.ceil(Math.max(az, bz, cz)));
      for (let z = z0; z <= z1; z++) {
        for (let x = x0; x <= x1; x++) {
          const px = x + 0.5,
            pz = z + 0.5;
          const w0 = (bx - ax) * (pz - az) - (bz - az) * (px - ax);
          const w1 = (cx - bx) * (pz - bz) - (cz - bz) * (px - bx);
          const w2 = (ax - cx) * (pz - cz) - (az - cz) * (px - cx);
          // Thin or edge-on triangles still cast: accept texels their box touches when the area is tiny.
          const inside =
            area > 0 ? w0 >= 0 && w1 >= 0 && w2 >= 0 : area < 0 ? w0 <= 0 && w1 <= 0 && w2 <= 0 : true;
          if (inside && y < lowest[z * SIZE + x]!) lowest[z * SIZE + x] = y;
        }
      }
    }
  }
  const core = new Float32Array(SIZE * SIZE);
  const pool = new Float32Array(SIZE * SIZE);
  for (let i = 0; i < lowest.length; i++) {
    const y = lowest[i]!;
    if (!Number.isFinite(y)) continue;
    core[i] = Math.max(0, 1 - y / (height * 0.06 + 1e-9));
    pool[i] = Math.max(0, 1 - y / (height * 0.8 + 1e-9));
  }
  const sizeTexels = width * toTexel;
  const coreBlur = blur(core, SIZE, sizeTexels * 0.012);
  const poolBlur = blur(pool, SIZE, sizeTexels * 0.07);
  const data = new Float32Array(new SharedArrayBuffer(SIZE * SIZE * 4));
  for (let i = 0; i < data.length; i++) data[i] = Math.min(1, coreBlur[i]! * 0.75 + poolBlur[i]! * 0.45);
  return { data, size: SIZE, originX, originZ, extent };
}
