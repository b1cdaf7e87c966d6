import type { Bounds, CameraAngle, Model } from '../types';

export type Vec3 = [number, number, number];

/** A perspective camera looking at `target`; `right`, `up`, `back` form its orthonormal basis. */
export interface CameraPose {
  position: Vec3;
  target: Vec3;
  right: Vec3;
  up: Vec3;
  /** Unit vector from the target towards the camera. */
  back: Vec3;
  /** Vertical field of view, degrees. */
  fov: number;
  aspect: number;
  near: number;
  far: number;
}

const DEG = Math.PI / 180;
const MAX_FIT_POINTS = 20_000;

function normalize(v: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}
const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

/** Camera basis for an azimuth (0 = front, +z) and elevation, both in degrees. */
export function cameraBasis(azimuth: number, elevation: number): { right: Vec3; up: Vec3; back: Vec3 } {
  const az = azimuth * DEG;
  const el = elevation * DEG;
  const back: Vec3 = [Math.sin(az) * Math.cos(el), Math.sin(el), Math.cos(az) * Math.cos(el)];
  const right = normalize(cross([0, 1, 0], back));
  const up = cross(back, right);
  return { right, up, back };
}

/** Up to MAX_FIT_POINTS vertices of the model, enough to frame it tightly without touching them all. */
export function framingPoints(model: Pick<Model, 'parts'>): Float32Array {
  return samplePositions(model.parts.map((part) => part.positions));
}

/** Up to MAX_FIT_POINTS of the xyz triples of several position arrays, taken at an even stride. */
export function samplePositions(arrays: readonly ArrayLike<number>[]): Float32Array {
  const total = arrays.reduce((n, positions) => n + positions.length / 3, 0);
  const stride = Math.max(1, Math.ceil(total / MAX_FIT_POINTS));
  const points: number[] = [];
  let k = 0;
  for (const positions of arrays) {
    for (let v = 0; v < positions.length; v += 3, k++) {
      if (k % stride === 0) points.push(positions[v]!, positions[v + 1]!, positions[v + 2]!);
    }
  }
  return Float32Array.from(points);
}

/** Every k-th point, to at most `limit` points. */
function thin(points: Float32Array, limit: number): Float32Array {
  const count = points.length / 3;
  if (count <= limit) return points;
  const stride = Math.ceil(count / limit);
  const out = new Float32Array(Math.ceil(count / stride) * 3);
  for (let i = 0, o = 0; i < count; i += stride, o += 3) out.set(points.subarray(i * 3, i * 3 + 3), o);
  return out;
}

/** The points swept around the y axis, so one framing holds for every turntable frame. */
function sweep(points: Float32Array, steps: number): Float32Array {
  const out = new Float32Array(points.length * steps);
  for (let s = 0; s < steps; s++) {
    const a = (s / steps) * 2 * Math.PI;
    const c = Math.cos(a),
      sn = Math.sin(a);
    for (let i = 0; i < points.length; i += 3) {
      const x = points[i]!,
        z = points[i + 2]!;
      const o = s * points.length + i;
      out[o] = c * x + sn * z;
      out[o + 1] = points[i + 1]!;
      out[o + 2] = -sn * x + c * z;
    }
  }
  return out;
}

/** What framing reads of a model: its bounds, and its vertices unless the caller samples them. */
export type FramedModel = { bounds: Bounds; parts?: Model['parts'] };

/**
 * Places the camera so the model fills the frame up to `margin` on its tightest side, centred in
 * the picture, whatever its size or shape, then moves it closer by the angle's zoom. Solved by a few
 * fixed-point steps on the projected extremes of the model's vertices (exact for perspective, unlike
 * a bounding sphere). The render engines and the studio's live view both frame with it, so the view
 * shows what a still will.
 */
