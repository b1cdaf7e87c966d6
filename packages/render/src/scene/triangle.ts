/**
 * The normal of triangle `t` (right-hand winding, not normalised: its length is twice the
 * triangle's area) into `out`; returns that length.
 */
export function triangleNormal(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  t: number,
  out: Float64Array,
): number {
  const a = indices[t * 3]! * 3,
    b = indices[t * 3 + 1]! * 3,
    c = indices[t * 3 + 2]! * 3;
  const ux = positions[b]! - positions[a]!,
    uy = positions[b + 1]! - positions[a + 1]!,
    uz = positions[b + 2]! - positions[a + 2]!;
  const vx = positions[c]! - positions[a]!,
    vy = positions[c + 1]! - positions[a + 1]!,
    vz = positions[c + 2]! - positions[a + 2]!;
  out[0] = uy * vz - uz * vy;
  out[1] = uz * vx - ux * vz;
  out[2] = ux * vy - uy * vx;
  return Math.sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
}
