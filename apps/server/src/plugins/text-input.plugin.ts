import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';

const NUL = '\u0000';
const refused = (field: string) => AppError.invalid(field, 'validation.no_nul');

/** For text a handler reads itself (multipart fields and file names), by the plugin's rule below. */
export function assertNoNul(field: string, text: string): void {
  if (text.includes(NUL)) throw refused(field);
}

/**
 * The field (dotted path) of the first string holding U+0000 in a request's parameters, query or
 * JSON body (a raw body of bytes is not text). Walked without recursion: a body may nest as deep as
 * its size allows.
 */
function fieldWithNul(inputs: unknown[]): string | null {
  const pending: [unknown, string][] = inputs.map((input) => [input, '']);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return path || '_';
    } else if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
      // Raw bytes (a delta upload's block) are no text: walking a Buffer's entries would take seconds.
      for (const [key, inner] of Object.entries(value)) pending.push([inner, path ? `${path}.${key}` : key]);
    }
  }
  return null;
}

/**
 * No text the API takes may hold U+0000: PostgreSQL can neither store nor compare it (every such
 * request answered 500 there, after whatever it had already written), and no name, id, search or
 * message needs it. Refused as invalid before validation, on both databases alike.
 */
export const textInputPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    const field = fieldWithNul([request.params, request.query, request.body]);
    if (field) throw refused(field);
  });
});
