import { MeshoptEncoder } from 'meshoptimizer';
import type { MeshPart, Model, PbrMaterial } from '../types';
import { boundsOf } from '../import/normalize';
import { isStone, STONE_DISPERSION } from '../scene/stones';
import type { ExportVariant, MaterialPlan } from './materials-plan';

// A GLB for web viewers and Android's Scene Viewer: every part a primitive of one mesh. Compressed,
// positions are quantised to 16-bit integers on a grid the node's scale and translation undo
// (KHR_mesh_quantization), normals and brushing tangents to 8-bit octahedral, and every view is packed
// with meshopt (EXT_meshopt_compression); plain, they are floats. Sizes stay in metres; colourways
// ride along as KHR_materials_variants.

const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;
const BYTE = 5120;
const SHORT = 5122;
const UNSIGNED_SHORT = 5123;
const UNSIGNED_INT = 5125;
const FLOAT = 5126;
const POSITION_STEPS = 32767;
/** Crown glass disperses with an Abbe number near 59; glTF's dispersion is 20 / Abbe. */
const GLASS_DISPERSION = 20 / 59;

type MeshoptMode = 'ATTRIBUTES' | 'TRIANGLES';
type Json = Record<string, unknown>;
/** Where quantised positions sit: grid step `step` around `centre`, in metres. */
type Grid = { centre: number[]; step: number };

/**
 * The views of the GLB's own buffer. Compressed: meshopt streams there, and their decoded layout
 * in an empty fallback buffer the decoder fills. Plain: the bytes themselves.
 */
class ViewPacker {
  readonly views: Json[] = [];
  private readonly chunks: Uint8Array[] = [];
  private storedLength = 0;
  private decodedLength = 0;

  constructor(readonly compressed: boolean) {}

  add(source: Uint8Array, count: number, stride: number, mode: MeshoptMode, filter?: 'OCTAHEDRAL'): number {
    const stored = this.compressed ? MeshoptEncoder.encodeGltfBuffer(source, count, stride, mode) : source;
    const padding = (4 - (stored.length % 4)) % 4;
    const byteOffset = this.storedLength;
    this.chunks.push(stored, new Uint8Array(padding));
    this.storedLength += stored.length + padding;
    const layout =
      mode === 'ATTRIBUTES' ? { byteStride: stride, target: ARRAY_BUFFER } : { target: ELEMENT_ARRAY_BUFFER };
    if (!this.compressed) {
      this.views.push({ buffer: 0, byteOffset, byteLength: source.byteLength, ...layout });
      return this.views.length - 1;
    }
    const decodedOffset = this.decodedLength;
    this.decodedLength += Math.ceil(source.byteLength / 4) * 4;
    this.views.push({
      buffer: 1,
      byteOffset: decodedOffset,
      byteLength: source.byteLength,
      ...layout,
      extensions: {
        EXT_meshopt_compression: {
          buffer: 0,
          byteOffset,
          byteLength: stored.length,
          byteStride: stride,
          count,
          mode,
          ...(filter ? { filter } : {}),
        },
      },
    });
    return this.views.length - 1;
  }

  buffers(): Json[] {
    const own = { byteLength: this.storedLength };
    if (!this.compressed) return [own];
    return [
      own,
      { byteLength: this.decodedLength, extensions: { EXT_meshopt_compression: { fallback: true } } },
    ];
  }

