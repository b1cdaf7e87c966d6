import { MeshoptSimplifier } from 'meshoptimizer';
import type { Model, Scene } from '../../types';
import { materialForPart } from '../../scene/build-scene';
import { visibleWinding } from '../../scene/winding';
import { MAX_ERROR_PX, MIN_TRIANGLES_FOR_LOD, unitsPerPixel } from '../../import/simplify';
import type { PagePart } from './page/protocol';

/** Output sizes the job draws at, finest first; each gets its own level of detail. */
export type LodTargets = number[];

/**
 * Packs every part's typed arrays into one binary blob the page downloads in a single request and
 * views in place (no JSON number arrays, no copies in the page), plus the part table that locates them.
 *
 * Heavy parts also get simplified index buffers (meshoptimizer), one per output size, within
 * MAX_ERROR_PX of the full mesh once projected: a software rasteriser pays for every vertex, and a
 * 200,000-triangle ring at 1080p has several triangles per pixel. The vertices (and so their exact
 * normals) are kept; only triangles are dropped.
 *
 * Closed parts are sent wound outward and marked `closed`: the page draws them single-sided, so the
 * rasteriser drops their back faces before shading, about half of a frame's fragment work.
 */
export async function packModel(
  model: Model,
  scene: Scene,
  targets: LodTargets = [],
): Promise<{ blob: Uint8Array; parts: PagePart[] }> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const add = (array: ArrayBufferView): number => {
    const offset = length;
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    chunks.push(bytes);
    // Keep every array 4-byte aligned so the page can view it as Float32Array/Uint32Array.
    length += Math.ceil(bytes.byteLength / 4) * 4;
    return offset;
  };
  if (targets.length > 0 && model.parts.some((p) => p.indices.length / 3 >= MIN_TRIANGLES_FOR_LOD))
    await MeshoptSimplifier.ready;

  const parts = model.parts.map((part): PagePart => {
    const winding = visibleWinding(part.positions, part.indices);
    const indices = winding === 1 ? reversed(part.indices) : part.indices;
    const lods: NonNullable<PagePart['lods']> = [];
    if (indices.length / 3 >= MIN_TRIANGLES_FOR_LOD) {
      let level: { indices: Uint32Array; offset?: number } = { indices };
      for (const size of [...targets].sort((a, b) => b - a)) {
        // Each level refines the previous one.
        const error = MAX_ERROR_PX * unitsPerPixel(model.bounds, scene.margin, size);
        const [simplified] = MeshoptSimplifier.simplify(level.indices, part.positions, 3, 0, error, [
          'ErrorAbsolute',
        ]);
        if (simplified.length < level.indices.length * 0.9)
          level = { indices: simplified, offset: add(simplified) };
        lods.push({ size, indices: level.offset, indexCount: level.indices.length });
      }
    }
    return {
      name: part.name,
      material: materialForPart(scene, part),
      vertexCount: part.positions.length / 3,
      indexCount: indices.length,
      positions: add(part.positions),
      normals: add(part.normals),
      indices: add(indices),
      lods,
      closed: winding !== 0,
      colors: part.colors && scene.useSourceColors ? add(part.colors) : undefined,
      occlusion: part.occlusion ? add(part.occlusion) : undefined,
      uvs: part.uvs && part.texture ? add(part.uvs) : undefined,
      texture:
        part.texture && part.uvs
          ? { offset: add(part.texture.data), width: part.texture.width, height: part.texture.height }
          : undefined,
    };
  });
  const blob = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    blob.set(chunk, offset);
    offset += Math.ceil(chunk.byteLength / 4) * 4;
  }
  return { blob, parts };
}

/** The triangles wound the other way (inward-facing closed meshes become outward-facing). */
function reversed(indices: Uint32Array): Uint32Array {
  const out = new Uint32Array(indices.length);
  for (let t = 0; t < indices.length; t += 3) {
    out[t] = indices[t]!;
    out[t + 1] = indices[t + 2]!;
    out[t + 2] = indices[t + 1]!;
  }
  return out;
}
