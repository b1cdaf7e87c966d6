import { MeshoptSimplifier } from 'meshoptimizer';
import type { MeshPart, Model } from '../types';

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
    uvs: take(part.uvs, 2),
    indices,
  };
}
