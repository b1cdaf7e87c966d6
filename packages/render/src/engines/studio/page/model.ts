import * as THREE from 'three';
import type { BakedEnvironment } from './baked-environment';
import { stonePlanes } from '../../../scene/stones';
import { createMaterial, type GemLighting } from './materials';
import { applyVertexOcclusion } from './occlusion';
import type { PagePart } from './protocol';

/** A part's geometry with its full index and the simplified ones, to pick from per output size. */
export interface PartLevels {
  geometry: THREE.BufferGeometry;
  full: THREE.BufferAttribute;
  lods: Array<{ size: number; index: THREE.BufferAttribute }>;
}

/** The part's colour texture, viewed in place in the job's blob. */
function partTexture(blob: ArrayBuffer, spec: NonNullable<PagePart['texture']>): THREE.DataTexture {
  const { offset, width, height } = spec;
  const texture = new THREE.DataTexture(
    new Uint8Array(blob, offset, width * height * 4),
    width,
    height,
    THREE.RGBAFormat,
  );
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.wrapS = texture.wrapT = THREE.RepeatWrapping;
  texture.magFilter = THREE.LinearFilter;
  texture.minFilter = THREE.LinearMipmapLinearFilter;
  texture.generateMipmaps = true;
  texture.anisotropy = 4;
  texture.needsUpdate = true;
  return texture;
}

/**
 * Tangents along the brushing of brushed metal, as the draft engine brushes it: around the model's
 * vertical axis, within each vertex's surface (any direction in it where the normal is vertical
 * on the axis itself).
 */
export function brushingTangents(geometry: THREE.BufferGeometry): THREE.BufferAttribute {
  const position = geometry.getAttribute('position');
  const normal = geometry.getAttribute('normal');
  const tangents = new Float32Array(position.count * 4);
  const n = new THREE.Vector3();
  const t = new THREE.Vector3();
  for (let i = 0; i < position.count; i++) {
    n.fromBufferAttribute(normal, i).normalize();
    t.set(position.getZ(i), 0, -position.getX(i));
    if (t.lengthSq() < 1e-18) t.set(1, 0, 0);
    t.addScaledVector(n, -t.dot(n));
    if (t.lengthSq() < 1e-12) t.set(1, 0, 0).addScaledVector(n, -n.x);
    t.normalize();
    tangents.set([t.x, t.y, t.z, 1], i * 4);
  }
  return new THREE.BufferAttribute(tangents, 4);
}

/**
 * One part as a mesh over views of the job's blob (no copies). `modelSize` stands in for the part's
 * own extent when that is zero; `lights` are the environments a transmissive part's trace looks
 * up. Everything the mesh owns is added to `disposables`.
 */
export function buildPart(
  blob: ArrayBuffer,
  part: PagePart,
  modelSize: number,
  cubes: BakedEnvironment,
  lights: Omit<GemLighting, 'planes'>,
  disposables: Array<{ dispose(): void }>,
): { mesh: THREE.Mesh; levels: PartLevels } {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute(
    'position',
    new THREE.BufferAttribute(new Float32Array(blob, part.positions, part.vertexCount * 3), 3),
  );
  geometry.setAttribute(
    'normal',
    new THREE.BufferAttribute(new Float32Array(blob, part.normals, part.vertexCount * 3), 3),
  );
  if (part.colors !== undefined)
    geometry.setAttribute(
      'color',
      new THREE.BufferAttribute(new Float32Array(blob, part.colors, part.vertexCount * 3), 3),
    );
  if (part.occlusion !== undefined)
    geometry.setAttribute(
      'occlusion',
      new THREE.BufferAttribute(new Float32Array(blob, part.occlusion, part.vertexCount), 1),
    );
  if (part.uvs !== undefined)
    geometry.setAttribute(
      'uv',
      new THREE.BufferAttribute(new Float32Array(blob, part.uvs, part.vertexCount * 2), 2),
    );
  const full = new THREE.BufferAttribute(new Uint32Array(blob, part.indices, part.indexCount), 1);
  geometry.setIndex(full);
  const lods = part.lods.map((l) => ({
    size: l.size,
    index:
      l.indices === undefined
        ? full
        : new THREE.BufferAttribute(new Uint32Array(blob, l.indices, l.indexCount), 1),
  }));
  geometry.computeBoundingSphere();
  const texture = part.texture ? partTexture(blob, part.texture) : null;
  if (texture) disposables.push(texture);
  geometry.computeBoundingBox();
  const box = geometry.boundingBox!;
  const partSize = Math.max(box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z);
  if (part.material.anisotropy) geometry.setAttribute('tangent', brushingTangents(geometry));
  const gem =
    (part.material.transmission ?? 0) > 0
      ? { planes: stonePlanes(geometry.getAttribute('position').array, full.array), ...lights }
      : undefined;
  const material = createMaterial(part.material, part, texture, partSize || modelSize, cubes, gem);
  if (part.occlusion !== undefined) applyVertexOcclusion(material);
  const mesh = new THREE.Mesh(geometry, material);
  mesh.name = part.name;
  disposables.push(geometry, material);
  return { mesh, levels: { geometry, full, lods } };
}
