import type { PbrMaterial } from '../types';
import { triangleNormal } from './triangle';

// What both engines share about cut stones: the planes light bounces between inside one, how many
// bounces they follow, and the light set that gem materials see instead of the studio.

/** Planes a stone keeps for its trace: a round brilliant has 57 facets. */
export const MAX_STONE_PLANES = 64;
/** Internal bounces followed before the rest of a ray's light is dropped. */
export const STONE_BOUNCES = 5;
/**
 * Index spread across the three colour channels (red lowest, blue highest), relative to the
 * stone's own index: a diamond's 2.41 to 2.45 across the visible range, a little widened so the
 * fire shows at catalogue sizes.
 */
export const STONE_DISPERSION = 0.012;

/**
 * Whether a transmissive finish is a stone lit by the stone light set: gems are (ruby, sapphire,
 * emerald and diamond all refract more than 1.55); glass and clear plastics keep the studio.
 */
export const isStone = (material: PbrMaterial): boolean =>
  (material.transmission ?? 0) > 0 && (material.ior ?? 1.5) > 1.55;

/**
 * The planes a part's facets lie in, as (unit outward normal x, y, z, offset w) with the inside
 * where n·p < w, facets in one plane merged, largest first, at most MAX_STONE_PLANES. A cut stone
 * is convex, so a ray inside it leaves through the nearest plane ahead of it: that is how both
 * engines follow light bouncing inside. A rounded part with more planes keeps its largest ones,
 * which bound a slightly larger body; a part that is not convex keeps only the planes that have
 * all of it on one side.
 */
export function stonePlanes(positions: ArrayLike<number>, indices: ArrayLike<number>): Float32Array {
  const min = [Infinity, Infinity, Infinity],
    max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3]!, positions[i]!);
    max[i % 3] = Math.max(max[i % 3]!, positions[i]!);
  }
  const centre = min.map((m, k) => (m + max[k]!) / 2);
  const size = Math.max(...max.map((m, k) => m - min[k]!)) || 1;
  // Planes keyed by their rounded normal and offset: facets of one plane share a key.
  const planes = new Map<string, { plane: [number, number, number, number]; area: number }>();
  const normal = new Float64Array(3);
  for (let t = 0; t < indices.length / 3; t++) {
    const length = triangleNormal(positions, indices, t, normal);
    if (length < 1e-12 * size * size) continue;
    let nx = normal[0]! / length,
      ny = normal[1]! / length,
      nz = normal[2]! / length;
    const a = indices[t * 3]! * 3;
    let w = nx * positions[a]! + ny * positions[a + 1]! + nz * positions[a + 2]!;
    // Outward whatever the winding: the centre of a convex stone is inside every plane.
    if (nx * centre[0]! + ny * centre[1]! + nz * centre[2]! > w) {
      nx = -nx;
      ny = -ny;
      nz = -nz;
      w = -w;
    }
    const key = [nx, ny, nz].map((v) => Math.round(v * 500)).join() + `,${Math.round((w / size) * 500)}`;
    const known = planes.get(key);
    if (known) known.area += length;
    else planes.set(key, { plane: [nx, ny, nz, w], area: length });
  }
  // Only planes with the whole part on their inside bound it: an inner face (a crown's cap left
  // where it meets the pavilion) would cut the stone in two.
  const tolerance = size * 1e-3;
  const bounding = ([nx, ny, nz, w]: [number, number, number, number]): boolean => {
    for (let i = 0; i < positions.length; i += 3)
      if (nx * positions[i]! + ny * positions[i + 1]! + nz * positions[i + 2]! > w + tolerance) return false;
    return true;
  };
  const kept: number[] = [];
  const candidates = [...planes.values()].sort((p, q) => q.area - p.area).slice(0, MAX_STONE_PLANES * 8);
  for (const { plane } of candidates) {
    if (kept.length === MAX_STONE_PLANES * 4) break;
    if (bounding(plane)) kept.push(...plane);
  }
  return Float32Array.from(kept);
}

/**
 * The light set for stones, as a jewellery photographer builds it: a few small, bright sources in a
 * dark room, so each facet sees either one (white) or the dark (black). It is set around the lens,
 * so every view of a stone (face-on tables included) is lit alike: each light is its roll around
 * the line of sight (degrees, 0 above the lens, clockwise), its angle off that line (degrees),
 * its angular half size (tangent) and its radiance. Rings of lights around the lens, a few behind
 * the stone, and dark between them and at the lens itself (the camera and the photographer), which
 * is what gives a photographed brilliant its black facets.
 */
export const STONE_LIGHTS: ReadonlyArray<readonly [number, number, number, number]> = [
  ...[0, 60, 120, 180, 240, 300].map((roll) => [roll, 25, 0.14, 12] as const),
  ...[30, 90, 150, 210, 270, 330].map((roll) => [roll, 52, 0.27, 10] as const),
  ...[0, 72, 144, 216, 288].map((roll) => [roll, 82, 0.35, 10] as const),
  ...[60, 180, 300].map((roll) => [roll, 125, 0.35, 6] as const),
];
/** Radiance of the dark room around the stone lights. */
export const STONE_ROOM = 0.006;

/**
 * Direction of a stone light in view space (x right, y up, z towards the camera) from its roll
 * and angle off the line of sight, in degrees.
 */
export function lensDirection(roll: number, offAxis: number): [number, number, number] {
  const r = (roll * Math.PI) / 180,
    a = (offAxis * Math.PI) / 180;
  return [Math.sin(a) * Math.sin(r), Math.sin(a) * Math.cos(r), Math.cos(a)];
}
