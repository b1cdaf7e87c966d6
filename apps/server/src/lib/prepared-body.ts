import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A response body kept ready to send: as is, brotli and gzip, and the ETag browsers revalidate it with. */
export interface PreparedBody {
  raw: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

/**
 * Compresses a body once for every response that sends it. Brotli's quality 11 is for what is made
 * rarely (a page, when the build or the brand changes); a body made again every minute or after each
 * edit (a language's 130 KB of strings: 160 ms at 11, 8 ms at 5 for 12 % more bytes) takes 5, so
 * making it never holds up the requests in between.
 */
export function prepareBody(text: string, brotliQuality: 5 | 11 = 11): PreparedBody {
  const bytes = Buffer.from(text);
  return {
    raw: bytes,
    br: brotliCompressSync(bytes, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: brotliQuality, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
    gzip: gzipSync(bytes, { level: brotliQuality === 11 ? 9 : 6 }),
    etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`,
  };
}

/** Whether an Accept-Encoding parameter is `q=0` (or `q=0.000`): that encoding is refused. */
function refusesEncoding(param: string): boolean {
  const [key, value, ...rest] = param.split('=');
  if (rest.length > 0 || key!.trim() !== 'q' || value === undefined) return false;
  const q = value.trim();
  return q === '0' || (q.startsWith('0.') && [...q.slice(2)].every((c) => c === '0'));
}

/** The encoding to send for an Accept-Encoding header: brotli first, then gzip, else none. */
export function acceptedEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, ...params]) => !params.some(refusesEncoding))
      .map(([name]) => name!.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/**
 * Sends a prepared body in the encoding the request accepts, revalidated on every use
 * (`no-cache`): a browser that holds it gets a 304 for its ETag.
 */
export function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  body: PreparedBody,
  contentType: string,
): FastifyReply {
  reply
    .header('cache-control', 'no-cache')
    .header('vary', 'accept-encoding')
    .header('etag', body.etag)
    .type(contentType);
  const cached = request.headers['if-none-match'];
  if (cached?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === body.etag))
    return reply.code(304).send();
  const encoding = acceptedEncoding(request.headers['accept-encoding']);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? body[encoding] : body.raw);
}
