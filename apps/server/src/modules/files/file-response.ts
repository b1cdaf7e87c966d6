import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import type { Download } from './download.service';

/**
 * User content is served from the app's origin, so it must never act as one of its pages: no
 * scripts, no forms, no plugins, an opaque origin (CSP sandbox), and no type sniffing.
 */
export const USER_CONTENT_CSP = [
  'sandbox',
  "default-src 'none'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "style-src 'unsafe-inline'",
  "font-src 'self' data:",
  // Previews frame files inside the app; nobody else may.
  "frame-ancestors 'self'",
].join('; ');

// Browsers refuse to show a PDF inside a sandboxed document; their PDF viewers run in their own origin.
const SANDBOX_EXEMPT = new Set(['application/pdf']);
// Markup a browser would render as a page is only ever offered as a download.
const ALWAYS_ATTACHMENT = new Set(['text/html', 'application/xhtml+xml']);

// Types a browser runs as script, style or code when a page of this origin links them; inline they go
// out as plain text (nosniff makes browsers refuse to run that), a download keeps the real type.
const EXECUTABLE_TYPES = new Set([
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'text/ecmascript',
  'application/ecmascript',
  'text/jscript',
  'text/css',
  'application/wasm',
]);

/** The Content-Type user content is served with. */
export function servedType(mimetype: string, attachment: boolean): string {
  const essence = mimetype.split(';', 1)[0]!.trim().toLowerCase();
  return attachment || !EXECUTABLE_TYPES.has(essence) ? mimetype : 'text/plain; charset=utf-8';
}

export type ByteRangeAnswer = { start: number; end: number } | 'unsatisfiable' | null;

/** A single `bytes=` range (`a-b`, `a-`, `-n`); several ranges or a malformed header mean the whole body. */
export function parseRange(header: string | undefined, size: number): ByteRangeAnswer {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/** `attachment; filename="ascii"; filename*=UTF-8''utf-8`, with nothing a header could be split on. */
export function contentDisposition(name: string, attachment: boolean): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${attachment ? 'attachment' : 'inline'}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Sends a zip as it is written; a failure half-way can only be logged, the status is out already. */
export function sendZip(
  request: FastifyRequest,
  reply: FastifyReply,
  zip: { name: string; archive: Readable },
) {
  zip.archive.on('error', (error) => request.log.error({ err: error }, 'zip stream failed'));
  reply
    .header('content-type', 'application/zip')
    .header('content-disposition', contentDisposition(zip.name, true))
    .header('cache-control', 'no-store');
  // A HEAD gets the headers alone and the archive is never written: Fastify would drain it unseen
  // once the answer ended, reading (and metering) every file after its zip slot was given back.
  if (request.method === 'HEAD') {
    zip.archive.destroy();
    return reply.send();
  }
  return reply.send(zip.archive);
}

/** Sends a download with conditional GET (ETag), Range and a safe disposition. */
export async function sendDownload(
  request: FastifyRequest,
  reply: FastifyReply,
  download: Download,
  options: { attachment: boolean; cacheControl: string },
) {
  const attachment = options.attachment || ALWAYS_ATTACHMENT.has(download.mimetype);
  reply
    .header('accept-ranges', 'bytes')
    .header('etag', download.etag)
    .header('last-modified', new Date(download.modifiedAt).toUTCString())
    .header('cache-control', options.cacheControl)
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', contentDisposition(download.name, attachment));
  if (!SANDBOX_EXEMPT.has(download.mimetype)) reply.header('content-security-policy', USER_CONTENT_CSP);

  if (request.headers['if-none-match'] === download.etag) return reply.status(304).send();

  const ifRange = request.headers['if-range'];
  const range =
    !ifRange || ifRange === download.etag ? parseRange(request.headers.range, download.size) : null;
  if (range === 'unsatisfiable') {
    return reply.status(416).header('content-range', `bytes */${download.size}`).send();
  }
  reply.type(servedType(download.mimetype, attachment));
  if (range) {
    reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${download.size}`)
      .header('content-length', range.end - range.start + 1);
  } else {
    reply.status(200).header('content-length', download.size);
  }
  // An empty stream keeps the Content-Length above (Fastify's HEAD handling would zero it for no payload).
  if (request.method === 'HEAD') return reply.send(Readable.from([]));
  return reply.send(await download.open(range ?? undefined));
}