  bytes(): Uint8Array {
    return concat(this.chunks);
  }
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/**
 * The grid positions are stored on: centre of the vertices' bounds (measured, so no vertex can fall
 * off the 16-bit range), and one step of 1/32767 of the largest half-extent.
 */
function quantisationGrid(model: Model): Grid {
  const { min, max } = boundsOf(model.parts);
  const centre = min.map((m, a) => (m + max[a]!) / 2);
  const halfExtent = Math.max(...min.map((m, a) => (max[a]! - m) / 2));
  return { centre, step: halfExtent > 0 ? halfExtent / POSITION_STEPS : 1 };
}

/** A unit vector; a zero one (a degenerate face's) points up rather than nowhere. */
function unit(x: number, y: number, z: number): [number, number, number] {
  const length = Math.hypot(x, y, z);
  return length > 1e-12 ? [x / length, y / length, z / length] : [0, 1, 0];
}

/**
 * Brushing runs around the model's vertical axis (as the engines shade it): the tangent at a vertex
 * is the circle through it around y, made perpendicular to the normal.
 */
function brushingTangent(px: number, pz: number, n: [number, number, number]): [number, number, number] {
  const across = (x: number, y: number, z: number): [number, number, number] => {
    const along = x * n[0] + y * n[1] + z * n[2];
    return [x - along * n[0], y - along * n[1], z - along * n[2]];
  };
  let tangent = across(-pz, 0, px);
  // On the axis, or where the normal runs along the circle, any direction across the normal will do.
  if (Math.hypot(...tangent) < 1e-9) tangent = Math.abs(n[0]) < 0.9 ? across(1, 0, 0) : across(0, 1, 0);
  return unit(...tangent);
}

/** A part's vertices in the order meshopt's reordering gave them: metres, unit normals, brushing tangents. */
interface OrderedVertices {
  count: number;
  positions: Float32Array;
  /** xyz and a spare fourth component, as the octahedral filter takes them. */
  normals: Float32Array;
  tangents?: Float32Array;
}

function orderVertices(part: MeshPart, remap: Uint32Array, count: number, brushed: boolean): OrderedVertices {
  const positions = new Float32Array(count * 3);
  const normals = new Float32Array(count * 4);
  const tangents = brushed ? new Float32Array(count * 4) : undefined;
  for (let source = 0; source < remap.length; source++) {
    const target = remap[source]!;
    if (target === 0xffffffff) continue; // a vertex no triangle uses
    positions.set(part.positions.subarray(source * 3, source * 3 + 3), target * 3);
    const n = unit(part.normals[source * 3]!, part.normals[source * 3 + 1]!, part.normals[source * 3 + 2]!);
    normals.set(n, target * 4);
    if (tangents) {
      const t = brushingTangent(part.positions[source * 3]!, part.positions[source * 3 + 2]!, n);
      tangents.set([...t, 1], target * 4);
    }
  }
  return { count, positions, normals, tangents };
}

/** Compressed: 16-bit positions on the grid (padded to 8 bytes), 8-bit octahedral normals and tangents. */
function quantisedAttributes(vertices: OrderedVertices, grid: Grid, packer: ViewPacker, accessors: Json[]) {
  const { count } = vertices;
  const positions = new Int16Array(count * 4);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < count; v++) {
    for (let a = 0; a < 3; a++) {
      const q = Math.round((vertices.positions[v * 3 + a]! - grid.centre[a]!) / grid.step);
      positions[v * 4 + a] = q;
      min[a] = Math.min(min[a]!, q);
      max[a] = Math.max(max[a]!, q);
    }
  }
  const octahedral = (values: Float32Array, type: string): number => {
    const view = packer.add(
      MeshoptEncoder.encodeFilterOct(values, count, 4, 8),
      count,
      4,
      'ATTRIBUTES',
      'OCTAHEDRAL',
    );
    return accessors.push({ bufferView: view, componentType: BYTE, normalized: true, count, type }) - 1;
  };
  const positionView = packer.add(new Uint8Array(positions.buffer), count, 8, 'ATTRIBUTES');
  const attributes: Record<string, number> = {
    POSITION:
      accessors.push({ bufferView: positionView, componentType: SHORT, count, type: 'VEC3', min, max }) - 1,
    NORMAL: octahedral(vertices.normals, 'VEC3'),
  };
  if (vertices.tangents) attributes.TANGENT = octahedral(vertices.tangents, 'VEC4');
  return attributes;
}

