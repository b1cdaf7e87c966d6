import { TorusKnotGeometry } from 'three';
import type { Model } from '../../packages/render/src/index';

// The standing model of the render and product benchmarks.

/** A gold band twisted into a (2,3) torus knot: 1000 × 100 segments = 200,000 triangles, 20 mm across. */
export function knotRing(): Model {
  const geometry = new TorusKnotGeometry(0.008, 0.0022, 1000, 100, 2, 3);
  const positions = geometry.getAttribute('position').array as Float32Array;
  const normals = geometry.getAttribute('normal').array as Float32Array;
  const indices = Uint32Array.from(geometry.getIndex()!.array);
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      min[a] = Math.min(min[a]!, positions[i + a]!);
      max[a] = Math.max(max[a]!, positions[i + a]!);
    }
  }
  // Centred on x/z and resting on y = 0, as the importers normalise every model.
  const shift = [-(min[0] + max[0]) / 2, -min[1], -(min[2] + max[2]) / 2];
  for (let i = 0; i < positions.length; i += 3) for (let a = 0; a < 3; a++) positions[i + a]! += shift[a]!;
  return {
    parts: [{ name: 'band', positions, normals, indices, material: 'band' }],
    bounds: {
      min: min.map((v, a) => v + shift[a]!) as Model['bounds']['min'],
      max: max.map((v, a) => v + shift[a]!) as Model['bounds']['max'],
    },
    triangleCount: indices.length / 3,
    source: { format: 'stl', fileName: 'knot-ring.stl', unitScale: 1, upAxis: 'y' },
  };
}

/** The model as a binary STL in millimetres, as a CAD program exports it. */
export function binaryStl(model: Model): Buffer {
  const triangles = model.triangleCount;
  const out = Buffer.alloc(84 + triangles * 50);
  out.writeUInt32LE(triangles, 80);
  let o = 84;
  for (const part of model.parts) {
    for (let t = 0; t < part.indices.length; t += 3) {
      o += 12; // no normal: readers (f3d, the importers) compute their own
      for (let k = 0; k < 3; k++) {
        const v = part.indices[t + k]! * 3;
        // Millimetres, like a CAD export.
        out.writeFloatLE(part.positions[v]! * 1000, o);
        out.writeFloatLE(part.positions[v + 1]! * 1000, o + 4);
        out.writeFloatLE(part.positions[v + 2]! * 1000, o + 8);
        o += 12;
      }
      o += 2;
    }
  }
  return out;
}
