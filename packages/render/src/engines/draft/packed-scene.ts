import { materialForPart } from '../../scene/build-scene';
import { isStone, stonePlanes } from '../../scene/stones';
import { triangleNormal } from '../../scene/triangle';
import { visibleWinding } from '../../scene/winding';
import type { Model, Scene } from '../../types';

/** Material constants the shader needs, one entry per distinct part material. */
export interface ShaderMaterial {
  metalness: number;
  roughness: number;
  transmission: number;
  ior: number;
  clearcoat: number;
  /** Brushed metal: how far (0..1) its reflections stretch across the brushing. */
  anisotropy: number;
  /** A gem lit by the stone light set (see isStone), not the studio. */
  stone: boolean;
  /** Planes of a transmissive part, for the light traced inside it (see stonePlanes); else null. */
  planes: Float32Array | null;
  /** Index into PackedScene.textures, or -1. */
  texture: number;
  /**
   * Back-face culling for closed, consistently wound parts: the sign of the screen-space area a
   * visible triangle has (-1 or +1), or 0 to draw both sides (open or inconsistent meshes).
   */
  visibleWinding: -1 | 0 | 1;
  /** The part's normals point against its triangles' winding (some exporters flip one or the other). */
  normalsAgainstWinding: boolean;
}

/**
 * The model flattened for the rasteriser, in SharedArrayBuffers so every worker reads the same
 * memory: one vertex stream (position, normal, linear base colour, uv) and one triangle stream.
 */
export interface PackedScene {
  positions: Float32Array;
  normals: Float32Array;
  colors: Float32Array;
  /** Baked ambient occlusion per vertex (1 = open), or null when no part has it. */
  occlusion: Float32Array | null;
  uvs: Float32Array | null;
  indices: Uint32Array;
  triangleMaterial: Uint16Array;
  /** Unit geometric normal of each triangle (right-hand winding), model space. */
  faceNormals: Float32Array;
  materials: ShaderMaterial[];
  textures: Array<{ width: number; height: number; data: Uint8Array }>;
}

function shared<T extends Float32Array | Uint32Array | Uint16Array | Uint8Array>(
  Kind: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number },
  length: number,
): T {
  return new Kind(new SharedArrayBuffer(Math.max(1, length) * Kind.BYTES_PER_ELEMENT));
}

export function packScene(model: Model, scene: Scene): PackedScene {
  const vertexCount = model.parts.reduce((n, p) => n + p.positions.length / 3, 0);
  const indexCount = model.parts.reduce((n, p) => n + p.indices.length, 0);
  const anyTexture = model.parts.some((p) => p.texture && p.uvs);
  const packed: PackedScene = {
    positions: shared(Float32Array, vertexCount * 3),
    normals: shared(Float32Array, vertexCount * 3),
    colors: shared(Float32Array, vertexCount * 3),
    occlusion: model.parts.some((p) => p.occlusion) ? shared(Float32Array, vertexCount).fill(1) : null,
    uvs: anyTexture ? shared(Float32Array, vertexCount * 2) : null,
    indices: shared(Uint32Array, indexCount),
    triangleMaterial: shared(Uint16Array, indexCount / 3),
    faceNormals: shared(Float32Array, indexCount),
    materials: [],
    textures: [],
  };
  let vertexBase = 0;
  let indexBase = 0;
  for (const part of model.parts) {
    const material = materialForPart(scene, part);
    const count = part.positions.length / 3;
    packed.positions.set(part.positions, vertexBase * 3);
    packed.normals.set(part.normals, vertexBase * 3);
    // Per-vertex file colours replace the base colour only where the scene keeps source colours.
    const vertexColors =
      scene.useSourceColors && part.colors && !scene.materials[part.material] ? part.colors : undefined;
    for (let v = 0; v < count; v++) {
      const o = (vertexBase + v) * 3;
      packed.colors[o] = vertexColors ? vertexColors[v * 3]! : material.baseColor[0];
      packed.colors[o + 1] = vertexColors ? vertexColors[v * 3 + 1]! : material.baseColor[1];
      packed.colors[o + 2] = vertexColors ? vertexColors[v * 3 + 2]! : material.baseColor[2];
    }
    if (packed.occlusion && part.occlusion) packed.occlusion.set(part.occlusion, vertexBase);
    let texture = -1;
    if (packed.uvs && part.uvs && part.texture) {
      packed.uvs.set(part.uvs, vertexBase * 2);
      const data = shared(Uint8Array, part.texture.data.length);
      data.set(part.texture.data);
      texture = packed.textures.push({ width: part.texture.width, height: part.texture.height, data }) - 1;
    }
    const materialIndex =
      packed.materials.push({
        metalness: material.metalness,
        roughness: Math.min(1, Math.max(0.02, material.roughness)),
        transmission: material.transmission ?? 0,
        ior: material.ior ?? 1.5,
        clearcoat: material.clearcoat ?? 0,
        anisotropy: material.anisotropy ?? 0,
        stone: isStone(material),
        planes: (material.transmission ?? 0) > 0 ? stonePlanes(part.positions, part.indices) : null,
        texture,
        visibleWinding: visibleWinding(part.positions, part.indices),
        normalsAgainstWinding: normalsAgainstWinding(part.positions, part.normals, part.indices),
      }) - 1;
    for (let i = 0; i < part.indices.length; i++)
      packed.indices[indexBase + i] = part.indices[i]! + vertexBase;
    packed.triangleMaterial.fill(materialIndex, indexBase / 3, (indexBase + part.indices.length) / 3);
    vertexBase += count;
    indexBase += part.indices.length;
  }
  const { positions, indices, faceNormals } = packed;
  const normal = new Float64Array(3);
  for (let t = 0; t < indexCount / 3; t++) {
    const length = triangleNormal(positions, indices, t, normal) || 1;
    faceNormals[t * 3] = normal[0]! / length;
    faceNormals[t * 3 + 1] = normal[1]! / length;
    faceNormals[t * 3 + 2] = normal[2]! / length;
  }
  return packed;
}

/** Whether vertex normals mostly point against the winding's (right-hand) face normals. */
export function normalsAgainstWinding(
  positions: Float32Array,
  normals: Float32Array,
  indices: Uint32Array,
): boolean {
  let agreement = 0;
  const g = new Float64Array(3);
  for (let t = 0; t < indices.length / 3; t++) {
    triangleNormal(positions, indices, t, g);
    const a = indices[t * 3]! * 3,
      b = indices[t * 3 + 1]! * 3,
      c = indices[t * 3 + 2]! * 3;
    agreement +=
      g[0]! * (normals[a]! + normals[b]! + normals[c]!) +
      g[1]! * (normals[a + 1]! + normals[b + 1]! + normals[c + 1]!) +
      g[2]! * (normals[a + 2]! + normals[b + 2]! + normals[c + 2]!);
  }
  return agreement < 0;
}
