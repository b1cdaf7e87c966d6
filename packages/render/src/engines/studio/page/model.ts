import * as THREE from 'three';
import type { BakedEnvironment } from './baked-environment';
import { createMaterial } from './materials';
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
 * One part as a mesh over views of the job's blob (no copies). `modelSize` stands in for the part's
 * own extent when that is zero. Everything the mesh owns is added to `disposables`.
 */
export function buildPart(
  blob: ArrayBuffer,
  part: PagePart,
  modelSize: number,
  cubes: BakedEnvironment,
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
  const material = createMaterial(part.material, part, texture, partSize || modelSize, cubes);
  if (part.occlusion !== undefined) applyVertexOcclusion(material);
  const mesh = new THREE.Mesh(geometry, material);
  mesh.name = part.name;
  disposables.push(geometry, material);
  return { mesh, levels: { geometry, full, lods } };
}