export function frameCamera(
  model: FramedModel,
  angle: CameraAngle,
  aspect: number,
  margin: number,
  options: { turntable?: boolean; points?: Float32Array } = {},
): CameraPose {
  const base = options.points ?? framingPoints({ parts: model.parts ?? [] });
  const points = options.turntable ? sweep(thin(base, MAX_FIT_POINTS / 4), 24) : base;
  const { right, up, back } = cameraBasis(angle.azimuth, angle.elevation);
  const tanY = Math.tan((angle.fov * DEG) / 2);
  const tanX = tanY * aspect;
  const fill = 1 - 2 * margin;
  const { min, max } = model.bounds;
  const target: Vec3 = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  const radius =
    Math.max(1e-6, Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2) *
    (options.turntable ? 1.5 : 1);
  let distance = radius / Math.sin(Math.atan(Math.min(tanX, tanY)));

  for (let iteration = 0; iteration < 60; iteration++) {
    let minX = Infinity,
      maxX = -Infinity,
      minY = Infinity,
      maxY = -Infinity,
      closest = -Infinity;
    for (let i = 0; i < points.length; i += 3) {
      const qx = points[i]! - target[0],
        qy = points[i + 1]! - target[1],
        qz = points[i + 2]! - target[2];
      const towards = qx * back[0] + qy * back[1] + qz * back[2];
      if (towards > closest) closest = towards;
      const depth = distance - towards;
      const sx = (qx * right[0] + qy * right[1] + qz * right[2]) / (depth * tanX);
      const sy = (qx * up[0] + qy * up[1] + qz * up[2]) / (depth * tanY);
      if (sx < minX) minX = sx;
      if (sx > maxX) maxX = sx;
      if (sy < minY) minY = sy;
      if (sy > maxY) maxY = sy;
    }
    const cx = (minX + maxX) / 2,
      cy = (minY + maxY) / 2;
    const needed = Math.max((maxX - minX) / 2, (maxY - minY) / 2) / fill;
    // Recentre at the current distance, then scale the distance to the needed fill.
    for (let a = 0; a < 3; a++)
      target[a]! += right[a]! * cx * distance * tanX + up[a]! * cy * distance * tanY;
    // Never step in front of the nearest point (which would mirror the projection).
    distance = Math.max(distance * needed, closest + radius * 0.25);
    if (Math.abs(needed - 1) < 1e-5 && Math.abs(cx) < 1e-5 && Math.abs(cy) < 1e-5) break;
  }
  // Seen end-on, very long shapes may not settle; never let them leave the frame.
  for (let guard = 0; guard < 30; guard++) {
    let extent = 0;
    for (let i = 0; i < points.length; i += 3) {
      const qx = points[i]! - target[0],
        qy = points[i + 1]! - target[1],
        qz = points[i + 2]! - target[2];
      const depth = distance - (qx * back[0] + qy * back[1] + qz * back[2]);
      const sx = Math.abs((qx * right[0] + qy * right[1] + qz * right[2]) / (depth * tanX));
      const sy = Math.abs((qx * up[0] + qy * up[1] + qz * up[2]) / (depth * tanY));
      extent = Math.max(extent, depth > 0 ? Math.max(sx, sy) : Infinity);
    }
    if (extent <= fill * 1.0005) break;
    distance *= Math.min(2, extent / fill + 0.01);
  }
  distance /= angle.zoom ?? 1;
  let nearest = Infinity,
    farthest = 0;
  for (let i = 0; i < points.length; i += 3) {
    const z =
      (points[i]! - target[0]) * back[0] +
      (points[i + 1]! - target[1]) * back[1] +
      (points[i + 2]! - target[2]) * back[2];
    nearest = Math.min(nearest, distance - z);
    farthest = Math.max(farthest, distance - z);
  }
  const position: Vec3 = [
    target[0] + back[0] * distance,
    target[1] + back[1] * distance,
    target[2] + back[2] * distance,
  ];
  return {
    position,
    target,
    right,
    up,
    back,
    fov: angle.fov,
    aspect,
    near: Math.max(nearest * 0.5, distance * 1e-4),
    far: farthest * 2 + radius * 4,
  };
}