/** Plain: 32-bit floats in metres, for viewers without the meshopt decoder. */
function floatAttributes(vertices: OrderedVertices, packer: ViewPacker, accessors: Json[]) {
  const { count, positions } = vertices;
  const { min, max } = boundsOf([vertices]);
  const normals = new Float32Array(count * 3);
  for (let v = 0; v < count; v++) normals.set(vertices.normals.subarray(v * 4, v * 4 + 3), v * 3);
  const floats = (values: Float32Array, size: number, type: string, extra: Json = {}): number => {
    const view = packer.add(new Uint8Array(values.buffer), count, size * 4, 'ATTRIBUTES');
    return accessors.push({ bufferView: view, componentType: FLOAT, count, type, ...extra }) - 1;
  };
  const attributes: Record<string, number> = {
    POSITION: floats(positions, 3, 'VEC3', { min, max }),
    NORMAL: floats(normals, 3, 'VEC3'),
  };
  if (vertices.tangents) attributes.TANGENT = floats(vertices.tangents, 4, 'VEC4');
  return attributes;
}

/** One part's attributes and indices, reordered for the vertex cache and for meshopt, as accessors. */
function packPart(
  part: MeshPart,
  grid: Grid,
  brushed: boolean,
  packer: ViewPacker,
  accessors: Json[],
): { attributes: Record<string, number>; indices: number } {
  const indices = Uint32Array.from(part.indices);
  const [remap, count] = MeshoptEncoder.reorderMesh(indices, true, true);
  const vertices = orderVertices(part, remap, count, brushed);
  const attributes = packer.compressed
    ? quantisedAttributes(vertices, grid, packer, accessors)
    : floatAttributes(vertices, packer, accessors);
  const wide = count > 0xffff;
  const indexBytes = wide ? new Uint8Array(indices.buffer) : new Uint8Array(Uint16Array.from(indices).buffer);
  const indexView = packer.add(indexBytes, indices.length, wide ? 4 : 2, 'TRIANGLES');
  const indexAccessor =
    accessors.push({
      bufferView: indexView,
      componentType: wide ? UNSIGNED_INT : UNSIGNED_SHORT,
      count: indices.length,
      type: 'SCALAR',
    }) - 1;
  return { attributes, indices: indexAccessor };
}

/** glTF's dispersion (20 / Abbe number): a stone's from the spread the engines give its index, glass's its own. */
function dispersionOf(pbr: PbrMaterial): number {
  const ior = pbr.ior ?? 1.5;
  return isStone(pbr) ? (20 * STONE_DISPERSION * ior) / (ior - 1) : GLASS_DISPERSION;
}

function gltfMaterial(name: string, pbr: PbrMaterial, thickness: number): Json {
  const extensions: Json = {};
  if (pbr.transmission) {
    extensions.KHR_materials_transmission = { transmissionFactor: pbr.transmission };
    extensions.KHR_materials_ior = { ior: pbr.ior ?? 1.5 };
    // Refraction and dispersion need a volume: as thick as the thinnest part wearing it.
    extensions.KHR_materials_volume = { thicknessFactor: thickness };
    extensions.KHR_materials_dispersion = { dispersion: dispersionOf(pbr) };
  }
  if (pbr.clearcoat) {
    extensions.KHR_materials_clearcoat = { clearcoatFactor: pbr.clearcoat, clearcoatRoughnessFactor: 0.03 };
  }
  if (pbr.anisotropy) extensions.KHR_materials_anisotropy = { anisotropyStrength: pbr.anisotropy };
  return {
    name,
    pbrMetallicRoughness: {
      baseColorFactor: [...pbr.baseColor, 1],
      metallicFactor: pbr.metalness,
      roughnessFactor: pbr.roughness,
    },
    ...(Object.keys(extensions).length > 0 ? { extensions } : {}),
  };
}

/** The smallest side of a part's bounding box, in metres. */
function thinnestSide(part: MeshPart): number {
  const { min, max } = boundsOf([part]);
  return Math.min(...min.map((m, a) => max[a]! - m));
}

