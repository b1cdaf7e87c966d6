import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeImportWorkers,
  detectFormat,
  importModel,
  RenderError,
  simplifyModel,
  type Model,
} from '../src/index';
import { boxMesh, ringMesh } from './fixtures/shapes';
import { brepFace, igesSheet, stepBox } from './fixtures/write-cad';
import { asciiStl, binaryStl, glb, gltf, obj, ply, threeMf } from './fixtures/write-formats';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'render-import-'));
});
afterAll(async () => {
  await closeImportWorkers();
  await rm(dir, { recursive: true, force: true });
});

const box = boxMesh([20, 10, 5]);
const size = (model: Model): number[] => model.bounds.max.map((v, i) => v - model.bounds.min[i]!);

function expectNormalised(model: Model): void {
  expect(model.bounds.min[1]).toBeCloseTo(0, 9);
  expect((model.bounds.min[0] + model.bounds.max[0]) / 2).toBeCloseTo(0, 9);
  expect((model.bounds.min[2] + model.bounds.max[2]) / 2).toBeCloseTo(0, 9);
  for (const part of model.parts) {
    expect(part.normals.length).toBe(part.positions.length);
    expect(Math.max(...part.indices)).toBeLessThan(part.positions.length / 3);
  }
}

describe('importModel', () => {
  const meshCases: Array<[string, () => Uint8Array | Promise<Uint8Array>]> = [
    ['box.stl', () => binaryStl(box)],
    ['ascii.stl', () => asciiStl(box)],
    ['box.obj', () => obj(box)],
    ['box.ply', () => ply(box)],
    ['box.glb', () => glb(box)],
    ['box.gltf', () => gltf(box)],
    ['box.3mf', () => threeMf(box)],
    ['box.step', () => stepBox([20, 10, 5])],
  ];

  it.each(meshCases)(
    'reads %s in metres, resting on the floor, centred, lying on its largest face',
    async (name, write) => {
      const model = await importModel({ fileName: name, data: await write() });
      expectNormalised(model);
      expect(model.triangleCount).toBe(12);
      // A 20 × 10 × 5 mm box lies flat on its 20 × 10 face whatever the file's up axis.
      const [x, y, z] = size(model);
      expect(y).toBeCloseTo(0.005, 6);
      expect([x, z].sort()).toEqual([expect.closeTo(0.01, 6), expect.closeTo(0.02, 6)]);
    },
  );

  it('reads IGES surfaces and BREP faces through OpenCascade', async () => {
    const sheet = await importModel({ fileName: 'sheet.igs', data: igesSheet() });
    expectNormalised(sheet);
    // A bent B-spline sheet is tessellated finely, not as a single quad.
    expect(sheet.triangleCount).toBeGreaterThan(20);
    expect(Math.max(...size(sheet))).toBeCloseTo(0.02, 4);
    const face = await importModel({ fileName: 'face.brep', data: brepFace() });
    expectNormalised(face);
    expect(face.triangleCount).toBeGreaterThanOrEqual(2);
    expect(Math.max(...size(face))).toBeCloseTo(0.02, 4);
  });

  it('keeps per-face colours of STEP files', async () => {
    const model = await importModel({ fileName: 'box.step', data: stepBox([20, 10, 5], [1, 0, 0]) });
    const part = model.parts[0]!;
    const colors = part.colors!;
    expect(colors).toBeDefined();
    // Vertices on the painted top face (highest y after lying flat) are red; the rest keep the default.
    let red = 0,
      other = 0;
    for (let v = 0; v < part.positions.length / 3; v++) {
      const isRed = colors[v * 3]! > 0.9 && colors[v * 3 + 1]! < 0.1 && colors[v * 3 + 2]! < 0.1;
      if (isRed) {
        red++;
        expect(part.positions[v * 3 + 1]).toBeCloseTo(0.005, 6);
      } else other++;
    }
    expect(red).toBeGreaterThanOrEqual(3);
    expect(other).toBeGreaterThan(red);
  });

  it('keeps colours and decodes embedded textures', async () => {
    const colored = await importModel({ fileName: 'box.ply', data: ply(box, [255, 0, 0]) });
    const colors = colored.parts[0]!.colors!;
    expect(colors[0]).toBeCloseTo(1, 3);
    expect(colors[1]).toBeCloseTo(0, 3);
    const textured = await importModel({ fileName: 'box.glb', data: await glb(box) });
    const part = textured.parts[0]!;
    expect(part.texture).toMatchObject({ width: 4, height: 4 });
    expect(part.texture!.data.length).toBe(64);
    expect(part.uvs!.length).toBe((part.positions.length / 3) * 2);
  });

  it('reads files from disk and trusts content over a wrong extension', async () => {
    const path = join(dir, 'really-an-stl.obj');
    await writeFile(path, binaryStl(box));
    const model = await importModel(path);
    expect(model.source).toMatchObject({ format: 'stl', fileName: 'really-an-stl.obj' });
    expect(detectFormat('x.bin', await glb(box))).toBe('glb');
    expect(detectFormat('x.dat', stepBox())).toBe('step');
    expect(detectFormat('x.dat', igesSheet())).toBe('iges');
    expect(detectFormat('x.dat', brepFace())).toBe('brep');
  });

  it('stands a z-up ring on its band and smooths facet normals', async () => {
    const ring = ringMesh({ segments: 48, sides: 16 });
    const model = await importModel({ fileName: 'ring.stl', data: binaryStl(ring) });
    const [x, y, z] = size(model);
    expect(y).toBeCloseTo(0.0204, 4);
    expect(x).toBeCloseTo(0.0204, 4);
    expect(z).toBeCloseTo(0.0044, 4);
    // Smooth normals: vertices are shared between facets instead of three per triangle.
    expect(model.parts[0]!.positions.length / 3).toBeLessThan(model.triangleCount);
  });

  it('simplifies heavy meshes for drafts', async () => {
    const ring = ringMesh({ segments: 200, sides: 60 });
    const model = await importModel({ fileName: 'ring.stl', data: binaryStl(ring) }, { simplifyAbove: 4000 });
    expect(model.triangleCount).toBeLessThanOrEqual(4000);
    expect(model.triangleCount).toBeGreaterThan(1000);
    const again = await simplifyModel(model, 10_000_000);
    expect(again).toBe(model);
  });

  it('moves handed-over bytes to the import worker and copies the others', async () => {
    const kept = binaryStl(box);
    await importModel({ fileName: 'box.stl', data: kept });
    expect(kept.byteLength).toBeGreaterThan(0);
    const given = binaryStl(box);
    await importModel({ fileName: 'box.stl', data: given, handOver: true });
    expect(given.byteLength).toBe(0);
  });
});

