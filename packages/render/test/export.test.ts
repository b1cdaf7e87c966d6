import { Box3, Mesh } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'meshoptimizer';
import { validateBytes } from 'gltf-validator';
import { describe, expect, it } from 'vitest';
import { buildScene, exportModel, material, RenderError, type ExportVariant } from '../src/index';
import { glbContainer } from '../src/export/glb';
import { stoneRing } from './fixtures/stone-ring';

const scene = buildScene('ring');
const variants: ExportVariant[] = [
  {
    id: 'rose-gold',
    name: 'Rose gold',
    scene: buildScene('ring', { materials: { '*': material('rose-gold') } }),
  },
  { id: 'ruby', name: 'Ruby', scene: buildScene('ring', { materials: { stone: material('ruby') } }) },
  {
    id: 'brushed',
    name: 'Brushed steel',
    scene: buildScene('ring', { materials: { band: material('brushed-steel') } }),
  },
];

interface GltfJson {
  extensionsUsed: string[];
  extensionsRequired?: string[];
  bufferViews: Array<{
    buffer: number;
    byteOffset: number;
    byteLength: number;
    extensions?: Record<string, MeshoptView>;
  }>;
  buffers: Array<{ byteLength: number; extensions?: unknown }>;
  extensions: { KHR_materials_variants: { variants: Array<{ name: string }> } };
  materials: Array<{ name: string; extensions?: Record<string, Record<string, number>> }>;
  meshes: Array<{
    primitives: Array<{
      material: number;
      attributes: Record<string, number>;
      extensions?: { KHR_materials_variants: { mappings: Array<{ material: number; variants: number[] }> } };
    }>;
  }>;
}

interface MeshoptView {
  byteOffset: number;
  byteLength: number;
  byteStride: number;
  count: number;
  mode: string;
  filter?: string;
}

function glbChunks(glb: Uint8Array): { json: GltfJson; bin: Uint8Array } {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  expect(view.getUint32(0, true)).toBe(0x46546c67);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength))) as GltfJson;
  const binStart = 28 + jsonLength;
  return { json, bin: glb.subarray(binStart, binStart + view.getUint32(20 + jsonLength, true)) };
}

/**
 * The same GLB with its views decoded into a plain buffer, so the validator (which cannot read
 * EXT_meshopt_compression) checks the accessors' data too: bounds, unit normals, index ranges.
 */
async function decompressed(glb: Uint8Array): Promise<Uint8Array> {
  await MeshoptDecoder.ready;
  const { json, bin } = glbChunks(glb);
  const data = new Uint8Array(json.buffers[1]!.byteLength);
  for (const view of json.bufferViews) {
    const packed = view.extensions!.EXT_meshopt_compression!;
    const target = new Uint8Array(packed.count * packed.byteStride);
    const source = bin.subarray(packed.byteOffset, packed.byteOffset + packed.byteLength);
    MeshoptDecoder.decodeGltfBuffer(
      target,
      packed.count,
      packed.byteStride,
      source,
      packed.mode,
      packed.filter,
    );
    data.set(target.subarray(0, view.byteLength), view.byteOffset);
    delete view.extensions;
    view.buffer = 0;
  }
  const plain = (list: string[]) => list.filter((name) => name !== 'EXT_meshopt_compression');
  return glbContainer(
    {
      ...json,
      extensionsUsed: plain(json.extensionsUsed),
      extensionsRequired: plain(json.extensionsRequired ?? []),
      buffers: [{ byteLength: data.length }],
    },
    data,
  );
}

const glbJson = (glb: Uint8Array): GltfJson => glbChunks(glb).json;

