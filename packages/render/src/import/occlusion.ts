import type { MeshPart, Model } from '../types';

/** Directions the occlusion is sampled in (over the whole sphere; each vertex uses its hemisphere). */
const DIRECTIONS = 64;
/** Fewest directions a very heavy model is sampled in (cost is directions × triangles). */
const MIN_DIRECTIONS = 16;
/** Triangles up to which every direction is used; above it the count falls in proportion. */
const FULL_QUALITY_TRIANGLES = 400_000;
/** Side of the depth map rendered per direction, in texels. */
const MAP_SIZE = 256;
/** Occluders farther than this share of the model's size start to count less, and nothing past twice it. */
const REACH = 0.5;
/** The floor is a white sweep that sends light back: it blocks less than a part does. */
const FLOOR_STRENGTH = 0.6;
/** How far off its surface a vertex looks from, in texels. */
const LIFT = 1.5;

/** Evenly spread unit directions (a Fibonacci sphere), the same on every run. */
function sphereDirections(count: number): Float64Array {
  const out = new Float64Array(count * 3);
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < count; i++) {
    const y = 1 - ((i + 0.5) / count) * 2;
    const r = Math.sqrt(1 - y * y);
    out[i * 3] = Math.cos(golden * i) * r;
    out[i * 3 + 1] = y;
    out[i * 3 + 2] = Math.sin(golden * i) * r;
  }
  return out;
}

/**
 * Ambient occlusion per vertex, baked once at import so both engines darken where parts meet
 * (a stone's setting, prongs, the band under a head) and where a part nears the floor.
 *
 * For each of a fixed set of directions the whole model is drawn into an orthographic depth map
 * seen from that direction (the outermost surface per texel); a vertex is shadowed in a direction
 * its normal faces when a surface lies in front of it there, counted by the cosine and fading with
 * the occluder's distance. Rays that head down meet the floor at y = 0. The result is the share of
 * light that reaches the vertex, 1 in the open. Cost: directions × (vertices + triangles) with
 * small constants, about a second for 200,000 triangles; no acceleration structure is built.
 */
export function bakeOcclusion(model: Model): Model {
  const parts = model.parts;
  const vertexCount = parts.reduce((n, p) => n + p.positions.length / 3, 0);
  if (vertexCount === 0) return model;
  const { min, max } = model.bounds;
  const centre = [0, 1, 2].map((a) => (min[a]! + max[a]!) / 2);
  const radius = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2 || 1;
  const reach = radius * 2 * REACH;
  const directionCount = Math.max(
    MIN_DIRECTIONS,
    Math.min(
      DIRECTIONS,
      Math.round((DIRECTIONS * FULL_QUALITY_TRIANGLES) / Math.max(1, model.triangleCount)),
    ),
  );
  const directions = sphereDirections(directionCount);
  const texel = (radius * 2) / MAP_SIZE;

  const depth = new Float32Array(MAP_SIZE * MAP_SIZE);
  // Per vertex: its map coordinates and depth along the current direction (reused per direction).
  const gx = new Float32Array(vertexCount);
  const gy = new Float32Array(vertexCount);
  const gd = new Float32Array(vertexCount);
  // Per vertex and side of its normal (+, -): light that could arrive, and light blocked.
  const blocked = new Float32Array(vertexCount * 2);
  const facing = new Float32Array(vertexCount * 2);

  for (let k = 0; k < directionCount; k++) {
    const dx = directions[k * 3]!,
      dy = directions[k * 3 + 1]!,
      dz = directions[k * 3 + 2]!;
    // An orthonormal basis (u, v) across the direction.
    const ax = Math.abs(dx) < 0.9 ? 1 : 0,
      ay = ax ? 0 : 1;
    let ux = ay * dz,
      uy = -ax * dz,
      uz = ax * dy - ay * dx;
    const ul = Math.hypot(ux, uy, uz);
    ux /= ul;
    uy /= ul;
    uz /= ul;
    const vx = dy * uz - dz * uy,
      vy = dz * ux - dx * uz,
      vz = dx * uy - dy * ux;
    const u0 = centre[0]! * ux + centre[1]! * uy + centre[2]! * uz - radius;
    const v0 = centre[0]! * vx + centre[1]! * vy + centre[2]! * vz - radius;

    depth.fill(-Infinity);
    let base = 0;
    for (const part of parts) {
      const p = part.positions;
      const count = p.length / 3;
      for (let i = 0; i < count; i++) {
        const x = p[i * 3]!,
          y = p[i * 3 + 1]!,
          z = p[i * 3 + 2]!;
        const sx = (x * ux + y * uy + z * uz - u0) / texel;
        const sy = (x * vx + y * vy + z * vz - v0) / texel;
        const d = x * dx + y * dy + z * dz;
        gx[base + i] = sx;
        gy[base + i] = sy;
        gd[base + i] = d;
        // Each vertex marks its own texel too, so triangles smaller than a texel leave no holes.
        const cell = Math.min(MAP_SIZE - 1, sy | 0) * MAP_SIZE + Math.min(MAP_SIZE - 1, sx | 0);
        if (d > depth[cell]!) depth[cell] = d;
      }
      rasterise(part.indices, base, gx, gy, gd, depth);
      base += count;
    }

    base = 0;
    for (const part of parts) {
      const p = part.positions;
      const n = part.normals;
      const count = p.length / 3;
      for (let i = 0; i < count; i++) {
        const w = base + i;
        const along = n[i * 3]! * dx + n[i * 3 + 1]! * dy + n[i * 3 + 2]! * dz;
        if (along === 0) continue;
        // Normals may point into a part (files disagree on winding): each side is judged on its own.
        const side = along > 0 ? 0 : 1;
        const sign = along > 0 ? 1 : -1;
        const cos = along * sign;
        facing[w * 2 + side]! += cos;
        // Look from a little off the surface, so a vertex does not shadow itself.
        const nx = n[i * 3]! * sign * LIFT,
          ny = n[i * 3 + 1]! * sign * LIFT,
          nz = n[i * 3 + 2]! * sign * LIFT;
        const sx = gx[w]! + nx * ux + ny * uy + nz * uz;
        const sy = gy[w]! + nx * vx + ny * vy + nz * vz;
        const d = gd[w]! + cos * LIFT * texel;
        let shade = 0;
        if (sx >= 0 && sy >= 0 && sx < MAP_SIZE && sy < MAP_SIZE) {
          const front = depth[(sy | 0) * MAP_SIZE + (sx | 0)]! - d;
          if (front > (texel * 2) / Math.max(cos, 0.25)) shade = falloff(front, reach);
        }
        if (dy < 0) {
          const floor = (p[i * 3 + 1]! + ny * texel) / -dy;
          shade = Math.max(shade, falloff(floor, reach) * FLOOR_STRENGTH);
        }
        blocked[w * 2 + side]! += cos * shade;
      }
      base += count;
    }
  }

  let base = 0;
  const lit = parts.map((part): MeshPart => {
    const count = part.positions.length / 3;
    const occlusion = new Float32Array(count);
    for (let i = 0; i < count; i++) {
      const w = (base + i) * 2;
      const front = facing[w]! > 0 ? 1 - blocked[w]! / facing[w]! : 1;
      const back = facing[w + 1]! > 0 ? 1 - blocked[w + 1]! / facing[w + 1]! : 1;
      // The side that sees more is the outside, whichever way the normal points.
      occlusion[i] = Math.max(front, back);
    }
    base += count;
    return { ...part, occlusion };
  });
  return { ...model, parts: lit };
}

