import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildScene, exportModel, material, RenderError } from '../src/index';
import { alignedZip } from '../src/export/aligned-zip';
import { stoneRing } from './fixtures/stone-ring';

interface StoredEntry {
  name: string;
  method: number;
  dataOffset: number;
  data: Uint8Array;
  crcMatches: boolean;
}

/**
 * Reads a zip as AR Quick Look does: local headers in order from the start, each entry's data
 * right after its header, cross-checked against the central directory at the end.
 */
function readZip(zip: Uint8Array): StoredEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const decoder = new TextDecoder();
  const entries: StoredEntry[] = [];
  let at = 0;
  while (view.getUint32(at, true) === 0x04034b50) {
    const method = view.getUint16(at + 8, true);
    const crc = view.getUint32(at + 14, true);
    const compressed = view.getUint32(at + 18, true);
    const size = view.getUint32(at + 22, true);
    expect(compressed).toBe(size);
    const nameLength = view.getUint16(at + 26, true);
    const extraLength = view.getUint16(at + 28, true);
    const name = decoder.decode(zip.subarray(at + 30, at + 30 + nameLength));
    const dataOffset = at + 30 + nameLength + extraLength;
    const data = zip.subarray(dataOffset, dataOffset + size);
    entries.push({ name, method, dataOffset, data, crcMatches: crc32(data) === crc });
    at = dataOffset + size;
  }
  const end = zip.length - 22;
  expect(view.getUint32(end, true)).toBe(0x06054b50);
  expect(view.getUint16(end + 10, true)).toBe(entries.length);
  expect(view.getUint32(end + 16, true)).toBe(at); // the central directory follows the last entry
  let record = at;
  for (const entry of entries) {
    expect(view.getUint32(record, true)).toBe(0x02014b50);
    expect(view.getUint16(record + 10, true)).toBe(entry.method);
    const nameLength = view.getUint16(record + 28, true);
    expect(decoder.decode(zip.subarray(record + 46, record + 46 + nameLength))).toBe(entry.name);
    const localOffset = view.getUint32(record + 42, true);
    expect(
      localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true),
    ).toBe(entry.dataOffset);
    record += 46 + nameLength + view.getUint16(record + 30, true) + view.getUint16(record + 32, true);
  }
  return entries;
}

/** Checks the USDZ rules: stored, every entry's data 64-byte aligned, a usda or usdc root layer first. */
function expectUsdzPackage(zip: Uint8Array): StoredEntry[] {
  const entries = readZip(zip);
  expect(entries.length).toBeGreaterThan(0);
  expect(entries[0]!.name).toMatch(/\.usd[ac]$/);
  for (const entry of entries) {
    expect(entry.method).toBe(0);
    expect(entry.dataOffset % 64).toBe(0);
    expect(entry.crcMatches).toBe(true);
  }
  return entries;
}

/** The body of a `def Mesh "name"` block of a usda text. */
function meshBlock(usda: string, name: string): string {
  const start = usda.indexOf(`def Mesh "${name}"`);
  expect(start).toBeGreaterThanOrEqual(0);
  return usda.slice(start, usda.indexOf('\n    }', start));
}

const arrayLength = (block: string, attribute: string): number => {
  const match = new RegExp(`${attribute.replace(/[[\]]/g, '\\$&')} = \\[([^\\]]*)\\]`).exec(block);
  expect(match).not.toBeNull();
  return (match![1]!.match(/\([^)]*\)|-?[\d.e+-]+/g) ?? []).length;
};

describe('USDZ export', () => {
  it('is a stored, 64-byte aligned package whose usda root declares each mesh at real size', async () => {
    const model = stoneRing();
    const usdz = await exportModel(model, { format: 'usdz', scene: buildScene('ring') });
    const [root] = expectUsdzPackage(usdz);
    const usda = new TextDecoder().decode(root!.data);
    expect(usda.startsWith('#usda 1.0')).toBe(true);
    expect(usda).toMatch(/metersPerUnit = 1\n/);
    expect(usda).toMatch(/upAxis = "Y"/);
    expect(usda).toMatch(/defaultPrim = "Model"/);
    for (const part of model.parts) {
      const block = meshBlock(usda, part.name);
      expect(arrayLength(block, 'int[] faceVertexCounts')).toBe(part.indices.length / 3);
      expect(arrayLength(block, 'int[] faceVertexIndices')).toBe(part.indices.length);
      expect(arrayLength(block, 'point3f[] points')).toBe(part.positions.length / 3);
      expect(block).toMatch(/rel material:binding = <\/Model\/Materials\/\w+>/);
    }
    // Real size: the band's extent is its bounds in metres (a 20 mm ring, not 20 m).
    const extent = /float3\[\] extent = \[\(([^)]*)\), \(([^)]*)\)\]/.exec(meshBlock(usda, 'band'))!;
    const height = Number(extent[2]!.split(', ')[1]) - Number(extent[1]!.split(', ')[1]);
    expect(height).toBeCloseTo(model.bounds.max[1] - model.bounds.min[1], 6);
    expect(usda).toMatch(/uniform token info:id = "UsdPreviewSurface"/);
  });

  it('wears the colourway it is asked for, and refuses one the project lacks', async () => {
    const model = stoneRing();
    const scene = buildScene('ring');
    const variants = [
      { id: 'ruby', name: 'Ruby', scene: buildScene('ring', { materials: { stone: material('ruby') } }) },
    ];
    const usda = (zip: Uint8Array) => new TextDecoder().decode(expectUsdzPackage(zip)[0]!.data);
    expect(usda(await exportModel(model, { format: 'usdz', scene, variants }))).not.toMatch(/"ruby"/);
    const ruby = usda(await exportModel(model, { format: 'usdz', scene, variants, variant: 'ruby' }));
    expect(meshBlock(ruby, 'stone')).toMatch(/material:binding = <\/Model\/Materials\/ruby>/);
    expect(ruby).toMatch(/color3f inputs:diffuseColor = \(0\.75, 0\.02, 0\.06\)/);
    await expect(exportModel(model, { format: 'usdz', scene, variants, variant: 'opal' })).rejects.toThrow(
      RenderError,
    );
  });

  it('aligns the data of every entry, whatever the names and sizes before it', () => {
    const entries = [1, 2, 3, 61, 62, 63, 64, 65, 200].map((size, i) => ({
      name: `${'n'.repeat(i + 1)}.${i === 0 ? 'usda' : 'png'}`,
      data: Uint8Array.from({ length: size }, (_, k) => (k * 31 + i) & 0xff),
    }));
    const read = expectUsdzPackage(alignedZip(entries));
    expect(read.map((e) => [e.name, Array.from(e.data)])).toEqual(
      entries.map((e) => [e.name, Array.from(e.data)]),
    );
  });
});
