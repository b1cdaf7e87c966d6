import { RenderError, type Model, type ModelFormat } from '../types';
import { loadMeshFormat } from './mesh-loaders';
import { normalizeModel } from './normalize';
import { bakeOcclusion } from './occlusion';
import { readCad } from './occt-reader';
import { simplifyModel } from './simplify';
import type { LoadedMesh } from './raw-part';

export interface ImportRequest {
  format: ModelFormat;
  fileName: string;
  bytes: Uint8Array;
  maxTriangles: number;
  linearDeflection: number;
  angularDeflection: number;
  /** Simplify to about this many triangles when the model has more. */
  simplifyAbove?: number;
}

export type ImportResponse =
  { ok: true; model: Model } | { ok: false; code: RenderError['code']; message: string };

const isCad = (format: ModelFormat): format is 'step' | 'iges' | 'brep' =>
  format === 'step' || format === 'iges' || format === 'brep';

/** Parse, check limits and normalise: everything between the file's bytes and a Model. */
export async function parseModel(request: ImportRequest): Promise<Model> {
  const { format, fileName, bytes } = request;
  let loaded: LoadedMesh;
  try {
    loaded = isCad(format) ? await readCad(format, bytes, request) : await loadMeshFormat(format, bytes);
  } catch (error) {
    if (error instanceof RenderError) throw error;
    throw new RenderError(
      'corrupt_file',
      `the ${format.toUpperCase()} file could not be read: ${(error as Error)?.message ?? error}`,
    );
  }
  const triangles = loaded.parts.reduce(
    (sum, p) => sum + (p.indices ? p.indices.length : p.positions.length / 3) / 3,
    0,
  );
  if (triangles > request.maxTriangles) {
    throw new RenderError(
      'too_many_triangles',
      `${fileName} has ${triangles} triangles; the limit is ${request.maxTriangles}`,
    );
  }
  // OpenCascade reports colours as stored in the file (sRGB); three.js loaders already linearise.
  const model = normalizeModel(loaded, { format, fileName, colorsAreSrgb: isCad(format) });
  if (model.triangleCount === 0 || !model.parts.length) {
    throw new RenderError('empty_model', `${fileName} contains no surfaces to render`);
  }
  const size = model.bounds.max.map((v, i) => v - model.bounds.min[i]!);
  if (!size.every(Number.isFinite) || Math.max(...size) <= 0) {
    throw new RenderError('corrupt_file', `${fileName} has invalid coordinates`);
  }
  // Here, in the import worker, because simplifying a heavy model and baking its occlusion take seconds of CPU.
  return bakeOcclusion(request.simplifyAbove ? await simplifyModel(model, request.simplifyAbove) : model);
}

/** The buffers of a model, each once, for a zero-copy postMessage. */
export function modelBuffers(model: Model): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const part of model.parts) {
    for (const array of [
      part.positions,
      part.normals,
      part.indices,
      part.colors,
      part.occlusion,
      part.uvs,
      part.texture?.data,
    ]) {
      if (array && array.buffer instanceof ArrayBuffer) buffers.add(array.buffer);
    }
  }
  return [...buffers];
}
