// Worker thread: tessellates STEP / IGES / BREP with OpenCascade (WASM) and posts plain mesh arrays back.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { OcctMesh, OcctRequest, OcctResponse } from './occt-protocol';

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

/** OpenCascade reports black for "no colour" in many exports (IGES above all); treat it as none. */
const realColor = (color: [number, number, number] | null | undefined): [number, number, number] | undefined =>
  color && color.some((c) => c > 0) ? color : undefined;

/** Per-vertex colours from per-face colours (OCCT tessellates each face with its own vertices). */
function faceColors(mesh: OcctResult['meshes'][number], vertexCount: number, index: ArrayLike<number>): Float32Array | undefined {
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

async function run(request: OcctRequest): Promise<OcctResponse> {
  const occt = await occtFactory();
  const params = {
    linearUnit: 'millimeter',
    // Relative deflection keeps curved surfaces smooth at any model size; the angular bound
    // (radians) decides how round fillets and gem girdles look up close.
    linearDeflectionType: 'bounding_box_ratio',
    linearDeflection: request.linearDeflection,
    angularDeflection: request.angularDeflection,
  };
  const read = { step: occt.ReadStepFile, iges: occt.ReadIgesFile, brep: occt.ReadBrepFile }[request.format];
  const result = read.call(occt, request.bytes, params);
  if (!result.success) return { ok: false, message: 'OpenCascade could not read the file' };
  const meshes: OcctMesh[] = result.meshes.map((mesh, i) => {
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
  return { ok: true, meshes };
}

const request = workerData as OcctRequest;
run(request).then(
  (response) => {
    const transfer = response.ok
      ? response.meshes.flatMap((m) => [m.positions.buffer, m.indices.buffer, m.normals?.buffer, m.colors?.buffer])
      : [];
    parentPort!.postMessage(response, transfer.filter((b): b is ArrayBuffer => b instanceof ArrayBuffer));
  },
  (error: unknown) => parentPort!.postMessage({ ok: false, message: String((error as Error)?.message ?? error) }),
);
