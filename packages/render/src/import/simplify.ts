import { MeshoptSimplifier } from 'meshoptimizer';
import type { Bounds, MeshPart, Model } from '../types';

/**
 * Reduces a heavy model to about `targetTriangles` for draft renders with meshoptimizer, spreading
 * the budget over parts by their share of triangles. Vertex arrays are compacted per part.
 */
export async function simplifyModel(model: Model, targetTriangles: number): Promise<Model> {
  if (model.triangleCount <= targetTriangles) return model;
  await MeshoptSimplifier.ready;
  const ratio = targetTriangles / model.triangleCount;
  const parts = model.parts.map((part): MeshPart => {
    const targetIndexCount = Math.max(3, Math.floor((part.indices.length / 3) * ratio) * 3);
    if (targetIndexCount >= part.indices.length) return part;
    // Error bound is relative to the part's size; 1 % stays invisible at draft resolutions.
    const [simplified] = MeshoptSimplifier.simplify(part.indices, part.positions, 3, targetIndexCount, 0.01, [
      'Prune',
    ]);
    return compact({ ...part, indices: simplified });
  });
  return { ...model, parts, triangleCount: parts.reduce((sum, p) => sum + p.indices.length / 3, 0) };
}

/** Largest geometric error a level of detail may have, in output pixels: below what the eye or MSAA resolves. */
export const MAX_ERROR_PX = 0.3;
/** Parts lighter than this are drawn as they are; simplifying them saves nothing measurable. */
export const MIN_TRIANGLES_FOR_LOD = 20_000;

/**
 * Model units per output pixel when the model fills a `size` px frame inside its margin: what a
 * level of detail's error is measured in.
 */
export function unitsPerPixel(bounds: Bounds, margin: number, size: number): number {
  const { min, max } = bounds;
  const extent = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  return extent / (size * (1 - 2 * margin));
}

/**
 * The model with each part of at least `minTriangles` simplified to within `error` model units
 * (meshoptimizer, absolute error), its vertices compacted; lighter parts as they are.
 */
export async function simplifyWithin(model: Model, error: number, minTriangles: number): Promise<Model> {
  if (!model.parts.some((part) => part.indices.length / 3 >= minTriangles)) return model;
  await MeshoptSimplifier.ready;
  const parts = model.parts.map((part): MeshPart => {
    if (part.indices.length / 3 < minTriangles) return part;
    const [simplified] = MeshoptSimplifier.simplify(part.indices, part.positions, 3, 0, error, [
      'ErrorAbsolute',
    ]);
    return simplified.length < part.indices.length ? compact({ ...part, indices: simplified }) : part;
  });
  return { ...model, parts, triangleCount: parts.reduce((sum, p) => sum + p.indices.length / 3, 0) };
}

function compact(part: MeshPart): MeshPart {
  const remap = new Int32Array(part.positions.length / 3).fill(-1);
  let next = 0;
  const indices = new Uint32Array(part.indices.length);
  part.indices.forEach((v, i) => {
    if (remap[v] === -1) remap[v] = next++;
    indices[i] = remap[v]!;
  });
  const take = (source: Float32Array | undefined, size: number): Float32Array | undefined => {
    if (!source) return undefined;
    const out = new Float32Array(next * size);
    remap.forEach((to, from) => {
      if (to >= 0) out.set(source.subarray(from * size, from * size + size), to * size);
    });
    return out;
  };
  return {
    ...part,
    positions: take(part.positions, 3)!,
    normals: take(part.normals, 3)!,
    colors: take(part.colors, 3),
    occlusion: take(part.occlusion, 1),
    uvs: take(part.uvs, 2),
    indices,
  };
}
