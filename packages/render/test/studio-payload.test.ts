import { describe, expect, it } from 'vitest';
import { packModel } from '../src/engines/studio/model-payload';
import { buildScene } from '../src/scene/build-scene';
import type { Model } from '../src/types';

/** A finely tessellated torus (radius 10, tube 2): smooth enough that coarse levels stay faithful. */
function denseTorus(segments: number, sides: number): Model {
  const positions = new Float32Array(segments * sides * 3);
  const normals = new Float32Array(segments * sides * 3);
  const indices = new Uint32Array(segments * sides * 6);
  for (let i = 0; i < segments; i++) {
    const u = (i / segments) * Math.PI * 2;
    for (let j = 0; j < sides; j++) {
      const v = (j / sides) * Math.PI * 2;
      const o = (i * sides + j) * 3;
      normals.set([Math.cos(v) * Math.cos(u), Math.sin(v), Math.cos(v) * Math.sin(u)], o);
      positions.set(
        [(10 + 2 * Math.cos(v)) * Math.cos(u), 2 + 2 * Math.sin(v), (10 + 2 * Math.cos(v)) * Math.sin(u)],
        o,
      );
      const a = i * sides + j;
      const b = ((i + 1) % segments) * sides + j;
      const c = ((i + 1) % segments) * sides + ((j + 1) % sides);
      const d = i * sides + ((j + 1) % sides);
      indices.set([a, c, b, a, d, c], (i * sides + j) * 6);
    }
  }
  return {
    parts: [{ name: 'torus', positions, normals, indices, material: 'body' }],
    bounds: { min: [-12, 0, -12], max: [12, 4, 12] },
    triangleCount: indices.length / 3,
    source: { format: 'stl', fileName: 'torus.stl', unitScale: 1, upAxis: 'y' },
  };
}

describe('studio model payload', () => {
  it('keeps every array readable in place and adds coarser index buffers for smaller outputs', async () => {
    const model = denseTorus(400, 60); // 48,000 triangles
    const { blob, parts } = await packModel(model, buildScene('ring'), [256, 2048]);
    const [part] = parts;
    const view = <T>(
      Type: new (buffer: ArrayBuffer, offset: number, length: number) => T,
      offset: number,
      length: number,
    ): T => new Type(blob.buffer as ArrayBuffer, blob.byteOffset + offset, length);

    expect(view(Float32Array, part!.positions, 9)).toEqual(model.parts[0]!.positions.subarray(0, 9));
    expect(view(Uint32Array, part!.indices, part!.indexCount)).toEqual(model.parts[0]!.indices);

    // Finest level first; each level at most as heavy as the one before and lighter than the mesh.
    expect(part!.lods.map((l) => l.size)).toEqual([2048, 256]);
    const [fine, coarse] = part!.lods;
    expect(fine!.indexCount).toBeLessThanOrEqual(model.parts[0]!.indices.length);
    expect(coarse!.indexCount).toBeLessThan(fine!.indexCount);
    expect(coarse!.indexCount).toBeLessThan(model.parts[0]!.indices.length / 4);
    // A 256 px frame still gets a closed, smooth-looking ring, not a handful of triangles.
    expect(coarse!.indexCount / 3).toBeGreaterThan(500);
    const lod = view(Uint32Array, coarse!.indices!, coarse!.indexCount);
    expect(Math.max(...lod)).toBeLessThan(part!.vertexCount);
  });

  it('marks closed parts single-sided, turning inward-wound ones outward, and leaves open ones two-sided', async () => {
    const outward = denseTorus(40, 12);
    const inward = denseTorus(40, 12);
    const flipped = inward.parts[0]!.indices;
    for (let t = 0; t < flipped.length; t += 3)
      [flipped[t + 1], flipped[t + 2]] = [flipped[t + 2]!, flipped[t + 1]!];
    const open = denseTorus(40, 12);
    open.parts[0]!.indices = open.parts[0]!.indices.slice(3);
    const pack = (model: Model) => packModel(model, buildScene('ring'), [512]);

    const [a] = (await pack(outward)).parts;
    const {
      blob,
      parts: [b],
    } = await pack(inward);
    const [c] = (await pack(open)).parts;
    expect([a!.closed, b!.closed, c!.closed]).toEqual([true, true, false]);
    // The inward copy is sent with the outward copy's winding.
    const sent = new Uint32Array(blob.buffer as ArrayBuffer, blob.byteOffset + b!.indices, b!.indexCount);
    expect(sent).toEqual(outward.parts[0]!.indices);
  });

  it('leaves light meshes alone', async () => {
    const { parts } = await packModel(denseTorus(40, 12), buildScene('ring'), [512]);
    expect(parts[0]!.lods).toEqual([]);
  });
});
