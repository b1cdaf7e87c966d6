import { triangleNormal } from '../scene/triangle';
import { weldByPosition } from './weld';

/**
 * Smooth normals that keep hard edges: vertices are welded by exact position, and each triangle corner
 * averages the (area-weighted) normals of the welded neighbours within `creaseDegrees` of its own
 * face. Corners that end up with the same normal share an output vertex, so the result is indexed.
 */
export function creasedNormals(
  positions: Float32Array,
  indices: Uint32Array,
  creaseDegrees = 35,
  /** Share output vertices between source vertices at the same place (only when no other attributes differ). */
  weldSources = true,
): { positions: Float32Array; normals: Float32Array; indices: Uint32Array; sourceVertex: Uint32Array } {
  const vertexCount = positions.length / 3;
  const triangleCount = indices.length / 3;
  const weld = weldByPosition(positions);

  const faceNormals = new Float32Array(triangleCount * 3);
  const normal = new Float64Array(3);
  for (let t = 0; t < triangleCount; t++) {
    triangleNormal(positions, indices, t, normal);
    faceNormals.set(normal, t * 3);
  }

  // Triangles around each welded vertex, in CSR form.
  const start = new Uint32Array(vertexCount + 1);
  for (let i = 0; i < indices.length; i++) start[weld[indices[i]!]! + 1]!++;
  for (let v = 0; v < vertexCount; v++) start[v + 1]! += start[v]!;
  const fill = start.slice(0, vertexCount);
  const around = new Uint32Array(indices.length);
  for (let i = 0; i < indices.length; i++) around[fill[weld[indices[i]!]!]!++] = (i / 3) | 0;

  const cosCrease = Math.cos((creaseDegrees * Math.PI) / 180);
  // At most one output vertex per corner; trimmed at the end.
  const outPositions = new Float32Array(indices.length * 3);
  const outNormals = new Float32Array(indices.length * 3);
  const outSource = new Uint32Array(indices.length);
  let made = 0;
  const outIndices = new Uint32Array(indices.length);
  // Output vertices already made for each welded vertex (a linked list), to share equal normals.
  const firstMade = new Int32Array(vertexCount).fill(-1);
  const nextMade = new Int32Array(indices.length);

  for (let i = 0; i < indices.length; i++) {
    const t = (i / 3) | 0;
    const source = indices[i]!;
    const w = weld[source]!;
    const fx = faceNormals[t * 3]!,
      fy = faceNormals[t * 3 + 1]!,
      fz = faceNormals[t * 3 + 2]!;
    const fl = Math.sqrt(fx * fx + fy * fy + fz * fz) || 1;
    let nx = 0,
      ny = 0,
      nz = 0;
    for (let k = start[w]!; k < start[w + 1]!; k++) {
      const u = around[k]!;
      const gx = faceNormals[u * 3]!,
        gy = faceNormals[u * 3 + 1]!,
        gz = faceNormals[u * 3 + 2]!;
      const gl = Math.sqrt(gx * gx + gy * gy + gz * gz) || 1;
      if ((fx * gx + fy * gy + fz * gz) / (fl * gl) >= cosCrease) {
        nx += gx;
        ny += gy;
        nz += gz;
      }
    }
    const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (nl > 0) {
      nx /= nl;
      ny /= nl;
      nz /= nl;
    } else {
      nx = fx / fl;
      ny = fy / fl;
      nz = fz / fl;
    }
    let index = -1;
    for (let c = firstMade[w]!; c >= 0; c = nextMade[c]!) {
      if (
        (weldSources || outSource[c] === source) &&
        outNormals[c * 3]! * nx + outNormals[c * 3 + 1]! * ny + outNormals[c * 3 + 2]! * nz > 0.9999
      ) {
        index = c;
        break;
      }
    }
    if (index < 0) {
      index = made++;
      outSource[index] = source;
      outPositions[index * 3] = positions[source * 3]!;
      outPositions[index * 3 + 1] = positions[source * 3 + 1]!;
      outPositions[index * 3 + 2] = positions[source * 3 + 2]!;
      outNormals[index * 3] = nx;
      outNormals[index * 3 + 1] = ny;
      outNormals[index * 3 + 2] = nz;
      nextMade[index] = firstMade[w]!;
      firstMade[w] = index;
    }
    outIndices[i] = index;
  }
  return {
    positions: outPositions.slice(0, made * 3),
    normals: outNormals.slice(0, made * 3),
    indices: outIndices,
    sourceVertex: outSource.slice(0, made),
  };
}