describe('GLB export', () => {
  it('validates with the Khronos validator and carries the colourways as KHR_materials_variants', async () => {
    const model = stoneRing();
    const glb = await exportModel(model, { format: 'glb', scene, variants });
    const plain = await exportModel(model, { format: 'glb', scene, variants, compression: 'none' });
    expect(glbJson(plain).extensionsRequired).toBeUndefined();
    for (const file of [glb, await decompressed(glb), plain]) {
      const report = await validateBytes(file, { maxIssues: 50 });
      expect(report.issues.messages.filter((issue) => issue.severity <= 1)).toEqual([]);
      expect(report.info?.totalTriangleCount).toBe(model.triangleCount);
    }

    const json = glbJson(glb);
    expect(json.extensionsUsed).toEqual(
      expect.arrayContaining([
        'EXT_meshopt_compression',
        'KHR_mesh_quantization',
        'KHR_materials_variants',
        'KHR_materials_transmission',
        'KHR_materials_ior',
        'KHR_materials_dispersion',
        'KHR_materials_anisotropy',
      ]),
    );
    expect(json.extensions.KHR_materials_variants.variants.map((v) => v.name)).toEqual([
      'Rose gold',
      'Ruby',
      'Brushed steel',
    ]);
    const names = json.materials.map((m) => m.name);
    const [band, stone] = json.meshes[0]!.primitives;
    expect(names[band!.material]).toBe('yellow-gold');
    expect(names[stone!.material]).toBe('gem');
    // The band changes in the rose-gold and brushed colourways, the stone only in the ruby one.
    const mapped = (primitive: typeof band) =>
      Object.fromEntries(
        primitive!.extensions!.KHR_materials_variants.mappings.flatMap((m) =>
          m.variants.map((v) => [
            json.extensions.KHR_materials_variants.variants[v]!.name,
            names[m.material],
          ]),
        ),
      );
    expect(mapped(band)).toEqual({ 'Rose gold': 'rose-gold', 'Brushed steel': 'brushed-steel' });
    expect(mapped(stone)).toEqual({ Ruby: 'ruby' });
    // Brushing needs a direction to run in: the band carries tangents, the stone none.
    expect(band!.attributes.TANGENT).toBeDefined();
    expect(stone!.attributes.TANGENT).toBeUndefined();
    const ruby = json.materials.find((m) => m.name === 'ruby')!;
    expect(ruby.extensions!.KHR_materials_ior!.ior).toBe(1.77);
    expect(ruby.extensions!.KHR_materials_transmission!.transmissionFactor).toBe(1);
  });

  it('reads back in three.js (meshopt decoder, and plain) at the same triangle count and real size', async () => {
    const model = stoneRing();
    await MeshoptDecoder.ready;
    const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
    for (const compression of ['meshopt', 'none'] as const) {
      const glb = await exportModel(model, { format: 'glb', scene, variants, compression });
      const gltf = await loader.parseAsync(glb.slice().buffer, '');
      let triangles = 0;
      gltf.scene.traverse((object) => {
        if (object instanceof Mesh) triangles += object.geometry.getIndex()!.count / 3;
      });
      expect(triangles).toBe(model.triangleCount);
      const box = new Box3().setFromObject(gltf.scene);
      // Quantised positions sit on a grid of 1/32767 of the half-extent: well under a micrometre on a ring.
      const tolerance = 1e-6;
      for (const [axis, a] of [
        ['x', 0],
        ['y', 1],
        ['z', 2],
      ] as const) {
        expect(Math.abs(box.min[axis] - model.bounds.min[a])).toBeLessThan(tolerance);
        expect(Math.abs(box.max[axis] - model.bounds.max[a])).toBeLessThan(tolerance);
      }
    }
  });

  it('refuses duplicate colourway ids and an empty model with a RenderError', async () => {
    const model = stoneRing();
    await expect(
      exportModel(model, { format: 'glb', scene, variants: [variants[0]!, variants[0]!] }),
    ).rejects.toThrow(RenderError);
    await expect(
      exportModel({ ...model, parts: [], triangleCount: 0 }, { format: 'glb', scene }),
    ).rejects.toThrow(/no triangles/);
  });
});