/** The GLB container: a JSON chunk padded with spaces, a binary chunk padded with zeros. */
export function glbContainer(json: Json, bin: Uint8Array): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonChunk = new Uint8Array(Math.ceil(text.length / 4) * 4).fill(0x20);
  jsonChunk.set(text);
  const binChunk = new Uint8Array(Math.ceil(bin.length / 4) * 4);
  binChunk.set(bin);
  const out = new Uint8Array(12 + 8 + jsonChunk.length + 8 + binChunk.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true); // 'glTF'
  view.setUint32(4, 2, true);
  view.setUint32(8, out.length, true);
  view.setUint32(12, jsonChunk.length, true);
  view.setUint32(16, 0x4e4f534a, true); // 'JSON'
  out.set(jsonChunk, 20);
  view.setUint32(20 + jsonChunk.length, binChunk.length, true);
  view.setUint32(24 + jsonChunk.length, 0x004e4942, true); // 'BIN\0'
  out.set(binChunk, 28 + jsonChunk.length);
  return out;
}

export async function writeGlb(
  model: Model,
  plan: MaterialPlan,
  variants: readonly ExportVariant[],
  options: { name: string; compressed: boolean },
): Promise<Uint8Array> {
  await MeshoptEncoder.ready;
  const { name, compressed } = options;
  // Plain floats are in metres already: the identity grid.
  const grid = compressed ? quantisationGrid(model) : { centre: [0, 0, 0], step: 1 };
  const packer = new ViewPacker(compressed);
  const accessors: Json[] = [];
  const thickness = new Array<number>(plan.materials.length).fill(Infinity);
  const primitives = model.parts.map((part, p) => {
    const { material, variants: switches } = plan.parts[p]!;
    const worn = [material, ...switches.values()];
    const side = thinnestSide(part) / grid.step;
    for (const m of worn) thickness[m] = Math.min(thickness[m]!, side);
    const brushed = worn.some((m) => plan.materials[m]!.pbr.anisotropy);
    const mappings = new Map<number, number[]>();
    for (const [variant, m] of switches) mappings.set(m, [...(mappings.get(m) ?? []), variant]);
    return {
      ...packPart(part, grid, brushed, packer, accessors),
      material,
      mode: 4,
      ...(mappings.size > 0
        ? {
            extensions: {
              KHR_materials_variants: {
                mappings: [...mappings].map(([m, list]) => ({ material: m, variants: list })),
              },
            },
          }
        : {}),
    };
  });
  const materials = plan.materials.map(({ name: materialName, pbr }, m) =>
    gltfMaterial(materialName, pbr, Number.isFinite(thickness[m]) ? thickness[m]! : 0),
  );
  const required = compressed ? ['EXT_meshopt_compression', 'KHR_mesh_quantization'] : [];
  const used = new Set<string>(required);
  for (const material of materials) for (const key of Object.keys(material.extensions ?? {})) used.add(key);
  if (variants.length > 0) used.add('KHR_materials_variants');
  const json: Json = {
    asset: { version: '2.0', generator: 'Atelier render' },
    extensionsUsed: [...used],
    ...(required.length > 0 ? { extensionsRequired: required } : {}),
    ...(variants.length > 0
      ? {
          extensions: {
            KHR_materials_variants: {
              variants: variants.map((v) => ({ name: v.name, extras: { id: v.id } })),
            },
          },
        }
      : {}),
    scene: 0,
    scenes: [{ nodes: [0] }],
    // The node's scale and translation turn the quantised grid back into metres.
    nodes: [
      compressed
        ? { name, mesh: 0, translation: grid.centre, scale: [grid.step, grid.step, grid.step] }
        : { name, mesh: 0 },
    ],
    meshes: [{ name, primitives }],
    materials,
    accessors,
    bufferViews: packer.views,
    buffers: packer.buffers(),
  };
  return glbContainer(json, packer.bytes());
}
