// Tessellates STEP / IGES / BREP with OpenCascade (WASM). Runs inside the import worker.
import { createRequire } from 'node:module';
import { RenderError } from '../types';
import type { LoadedMesh, RawPart } from './raw-part';

interface OcctResult {
  success: boolean;
  meshes: Array<{
    name?: string;
    color?: [number, number, number];
    brep_faces?: Array<{ first: number; last: number; color: [number, number, number] | null }>;
    attributes: { position: { array: ArrayLike<number> }; normal?: { array: ArrayLike<number> } };
    index: { array: ArrayLike<number> };
  }>;
}
interface Occt {
  ReadStepFile(content: Uint8Array, params: unknown): OcctResult;
  ReadIgesFile(content: Uint8Array, params: unknown): OcctResult;
  ReadBrepFile(content: Uint8Array, params: unknown): OcctResult;
}

const require = createRequire(import.meta.url);
const occtFactory = require('occt-import-js') as () => Promise<Occt>;
// Instantiating the WASM module is the slow part; a warm worker keeps it.
let occtModule: Promise<Occt> | undefined;

/** OpenCascade reports black for "no colour" in many exports (IGES above all); treat it as none. */
const realColor = (
  color: [number, number, number] | null | undefined,
): [number, number, number] | undefined => (color && color.some((c) => c > 0) ? color : undefined);

/** Per-vertex colours from per-face colours (OCCT tessellates each face with its own vertices). */
function faceColors(
  mesh: OcctResult['meshes'][number],
  vertexCount: number,
  index: ArrayLike<number>,
): Float32Array | undefined {
  const faces = mesh.brep_faces ?? [];
  if (!faces.some((face) => realColor(face.color))) return undefined;
  const fallback = realColor(mesh.color) ?? [0.8, 0.8, 0.8];
  const colors = new Float32Array(vertexCount * 3);
  for (let v = 0; v < vertexCount; v++) colors.set(fallback, v * 3);
  for (const face of faces) {
    const color = realColor(face.color);
    if (!color) continue;
    for (let t = face.first; t <= face.last; t++) {
      for (let k = 0; k < 3; k++) colors.set(color, index[t * 3 + k]! * 3);
    }
  }
  return colors;
}

export interface TessellationOptions {
  /** Relative to the bounding box. */
  linearDeflection: number;
  /** Radians. */
  angularDeflection: number;
}

export async function readCad(
  format: 'step' | 'iges' | 'brep',
  bytes: Uint8Array,
  request: TessellationOptions,
): Promise<LoadedMesh> {
  occtModule ??= occtFactory();
  const occt = await occtModule;
  const params = {
    linearUnit: 'millimeter',
    // Relative deflection keeps curved surfaces smooth at any model size; the angular bound
    // (radians) decides how round fillets and gem girdles look up close.
    linearDeflectionType: 'bounding_box_ratio',
    linearDeflection: request.linearDeflection,
    angularDeflection: request.angularDeflection,
  };
  const read = { step: occt.ReadStepFile, iges: occt.ReadIgesFile, brep: occt.ReadBrepFile }[format];
  let result: OcctResult;
  try {
    result = read.call(occt, bytes, params);
  } catch {
    // OpenCascade throws WASM exceptions on malformed input.
    result = { success: false, meshes: [] };
  }
  if (!result.success)
    throw new RenderError('corrupt_file', `OpenCascade could not read this ${format.toUpperCase()} file`);
  const parts: RawPart[] = result.meshes.map((mesh, i) => {
    const positions = Float32Array.from(mesh.attributes.position.array);
    const index = Uint32Array.from(mesh.index.array);
    return {
      name: mesh.name || `part-${i + 1}`,
      positions,
      normals: mesh.attributes.normal ? Float32Array.from(mesh.attributes.normal.array) : undefined,
      indices: index,
      colors: faceColors(mesh, positions.length / 3, index),
      color: realColor(mesh.color),
    };
  });
  // CAD kernels work in millimetres with z up.
  return { parts, unitScale: 0.001, conventionalUp: 'z' };
}
