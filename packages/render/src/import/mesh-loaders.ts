import sharp from 'sharp';
import {
  Color,
  DataTexture,
  Mesh,
  RGBAFormat,
  SRGBColorSpace,
  type BufferGeometry,
  type Group,
  type Material,
  type Object3D,
  type Texture,
} from 'three';
import { GLTFLoader, type GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { PLYLoader } from 'three/examples/jsm/loaders/PLYLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { ThreeMFLoader } from 'three/examples/jsm/loaders/3MFLoader.js';
import { unzipSync, strFromU8 } from 'three/examples/jsm/libs/fflate.module.js';
import { DOMParser as LinkedomDOMParser } from 'linkedom';
import { RenderError } from '../types';
import type { LoadedMesh, RawPart } from './raw-part';

// three's loaders expect a few browser globals; Node gets small stand-ins scoped to what they touch.
const globals = globalThis as Record<string, unknown>;
globals.self ??= globalThis;
globals.DOMParser ??= LinkedomDOMParser;
// FileLoader (glTF buffers given as data: URIs) reports progress with ProgressEvent.
globals.ProgressEvent ??= class ProgressEvent extends Event {
  readonly lengthComputable: boolean;
  readonly loaded: number;
  readonly total: number;
  constructor(type: string, init: { lengthComputable?: boolean; loaded?: number; total?: number } = {}) {
    super(type);
    this.lengthComputable = init.lengthComputable ?? false;
    this.loaded = init.loaded ?? 0;
    this.total = init.total ?? 0;
  }
};

const MM = 0.001;

const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

function materialColor(material: Material | undefined): [number, number, number] | undefined {
  const color = (material as { color?: Color } | undefined)?.color;
  return color instanceof Color ? [color.r, color.g, color.b] : undefined;
}

function materialTexture(material: Material | undefined): RawPart['texture'] {
  const map = (material as { map?: Texture | null } | undefined)?.map;
  const image = map?.image as { width?: number; height?: number; data?: Uint8Array } | undefined;
  if (!image?.data || !image.width || !image.height) return undefined;
  return { width: image.width, height: image.height, data: image.data };
}

function floatColors(geometry: BufferGeometry): Float32Array | undefined {
  const attribute = geometry.getAttribute('color');
  if (!attribute) return undefined;
  const colors = new Float32Array(attribute.count * 3);
  for (let i = 0; i < attribute.count; i++) {
    colors[i * 3] = attribute.getX(i);
    colors[i * 3 + 1] = attribute.getY(i);
    colors[i * 3 + 2] = attribute.getZ(i);
  }
  return colors;
}

function attributeArray(geometry: BufferGeometry, name: string, size: number): Float32Array | undefined {
  const attribute = geometry.getAttribute(name);
  if (!attribute) return undefined;
  const out = new Float32Array(attribute.count * size);
  for (let i = 0; i < attribute.count; i++) {
    out[i * size] = attribute.getX(i);
    if (size > 1) out[i * size + 1] = attribute.getY(i);
    if (size > 2) out[i * size + 2] = attribute.getZ(i);
  }
  return out;
}

/** Splits a geometry into parts per material group, in world space. */
function partsFromGeometry(
  geometry: BufferGeometry,
  name: string,
  material: Material | Material[] | undefined,
  options: { keepNormals: boolean },
): RawPart[] {
  const positions = attributeArray(geometry, 'position', 3);
  if (!positions || positions.length === 0) return [];
  const normals = options.keepNormals ? attributeArray(geometry, 'normal', 3) : undefined;
  const colors = floatColors(geometry);
  const uvs = attributeArray(geometry, 'uv', 2);
  const vertexCount = positions.length / 3;
  const allIndices = geometry.index
    ? Uint32Array.from(geometry.index.array as ArrayLike<number>)
    : Uint32Array.from({ length: vertexCount }, (_, i) => i);
  const materials = Array.isArray(material) ? material : [material];
  const groups =
    Array.isArray(material) && geometry.groups.length > 0
      ? geometry.groups
      : [{ start: 0, count: allIndices.length, materialIndex: 0 }];
  return groups.map((group, g) => {
    const groupMaterial = materials[group.materialIndex ?? 0] ?? materials[0];
    return {
      name: groups.length > 1 ? `${name}-${g + 1}` : name,
      positions,
      normals,
      indices: allIndices.subarray(
        group.start,
        group.start + Math.min(group.count, allIndices.length - group.start),
      ),
      colors,
      uvs,
      color: materialColor(groupMaterial),
      texture: uvs ? materialTexture(groupMaterial) : undefined,
    };
  });
}

function partsFromObject(root: Object3D, options: { keepNormals: boolean }): RawPart[] {
  root.updateMatrixWorld(true);
  const parts: RawPart[] = [];
  root.traverse((object) => {
    if (!(object instanceof Mesh)) return;
    const geometry = (object.geometry as BufferGeometry).clone().applyMatrix4(object.matrixWorld);
    parts.push(
      ...partsFromGeometry(geometry, object.name || `part-${parts.length + 1}`, object.material, options),
    );
  });
  return parts;
}

/** Decodes glTF images with sharp (Node has no image decoder) into RGBA DataTextures. */
class SharpTexturePlugin {
  readonly name = 'ATELIER_sharp_textures';
  constructor(private readonly parser: GLTFParser) {}

  /** A plugin answers synchronously with null for textures it does not handle (GLTFParser._invokeOne). */
  loadTexture(textureIndex: number): Promise<Texture> {
    const json = this.parser.json as {
      textures?: Array<{ source?: number }>;
      images?: Array<{ uri?: string; bufferView?: number }>;
    };
    const source = json.textures?.[textureIndex]?.source;
    const image = source === undefined ? undefined : json.images?.[source];
    if (!image || (image.bufferView === undefined && !image.uri?.startsWith('data:'))) {
      return null as unknown as Promise<Texture>;
    }
    return this.decode(image);
  }

  private async decode(image: { uri?: string; bufferView?: number }): Promise<Texture> {
    const encoded =
      image.bufferView !== undefined
        ? new Uint8Array((await this.parser.getDependency('bufferView', image.bufferView)) as ArrayBuffer)
        : Buffer.from(image.uri!.slice(image.uri!.indexOf(',') + 1), 'base64');
    const { data, info } = await sharp(encoded).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const texture = new DataTexture(new Uint8Array(data), info.width, info.height, RGBAFormat);
    texture.flipY = false;
    texture.colorSpace = SRGBColorSpace;
    return texture;
  }
}

/** glTF JSON must carry its buffers and images inline: no server-side fetching of other files. */
function assertSelfContained(json: {
  buffers?: Array<{ uri?: string }>;
  images?: Array<{ uri?: string }>;
}): void {
  const external = [...(json.buffers ?? []), ...(json.images ?? [])].find(
    (r) => r.uri && !r.uri.startsWith('data:'),
  );
  if (external) {
    throw new RenderError(
      'unsupported_format',
      `this glTF refers to a separate file (${external.uri}); upload a .glb or a .gltf with embedded data`,
    );
  }
}

async function loadGltf(bytes: Uint8Array): Promise<LoadedMesh> {
  const isBinary = Buffer.from(bytes.subarray(0, 4)).toString('latin1') === 'glTF';
  if (!isBinary) {
    let json: unknown;
    try {
      json = JSON.parse(Buffer.from(bytes).toString('utf8'));
    } catch {
      throw new RenderError('corrupt_file', 'the glTF file is not valid JSON');
    }
    assertSelfContained(json as Parameters<typeof assertSelfContained>[0]);
  }
  const loader = new GLTFLoader();
  loader.register((parser) => new SharpTexturePlugin(parser));
  const gltf = await new Promise<{ scene: Group }>((resolve, reject) =>
    loader.parse(toArrayBuffer(bytes), '', resolve as (g: unknown) => void, reject),
  );
  return { parts: partsFromObject(gltf.scene, { keepNormals: true }), unitScale: 1, conventionalUp: 'y' };
}

function threeMfUnitScale(bytes: Uint8Array): number {
  const files = unzipSync(bytes, { filter: (file) => /^3D\/.*\.model$/i.test(file.name) });
  const model = Object.values(files)[0];
  const unit = model
    ? /<model[^>]*\bunit="([a-z]+)"/i.exec(strFromU8(model.subarray(0, 4096)))?.[1]
    : undefined;
  const scales: Record<string, number> = {
    micron: 1e-6,
    millimeter: MM,
    centimeter: 0.01,
    inch: 0.0254,
    foot: 0.3048,
    meter: 1,
  };
  return scales[unit ?? 'millimeter'] ?? MM;
}

/** Parses a mesh format with its three.js loader. Throws on anything the loader cannot read. */
export async function loadMeshFormat(
  format: 'stl' | 'obj' | 'ply' | 'gltf' | 'glb' | '3mf',
  bytes: Uint8Array,
): Promise<LoadedMesh> {
  switch (format) {
    case 'stl': {
      const geometry = new STLLoader().parse(toArrayBuffer(bytes));
      // STL carries facet normals only; smooth ones are rebuilt with a crease angle.
      return {
        parts: partsFromGeometry(geometry, 'stl', undefined, { keepNormals: false }),
        unitScale: MM,
        conventionalUp: 'z',
      };
    }
    case 'ply': {
      const geometry = new PLYLoader().parse(toArrayBuffer(bytes));
      return {
        parts: partsFromGeometry(geometry, 'ply', undefined, { keepNormals: true }),
        unitScale: MM,
        conventionalUp: 'z',
      };
    }
    case 'obj': {
      const group = new OBJLoader().parse(Buffer.from(bytes).toString('utf8'));
      return { parts: partsFromObject(group, { keepNormals: true }), unitScale: MM, conventionalUp: 'y' };
    }
    case '3mf': {
      const unitScale = threeMfUnitScale(bytes);
      const group = new ThreeMFLoader().parse(toArrayBuffer(bytes)) as Group;
      return { parts: partsFromObject(group, { keepNormals: false }), unitScale, conventionalUp: 'z' };
    }
    case 'gltf':
    case 'glb':
      return loadGltf(bytes);
  }
}