describe('importModel refusals', () => {
  const refused = async (
    source: Parameters<typeof importModel>[0],
    options?: Parameters<typeof importModel>[1],
  ): Promise<RenderError> => {
    const error = await importModel(source, options).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RenderError);
    return error as RenderError;
  };

  it('names the problem with a typed code', async () => {
    expect((await refused({ fileName: 'notes.txt', data: new TextEncoder().encode('hello') })).code).toBe(
      'unsupported_format',
    );
    expect((await refused({ fileName: 'archive.stl', data: threeMf(box) })).code).toBe('unsupported_format');
    expect((await refused({ fileName: 'model.gltf', data: await gltf(box, true) })).code).toBe(
      'unsupported_format',
    );
    expect((await refused({ fileName: 'empty.stl', data: new Uint8Array(0) })).code).toBe('empty_model');
    expect((await refused(join(dir, 'does-not-exist.stl'))).code).toBe('corrupt_file');
    expect((await refused({ fileName: 'box.stl', data: binaryStl(box) }, { maxBytes: 100 })).code).toBe(
      'too_large',
    );
    expect((await refused({ fileName: 'box.stl', data: binaryStl(box) }, { maxTriangles: 5 })).code).toBe(
      'too_many_triangles',
    );
  });

  it('reports corrupt files of every family', async () => {
    const truncatedGlb = (await glb(box)).subarray(0, 40);
    expect((await refused({ fileName: 'cut.glb', data: truncatedGlb })).code).toBe('corrupt_file');
    const brokenStep = new TextEncoder().encode(
      'ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\n#1=NONSENSE(;\nENDSEC;\nEND-ISO-10303-21;\n',
    );
    expect(['corrupt_file', 'empty_model']).toContain(
      (await refused({ fileName: 'broken.step', data: brokenStep })).code,
    );
    expect(
      (await refused({ fileName: 'broken.3mf', data: new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3]) })).code,
    ).toBe('corrupt_file');
    expect(
      (
        await refused({
          fileName: 'junk.stl',
          data: new TextEncoder().encode('solid x\nfacet normal a b c\nendsolid'),
        })
      ).code,
    ).toMatch(/corrupt_file|empty_model/);
  });

  it('stops a parse that runs past its time limit or is cancelled', async () => {
    expect((await refused({ fileName: 'box.step', data: stepBox() }, { timeoutMs: 1 })).code).toBe('timeout');
    const controller = new AbortController();
    const pending = importModel({ fileName: 'box.step', data: stepBox() }, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    await expect(
      importModel({ fileName: 'box.step', data: stepBox() }, { signal: AbortSignal.timeout(0) }),
    ).rejects.toMatchObject({ code: 'timeout' });
  });
});
