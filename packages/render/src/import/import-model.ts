import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { RenderError, type Model, type ModelFormat } from '../types';
import { detectFormat } from './detect-format';
import { loadMeshFormat } from './mesh-loaders';
import { normalizeModel } from './normalize';
import type { OcctRequest, OcctResponse } from './occt-protocol';
import type { LoadedMesh } from './raw-part';
import { runWorkerOnce } from './run-worker';
import { simplifyModel } from './simplify';

export interface ImportOptions {
  /** Largest accepted file (bytes). Default 512 MiB. */
  maxBytes?: number;
  /** Most triangles accepted after tessellation. Default 10 million. */
  maxTriangles?: number;
  /** Simplify to about this many triangles when the model has more (drafts). Default: keep all. */
  simplifyAbove?: number;
  /** Time limit of the parse/tessellate stage (ms). Default 120 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Tessellation of CAD formats, relative to the bounding box; smaller is finer. Default 0.0005. */
  linearDeflection?: number;
  /** Largest angle between adjacent tessellation normals (radians). Default 0.2 (about 11°). */
  angularDeflection?: number;
}

export type ImportSource = string | { fileName: string; data: Uint8Array };

const DEFAULTS = { maxBytes: 512 * 1024 * 1024, maxTriangles: 10_000_000, timeoutMs: 120_000 };

async function readSource(source: ImportSource, maxBytes: number): Promise<{ fileName: string; data: Uint8Array }> {
  if (typeof source !== 'string') {
    if (source.data.byteLength > maxBytes) throw tooLarge(source.data.byteLength, maxBytes);
    return source;
  }
  const info = await stat(source).catch(() => {
    throw new RenderError('corrupt_file', `cannot read ${basename(source)}`);
  });
  if (!info.isFile()) throw new RenderError('corrupt_file', `${basename(source)} is not a file`);
  if (info.size > maxBytes) throw tooLarge(info.size, maxBytes);
  return { fileName: basename(source), data: new Uint8Array(await readFile(source)) };
}

const tooLarge = (size: number, max: number): RenderError =>
  new RenderError('too_large', `the file is ${(size / 1048576).toFixed(1)} MiB; the limit is ${(max / 1048576).toFixed(0)} MiB`);

/** Mesh loaders run on this thread (they are fast and linear); a timer still bounds them. */
async function withTimeLimit<T>(work: Promise<T>, timeoutMs: number, stage: string, signal?: AbortSignal): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RenderError('timeout', `${stage} took longer than ${timeoutMs / 1000} s`)), timeoutMs);
    onAbort = () => reject(new RenderError('cancelled', `${stage} was cancelled`));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

async function load(format: ModelFormat, data: Uint8Array, options: ImportOptions, timeoutMs: number): Promise<LoadedMesh> {
  if (format === 'step' || format === 'iges' || format === 'brep') {
    const request: OcctRequest = {
      format,
      bytes: data,
      linearDeflection: options.linearDeflection ?? 0.0003,
      angularDeflection: options.angularDeflection ?? 0.2,
    };
    const response = await runWorkerOnce<OcctResponse>(new URL('./occt.worker.ts', import.meta.url), request as unknown as Record<string, unknown>, {
      timeoutMs,
      signal: options.signal,
      stage: `reading the ${format.toUpperCase()} file`,
    });
    if (!response.ok) throw new RenderError('corrupt_file', `the ${format.toUpperCase()} file could not be read: ${response.message}`);
    return { parts: response.meshes.map((m) => ({ ...m, color: m.color })), unitScale: 0.001, conventionalUp: 'z' };
  }
  try {
    return await withTimeLimit(loadMeshFormat(format, data), timeoutMs, `reading the ${format.toUpperCase()} file`, options.signal);
  } catch (error) {
    if (error instanceof RenderError) throw error;
    throw new RenderError('corrupt_file', `the ${format.toUpperCase()} file could not be read: ${(error as Error)?.message ?? error}`);
  }
}

/**
 * Reads a CAD or mesh file into a normalised Model (metres, +y up, centred, on the ground).
 * Every failure is a RenderError with a code the caller can show.
 */
export async function importModel(source: ImportSource, options: ImportOptions = {}): Promise<Model> {
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  const maxTriangles = options.maxTriangles ?? DEFAULTS.maxTriangles;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  if (options.signal?.aborted) throw new RenderError('cancelled', 'import was cancelled');
  const { fileName, data } = await readSource(source, maxBytes);
  if (data.byteLength === 0) throw new RenderError('empty_model', `${fileName} is empty`);
  const format = detectFormat(fileName, data);
  const loaded = await load(format, data, options, timeoutMs);
  const triangles = loaded.parts.reduce((sum, p) => sum + (p.indices ? p.indices.length : p.positions.length / 3) / 3, 0);
  if (triangles > maxTriangles) {
    throw new RenderError('too_many_triangles', `${fileName} has ${triangles} triangles; the limit is ${maxTriangles}`);
  }
  const colorsAreSrgb = format === 'step' || format === 'iges' || format === 'brep';
  const model = normalizeModel(loaded, { format, fileName, colorsAreSrgb });
  if (model.triangleCount === 0 || !model.parts.length) {
    throw new RenderError('empty_model', `${fileName} contains no surfaces to render`);
  }
  const size = model.bounds.max.map((v, i) => v - model.bounds.min[i]!);
  if (!size.every(Number.isFinite) || Math.max(...size) <= 0) {
    throw new RenderError('corrupt_file', `${fileName} has invalid coordinates`);
  }
  return options.simplifyAbove ? simplifyModel(model, options.simplifyAbove) : model;
}