/** 1 up to `reach`, fading to 0 at twice it. */
const falloff = (distance: number, reach: number): number =>
  distance <= reach ? 1 : Math.max(0, 2 - distance / reach);

/** Draws triangles into the depth map, keeping the largest depth per texel centre they cover. */
function rasterise(
  indices: Uint32Array,
  base: number,
  gx: Float32Array,
  gy: Float32Array,
  gd: Float32Array,
  depth: Float32Array,
): void {
  for (let t = 0; t < indices.length; t += 3) {
    const a = base + indices[t]!,
      b = base + indices[t + 1]!,
      c = base + indices[t + 2]!;
    const ax = gx[a]!,
      ay = gy[a]!,
      bx = gx[b]!,
      by = gy[b]!,
      cx = gx[c]!,
      cy = gy[c]!;
    const x0 = Math.max(0, Math.ceil(Math.min(ax, bx, cx) - 0.5));
    const x1 = Math.min(MAP_SIZE - 1, Math.floor(Math.max(ax, bx, cx) - 0.5));
    if (x1 < x0) continue;
    const y0 = Math.max(0, Math.ceil(Math.min(ay, by, cy) - 0.5));
    const y1 = Math.min(MAP_SIZE - 1, Math.floor(Math.max(ay, by, cy) - 0.5));
    if (y1 < y0) continue;
    const area = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    if (area === 0) continue;
    const inv = 1 / area;
    const da = gd[a]!,
      db = gd[b]!,
      dc = gd[c]!;
    for (let y = y0; y <= y1; y++) {
      const py = y + 0.5;
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5;
        const l0 = ((bx - px) * (cy - py) - (cx - px) * (by - py)) * inv;
        const l1 = ((cx - px) * (ay - py) - (ax - px) * (cy - py)) * inv;
        const l2 = 1 - l0 - l1;
        if (l0 < 0 || l1 < 0 || l2 < 0) continue;
        const d = l0 * da + l1 * db + l2 * dc;
        const cell = y * MAP_SIZE + x;
        if (d > depth[cell]!) depth[cell] = d;
      }
    }
  }
}
