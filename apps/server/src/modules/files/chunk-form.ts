import type { ItemResource } from '@atelier/contracts';
import type { FastifyRequest } from 'fastify';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import { MIMEType } from 'node:util';
import { AppError } from '../../lib/app-error';
import { assertNoNul } from '../../plugins/text-input.plugin';
import type { ChunkFields } from './upload.service';

/**
 * The text fields of POST /api/upload/chunks (`offset` is ours: where the chunk starts, optional;
 * `conflict`: what to do with a name the folder holds, see upload.service.ts).
 */
export const CHUNK_FIELDS: ReadonlySet<keyof ChunkFields> = new Set([
  'name',
  'extension',
  'is_last_chunk',
  'path',
  'parent_id',
  'offset',
  'conflict',
]);

type FormFields<Name extends string> = Partial<Record<Name, string>>;

export interface ChunkForm<Name extends string> {
  /** The text fields read; others are ignored. */
  fields: ReadonlySet<Name>;
  /** Bytes one chunk may carry (the chunk size setting). */
  chunkBytes: number;
  /** Streams the chunk to storage, with the fields sent before it; its commit gets all of them. */
  receive(
    clientKey: string,
    fieldsBefore: FormFields<Name>,
    chunk: Readable,
  ): Promise<{ commit(fields: FormFields<Name>): Promise<ItemResource | null> }>;
}

/** RFC 2046 allows boundaries of 1 to 70 characters. */
const MAX_BOUNDARY_LENGTH = 70;

function formBoundary(contentType: string | undefined): string | null {
  try {
    return new MIMEType(contentType ?? '').params.get('boundary');
  } catch {
    return null;
  }
}

/** Refuses what the form parser cannot take: a request that is no form (422 on `field`), or a bad boundary. */
export function assertMultipartForm(request: FastifyRequest, field: string): void {
  if (!request.isMultipart()) throw AppError.invalid(field, 'validation.required');
  // The form parser throws a plain error (a 500) on a missing boundary or one over 250 characters.
  const boundary = formBoundary(request.headers['content-type']);
  if (!boundary || boundary.length > MAX_BOUNDARY_LENGTH)
    throw new AppError('bad_request', 'errors.malformed_form');
}

/**
 * Reads a chunk upload form in one pass: the chunk streams to storage as it arrives, text fields may
 * come before or after it, and the chunk is committed once the form has ended. Answers the stored
 * file for a last chunk, null for a middle one.
 */
export async function receiveChunkForm<Name extends string>(
  request: FastifyRequest,
  form: ChunkForm<Name>,
): Promise<ItemResource | null> {
  assertMultipartForm(request, 'chunk');
  const fields: FormFields<Name> = {};
  let received: Awaited<ReturnType<ChunkForm<Name>['receive']>> | null = null;
  const parts = request.parts({
    limits: { files: 1, fields: 16, fieldSize: 8192, fileSize: form.chunkBytes + 1 },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'chunk') throw AppError.invalid(part.fieldname, 'validation.unexpected_file');
        assertNoNul('chunk', part.filename);
        received = await form.receive(part.filename, { ...fields }, chunkBytes(part.file));
      } else if (form.fields.has(part.fieldname as Name)) {
        fields[part.fieldname as Name] = String(part.value);
      }
    }
  } catch (error) {
    // The parser's own errors (a form cut off, broken framing) are the client's: 400, not 500.
    if (error instanceof AppError || (error as { statusCode?: number }).statusCode !== undefined) throw error;
    throw AppError.invalid('chunk', 'errors.chunk_incomplete', 'bad_request');
  }
  if (!received) throw AppError.invalid('chunk', 'validation.required');
  return received.commit(fields);
}

/**
 * The chunk's bytes, taken over as the part arrives so that a form cut off inside the chunk fails the
 * stream. When the request ends early, the form parser destroys a file stream nobody reads yet without
 * an error, and a pipeline() started on it afterwards waits forever for its end. Since Node 22 a stream
 * buffers 64 KiB, so a short remainder is parsed to its end before the upload has even been loaded.
 */
function chunkBytes(file: Readable): Readable {
  const bytes = new PassThrough();
  // The failure is read by whoever consumes the bytes (pipeline, `errored`), maybe only after a few
  // database calls; until then an unheard 'error' event would be an uncaught exception.
  bytes.on('error', () => undefined);
  // Already cut off before anyone read it.
  if (file.destroyed && !file.readableEnded) bytes.destroy(new Error('The form ended inside its chunk'));
  // Still arriving: from here on, a cut reaches the pipeline as the parser's error.
  else pipeline(file, bytes, () => undefined);
  return bytes;
}
