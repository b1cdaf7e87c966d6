import type { Model, Scene } from '../../types';
import { materialForPart } from '../../scene/build-scene';
import type { PagePart } from './studio-page';

/**
 * Packs every part's typed arrays into one binary blob the page downloads in a single request and
 * views in place (no JSON number arrays, no copies in the page), plus the part table that locates them.
 */
export function packModel(model: Model, scene: Scene): { blob: Uint8Array; parts: PagePart[] } {
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
  const parts = model.parts.map((part): PagePart => ({
    name: part.name,
    material: materialForPart(scene, part),
    vertexCount: part.positions.length / 3,
    indexCount: part.indices.length,
    positions: add(part.positions),
    normals: add(part.normals),
    indices: add(part.indices),
    colors: part.colors ? add(part.colors) : undefined,
    uvs: part.uvs && part.texture ? add(part.uvs) : undefined,
    texture: part.texture && part.uvs ? { offset: add(part.texture.data), width: part.texture.width, height: part.texture.height } : undefined,
  }));
  const blob = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    blob.set(chunk, offset);
    offset += Math.ceil(chunk.byteLength / 4) * 4;
  }
  return { blob, parts };
}
