import { weldByPosition } from '../import/weld';

/**
 * For a closed mesh whose every edge is shared by exactly two triangles running it in opposite
 * directions, the winding that faces the camera: outward (positive volume) meshes show
 * counter-clockwise triangles, which are negative area in y-down screen space. Anything else
 * (open shells, flipped patches) is drawn two-sided.
 */
export function visibleWinding(positions: Float32Array, indices: Uint32Array): -1 | 0 | 1 {
  const vertexCount = positions.length / 3;
  // Weld by position: crease splitting duplicates vertices along hard edges.
  const weld = weldByPosition(positions);
  // Directed edges as numbers, sorted: each must be unique and have its reverse.
  const edges = new Float64Array(indices.length);
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = weld[indices[t + k]!]!,
        b = weld[indices[t + ((k + 1) % 3)]!]!;
      if (a === b) return 0;
      edges[t + k] = a * vertexCount + b;
    }
  }
  edges.sort();
  for (let i = 0; i < edges.length; i++) {
    if (i > 0 && edges[i] === edges[i - 1]) return 0;
    const a = Math.floor(edges[i]! / vertexCount),
      b = edges[i]! - a * vertexCount;
    if (!sortedHas(edges, b * vertexCount + a)) return 0;
  }
  let volume = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3,
      b = indices[t + 1]! * 3,
      c = indices[t + 2]! * 3;
    volume +=
      positions[a]! * (positions[b + 1]! * positions[c + 2]! - positions[b + 2]! * positions[c + 1]!) -
      positions[a + 1]! * (positions[b]! * positions[c + 2]! - positions[b + 2]! * positions[c]!) +
      positions[a + 2]! * (positions[b]! * positions[c + 1]! - positions[b + 1]! * positions[c]!);
  }
  return volume > 0 ? -1 : volume < 0 ? 1 : 0;
}

function sortedHas(sorted: Float64Array, value: number): boolean {
  let lo = 0,
    hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid]!;
    if (v === value) return true;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
