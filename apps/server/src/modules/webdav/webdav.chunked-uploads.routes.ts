import type { FastifyPluginAsync, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { parseIfHeader } from './webdav.locks';
import { overwriteOf } from './webdav.preconditions';
import { DavRefusal } from './webdav.refusals';
import { bulkUpload } from './webdav.bulk';
import { davScope } from './webdav.scope';
import { clientFileState, sendPropfind } from './webdav.routes';
import { NEXTCLOUD_FILES_PREFIX } from './webdav.service';

export const NEXTCLOUD_UPLOADS_PREFIX = '/remote.php/dav/uploads';
export const NEXTCLOUD_BULK_PATH = '/remote.php/dav/bulk';
const METHODS: HTTPMethods[] = ['OPTIONS', 'PUT', 'DELETE', 'PROPFIND', 'MKCOL', 'MOVE'];
/** The uploads collection itself is only listed. */
const COLLECTION_METHODS: HTTPMethods[] = ['OPTIONS', 'PROPFIND'];
/** The name the final MOVE takes its source by: the transfer's chunks as one file. */
const ASSEMBLED = '.file';

/**
 * The sync clients' ways to send files besides a PUT. Chunked uploads at `/remote.php/dav/uploads/{user}/{transfer}/{chunk}`
 * (Nextcloud's chunking v1 "NG" and v2): MKCOL opens a transfer, PUT stores a chunk, PROPFIND lists
 * what arrived (a client resumes from it), `MOVE {transfer}/.file` assembles the file at Destination,
 * DELETE gives a transfer or a chunk up. Bulk upload at `/remote.php/dav/bulk`: many small files in
 * one multipart/related POST, answered per file. Signed in as the rest of WebDAV (davScope).
 */
export const webdavChunkedUploadsRoutes: FastifyPluginAsync = async (app) => {
  const { chunkedUploads } = app.deps;
  const signedIn = davScope(app);

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === 'OPTIONS')
      return reply.status(200).header('dav', '1').header('allow', METHODS.join(', ')).send();
    const user = signedIn(request);
    const { transfer, chunk, href } = pathOf(request);
    switch (request.method) {
      case 'PROPFIND':
        return sendPropfind(request, reply, async (depth) =>
          each(await chunkedUploads.propfind(user.id, href, transfer, chunk, depth)),
        );
      case 'MKCOL':
        if (transfer === null || chunk !== null) throw new DavRefusal('method_not_allowed');
        await chunkedUploads.open(user, transfer, {
          destination: header(request, 'destination'),
          totalLength: length(request, 'oc-total-length'),
          host: request.headers.host,
        });
        return reply.status(201).send();
      case 'PUT':
        if (transfer === null || chunk === null) throw new DavRefusal('method_not_allowed');
        await chunkedUploads.putChunk(user, transfer, chunk, request.raw, {
          contentLength: length(request, 'content-length'),
          destination: header(request, 'destination'),
          totalLength: length(request, 'oc-total-length'),
          host: request.headers.host,
        });
        return reply.status(201).send();
      case 'DELETE':
        if (transfer === null) throw new DavRefusal('method_not_allowed');
        await chunkedUploads.delete(user, transfer, chunk, request.headers.host);
        return reply.status(204).send();
      case 'MOVE': {
        if (transfer === null || chunk !== ASSEMBLED) throw new DavRefusal('method_not_allowed');
        const overwrite = overwriteOf(request.headers);
        const ifText = header(request, 'if');
        const ifLists = ifText === undefined ? null : parseIfHeader(ifText);
        if (ifText !== undefined && !ifLists) throw new DavRefusal('malformed');
        // X-OC-MTime and OC-Checksum, as a PUT sends them.
        const client = clientFileState(request);
        const file = await chunkedUploads.assemble(user, transfer, {
          context: { user, ifLists },
          destination: header(request, 'destination'),
          host: request.headers.host,
          totalLength: length(request, 'oc-total-length'),
          overwrite,
          client,
        });
        if (client.modifiedAt) reply.header('x-oc-mtime', 'accepted');
        return reply
          .status(file.created ? 201 : 204)
          .header('etag', file.etag)
          .header('oc-etag', file.etag)
          .header('oc-fileid', file.fileId)
          .send();
      }
      default:
        throw new DavRefusal('method_not_allowed');
    }
  };

  app.route({
    method: 'POST',
    url: NEXTCLOUD_BULK_PATH,
    config: { methodOverride: false },
    schema: { hide: true },
    handler: async (request, reply) => {
      const user = signedIn(request);
      const answers = await bulkUpload(
        chunkedUploads.targets,
        user,
        `${NEXTCLOUD_FILES_PREFIX}/${user.id}`,
        request.headers.host,
        header(request, 'content-type'),
        request.raw,
      );
      return reply.status(200).type('application/json; charset=utf-8').send(JSON.stringify(answers));
    },
  });

  // Chunks are written to be assembled, never read back (chunking v2 says so too): no GET.
  for (const [url, method] of [
    [`${NEXTCLOUD_UPLOADS_PREFIX}/:user`, COLLECTION_METHODS],
    [`${NEXTCLOUD_UPLOADS_PREFIX}/:user/*`, METHODS],
  ] as const)
    app.route({
      method: [...method],
      url,
      exposeHeadRoute: false,
      config: { methodOverride: false },
      schema: { hide: true },
      handler,
    });
};

/** `{transfer}` and `{chunk}` of the request's path below `/uploads/{user}/`, and that collection's href. */
function pathOf(request: FastifyRequest): { transfer: string | null; chunk: string | null; href: string } {
  const { user, '*': rest = '' } = request.params as { user: string; '*'?: string };
  const segments: string[] = [];
  for (const raw of rest.split('?', 1)[0]!.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      throw new DavRefusal('malformed');
    }
    segments.push(segment);
  }
  if (segments.length > 2) throw new DavRefusal('not_found');
  return {
    transfer: segments[0] ?? null,
    chunk: segments[1] ?? null,
    href: `${NEXTCLOUD_UPLOADS_PREFIX}/${encodeURIComponent(user).replaceAll('%40', '@')}/`,
  };
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A byte count a header announces; malformed when it is there and no count. */
function length(request: FastifyRequest, name: string): number | null {
  const value = header(request, name);
  if (value === undefined) return null;
  if (!/^\d{1,15}$/.test(value.trim())) throw new DavRefusal('malformed');
  return Number(value.trim());
}

async function* each<T>(values: readonly T[]): AsyncIterable<T> {
  yield* values;
}
