import type { Bounds, MeshPart, Model, ModelFormat } from '../types';
import { creasedNormals } from './normals';
import { triangleNormal } from '../scene/triangle';
import type { LoadedMesh, RawPart } from './raw-part';

type Axis = 'x' | 'y' | 'z';
const AXES: Axis[] = ['x', 'y', 'z'];

const srgbToLinear = (c: number): number => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);

/** Gives every part indices and normals (creased smooth normals where the source had none). */
function completePart(part: RawPart): RawPart & { indices: Uint32Array; normals: Float32Array } {
  const indices = part.indices ?? Uint32Array.from({ length: part.positions.length / 3 }, (_, i) => i);
  if (part.normals && part.normals.length === part.positions.length)
    return { ...part, indices, normals: part.normals };
  const rebuilt = creasedNormals(part.positions, indices, 35, !part.colors && !part.uvs);
  const pick = (source: Float32Array | undefined, size: number): Float32Array | undefined => {
    if (!source) return undefined;
    const out = new Float32Array(rebuilt.sourceVertex.length * size);
    rebuilt.sourceVertex.forEach((v, i) => out.set(source.subarray(v * size, v * size + size), i * size));
    return out;
  };
  return {
    ...part,
    positions: rebuilt.positions,
    normals: rebuilt.normals,
    indices: rebuilt.indices,
    colors: pick(part.colors, 3),
    uvs: pick(part.uvs, 2),
  };
}

/**
 * Which signed source axis points down, judged by where the model could rest: the face area that
 * faces that way and lies on the bounding plane there. Flat bases (a plate, a box, a bottle's
 * bottom) win; when nothing offers a base the format's convention stands. The conventional up is
 * never flipped, so a table stays on its legs rather than its top.
 */
function guessDown(
  parts: Array<{ positions: Float32Array; indices: Uint32Array }>,
  conventionalUp: Axis,
): { axis: number; sign: 1 | -1 } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const { positions } of parts) {
    for (let i = 0; i < positions.length; i++) {
      const a = i % 3;
      min[a] = Math.min(min[a]!, positions[i]!);
      max[a] = Math.max(max[a]!, positions[i]!);
    }
  }
  const up = AXES.indexOf(conventionalUp);
  const candidates: Array<{ axis: number; sign: 1 | -1 }> = [{ axis: up, sign: -1 }];
  for (let a = 0; a < 3; a++) if (a !== up) candidates.push({ axis: a, sign: -1 }, { axis: a, sign: 1 });
  const support = new Float64Array(candidates.length);
  const n = new Float64Array(3);
  let total = 0;
  for (const { positions, indices } of parts) {
    for (let t = 0; t < indices.length / 3; t++) {
      const area2 = triangleNormal(positions, indices, t, n);
      if (area2 === 0) continue;
      const a = indices[t * 3]! * 3,
        b = indices[t * 3 + 1]! * 3,
        c = indices[t * 3 + 2]! * 3;
      total += area2;
      candidates.forEach(({ axis, sign }, k) => {
        if ((n[axis]! * sign) / area2 < 0.97) return;
        const plane = sign < 0 ? min[axis]! : max[axis]!;
        const tolerance = (max[axis]! - min[axis]!) * 0.01;
        const far = Math.max(...[a, b, c].map((p) => Math.abs(positions[p + axis]! - plane)));
        if (far <= tolerance) support[k]! += area2;
      });
    }
  }
  let best = 0;
  // A side must clearly beat the convention (1.5×) to turn the model over.
  for (let k = 1; k < candidates.length; k++)
    if (support[k]! > support[best]! * 1.5 && support[k]! > total * 0.04) best = k;
  if (best === 0 && support[0]! < total * 0.04) return candidates[0]!;
  return candidates[best]!;
}

/**
 * A proper rotation (det +1), as rows, that takes the signed source axis `down` to -y, keeping the
 * usual front: Z-up CAD looks from -y, so source x stays x and -y comes towards the camera.
 */
function rotationFor(down: { axis: number; sign: 1 | -1 }): number[] {
  const up = -down.sign;
  switch (down.axis) {
    case 0: // x up (or down): the source y axis becomes the new x
      return [0, -up, 0, up, 0, 0, 0, 0, 1];
    case 1:
      return [1, 0, 0, 0, up, 0, 0, 0, up];
    default:
      return [1, 0, 0, 0, 0, up, 0, -up, 0];
  }
}

function transform(values: Float32Array, m: number[], scale: number): Float32Array {
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i += 3) {
    const x = values[i]!,
      y = values[i + 1]!,
      z = values[i + 2]!;
    out[i] = (m[0]! * x + m[1]! * y + m[2]! * z) * scale;
    out[i + 1] = (m[3]! * x + m[4]! * y + m[5]! * z) * scale;
    out[i + 2] = (m[6]! * x + m[7]! * y + m[8]! * z) * scale;
  }
  return out;
}

export function boundsOf(parts: Array<{ positions: Float32Array }>): Bounds {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (const { positions } of parts) {
    for (let i = 0; i < positions.length; i += 3) {
      for (let a = 0; a < 3; a++) {
        const v = positions[i + a]!;
        if (v < min[a]!) min[a] = v;
        if (v > max[a]!) max[a] = v;
      }
    }
  }
  return { min, max };
}

/**
 * Turns loader output into a Model: metres, +y up (guessed from the shape), centred on x/z,
 * resting on y = 0, with normals everywhere and linear colours.
 */
export function normalizeModel(
  loaded: LoadedMesh,
  source: { format: ModelFormat; fileName: string; colorsAreSrgb?: boolean },
): Model {
  const complete = loaded.parts.filter((p) => p.positions.length >= 9).map(completePart);
  const down = guessDown(complete, loaded.conventionalUp);
  const rotation = rotationFor(down);
  const rotated = complete.map((part) => ({
    ...part,
    positions: transform(part.positions, rotation, loaded.unitScale),
    normals: transform(part.normals, rotation, 1),
  }));
  const raw = boundsOf(rotated);
  const offset = [-(raw.min[0] + raw.max[0]) / 2, -raw.min[1], -(raw.min[2] + raw.max[2]) / 2];
  const parts: MeshPart[] = rotated.map((part, i) => {
    const positions = part.positions;
    for (let v = 0; v < positions.length; v += 3) {
      positions[v]! += offset[0]!;
      positions[v + 1]! += offset[1]!;
      positions[v + 2]! += offset[2]!;
    }
    const colors = part.colors && source.colorsAreSrgb ? part.colors.map(srgbToLinear) : part.colors;
    const color =
      part.color && source.colorsAreSrgb
        ? (part.color.map(srgbToLinear) as [number, number, number])
        : part.color;
    return {
      name: part.name || `part-${i + 1}`,
      positions,
      normals: part.normals,
      indices: part.indices,
      colors,
      uvs: part.uvs,
      material: part.name || `part-${i + 1}`,
      sourceColor: color,
      texture: part.texture,
    };
  });
  const triangleCount = parts.reduce((sum, p) => sum + p.indices.length / 3, 0);
  return {
    parts,
    bounds: boundsOf(parts),
    triangleCount,
    source: {
      format: source.format,
      fileName: source.fileName,
      unitScale: loaded.unitScale,
      upAxis: AXES[down.axis]!,
    },
  };
}
