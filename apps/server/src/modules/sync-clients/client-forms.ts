import type { FastifyInstance } from 'fastify';

/** A client's form here holds a few short fields; anything larger is no client's. */
export const CLIENT_FORM_BYTES = 16 * 1024;

/**
 * The Nextcloud and ownCloud clients send their fields as `application/x-www-form-urlencoded`
 * (the poll token, a share's path and password…): read into an object of strings, in the plugin
 * that calls this only.
 */
export function acceptClientForms(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: CLIENT_FORM_BYTES },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
}
