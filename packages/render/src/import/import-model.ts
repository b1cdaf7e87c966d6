import { abortError } from '../abort';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { RenderError, type Model } from '../types';
import { detectFormat } from './detect-format';
import type { ImportRequest } from './import-pipeline';
import { importWorkers } from './import-workers';

/** Largest model file importModel accepts unless told otherwise (bytes). */
export const MAX_MODEL_BYTES = 512 * 1024 * 1024;

export interface ImportOptions {
  /** Largest accepted file (bytes). Default MAX_MODEL_BYTES. */
  maxBytes?: number;
  /** Most triangles accepted after tessellation. Default 10 million. */
  maxTriangles?: number;
  /** Simplify to about this many triangles when the model has more (drafts), in the worker. Default: keep all. */
  simplifyAbove?: number;
  /** Time limit of the parse/tessellate/normalise stage, which runs in a worker thread (ms). Default 120 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Tessellation of CAD formats, relative to the bounding box; smaller is finer. Default 0.0005. */
  linearDeflection?: number;
  /** Largest angle between adjacent tessellation normals (radians). Default 0.2 (about 11°). */
  angularDeflection?: number;
}

/**
 * A path, or a file's bytes. `handOver` gives the bytes to the import: they move to its worker
 * thread instead of being copied (half the memory of a large file) and are unusable afterwards.
 */
export type ImportSource = string | { fileName: string; data: Uint8Array; handOver?: boolean };

const DEFAULTS = { maxBytes: MAX_MODEL_BYTES, maxTriangles: 10_000_000, timeoutMs: 120_000 };

async function readSource(
  source: ImportSource,
  maxBytes: number,
): Promise<{ fileName: string; data: Uint8Array }> {
  if (typeof source !== 'string') {
    assertModelSize(source.data.byteLength, maxBytes);
    return source;
  }
  const info = await stat(source).catch(() => {
    throw new RenderError('corrupt_file', `cannot read ${basename(source)}`);
  });
  if (!info.isFile()) throw new RenderError('corrupt_file', `${basename(source)} is not a file`);
  assertModelSize(info.size, maxBytes);
  const bytes = await readFile(source);
  // A private copy: Node may hand back a slice of a shared pool, which cannot be transferred.
  return { fileName: basename(source), data: new Uint8Array(bytes) };
}

/** Refuses a file of `size` bytes over the limit with a too_large RenderError, so a caller can check before reading it. */
export function assertModelSize(size: number, maxBytes = MAX_MODEL_BYTES): void {
  if (size > maxBytes) {
    throw new RenderError(
      'too_large',
      `the file is ${(size / 1048576).toFixed(1)} MiB; the limit is ${(maxBytes / 1048576).toFixed(0)} MiB`,
    );
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
  if (options.signal?.aborted) throw abortError(options.signal, 'import');
  const { fileName, data } = await readSource(source, maxBytes);
  if (data.byteLength === 0) throw new RenderError('empty_model', `${fileName} is empty`);
  const format = detectFormat(fileName, data);
  const request: ImportRequest = {
    format,
    fileName,
    bytes: data,
    maxTriangles,
    linearDeflection: options.linearDeflection ?? 0.0003,
    angularDeflection: options.angularDeflection ?? 0.2,
    simplifyAbove: options.simplifyAbove,
  };
  // Bytes read here from disk, or handed over, move to the worker; a caller's buffer is copied, not detached.
  const ours = (typeof source === 'string' || source.handOver === true) && data.buffer instanceof ArrayBuffer;
  const response = await importWorkers.run(request, {
    timeoutMs,
    signal: options.signal,
    stage: `reading the ${format.toUpperCase()} file`,
    transfer: ours ? [data.buffer as ArrayBuffer] : undefined,
  });
  if (!response.ok) throw new RenderError(response.code, response.message);
  return response.model;
}
