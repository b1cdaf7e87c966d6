import type { FastifyPluginAsync, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { Readable } from 'node:stream';
import { sendDownload } from '../files/file-response';
import { parseIfHeader } from './webdav.locks';
import { lockXml, propfindXml, proppatchXml, XML_TYPE, type DavResource } from './webdav.presenter';
import { DavRefusal } from './webdav.refusals';
import { davScope, DAV_METHODS } from './webdav.scope';
import {
  DAV_PREFIX,
  NEXTCLOUD_FILES_PREFIX,
  NEXTCLOUD_WEBDAV_PREFIX,
  type ClientFileState,
  type DavLocation,
  type DavUser,
  type WriteContext,
} from './webdav.service';
import { parseChecksum } from './webdav.checksums';
import { entityConditionsOf, overwriteOf } from './webdav.preconditions';
import { parseLockinfo, parseProppatch, parsePropfind } from './webdav.xml';

const METHODS: HTTPMethods[] = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', ...DAV_METHODS];
const ALLOW = METHODS.join(', ');
/**
 * XML bodies are small: a PROPFIND names properties and a LOCK its owner in a few hundred bytes.
 * A PROPPATCH carries property values, so it may hold all the dead properties a resource may keep
 * with room for markup; anything larger is no client's request (413, the rest not read).
 */
export const XML_BODY_BYTES = { PROPFIND: 16 * 1024, LOCK: 16 * 1024, PROPPATCH: 256 * 1024 } as const;
/**
 * WebDAV at /dav/ (RFC 4918 class 1 and 2): `/dav/files/` is My files, `/dav/shared/{name}/` each
 * team folder the user is a member of. Basic authentication with the account's e-mail and an app
 * password. Bodies are never parsed by Fastify here: a PUT streams into storage as it arrives.
 */
export const webdavRoutes: FastifyPluginAsync = async (app) => {
  const { webdav } = app.deps;
  const signedIn = davScope(app);

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === 'OPTIONS') {
      return reply
        .status(200)
        .header('dav', '1, 2')
        .header('ms-author-via', 'DAV')
        .header('allow', ALLOW)
        .send();
    }
    const user = signedIn(request);
    const path = request.url.split('?', 1)[0]!;
    const location = await webdav.locate(user, path);
    const context: WriteContext = {
      user,
      ifLists: ifListsOf(request),
      entity: entityConditionsOf(request.headers),
    };
    switch (request.method) {
      case 'GET':
      case 'HEAD':
        return sendDownload(request, reply, await webdav.download(location), {
          attachment: true,
          cacheControl: 'private, no-cache',
        });
      case 'PROPFIND':
        return sendPropfind(request, reply, (depth) => webdav.propfind(user, location, depth));
      case 'PUT': {
        const client = clientFileState(request);
        const { created, etag, fileId } = await webdav.put(
          context,
          location,
          request.raw,
          expectedBytes(request),
          client,
        );
        if (client.modifiedAt) reply.header('x-oc-mtime', 'accepted');
        return reply
          .status(created ? 201 : 204)
          .header('etag', etag)
          .header('oc-etag', etag)
          .header('oc-fileid', fileId)
          .send();
      }
      case 'DELETE':
        if (request.headers.depth !== undefined && request.headers.depth !== 'infinity')
          throw new DavRefusal('malformed');
        await webdav.delete(context, location);
        return reply.status(204).send();
      case 'MKCOL':
        if (hasBody(request)) throw new DavRefusal('unexpected_body');
        await webdav.mkcol(context, location);
        await identified(reply, user, location);
        return reply.status(201).send();
      case 'COPY':
      case 'MOVE': {
        const mode = request.method === 'COPY' ? 'copy' : 'move';
        const depth = request.headers.depth ?? 'infinity';
        if (depth !== 'infinity' && (mode === 'move' || depth !== '0')) throw new DavRefusal('malformed');
        const overwrite = overwriteOf(request.headers);
        const destination = await webdav.locateDestination(
          user,
          header(request, 'destination'),
          request.headers.host,
        );
        const created = await webdav.transfer(context, mode, location, destination, {
          overwrite,
          depth,
        });
        await identified(reply, user, destination);
        return reply.status(created ? 201 : 204).send();
      }
      case 'PROPPATCH': {
        const results = await webdav.proppatch(
          context,
          location,
          parseProppatch(await readText(request, XML_BODY_BYTES.PROPPATCH)),
        );
        return reply.status(207).type(XML_TYPE).send(proppatchXml(location.href, results));
      }
      case 'LOCK': {
        const depth = request.headers.depth ?? 'infinity';
        if (depth !== '0' && depth !== 'infinity') throw new DavRefusal('malformed');
        const { active, created } = await webdav.lock(
          context,
          location,
          parseLockinfo(await readText(request, XML_BODY_BYTES.LOCK)),
          {
            depth,
            timeout: header(request, 'timeout'),
          },
        );
        reply.header('lock-token', `<${active.lock.token}>`);
        return reply
          .status(created ? 201 : 200)
          .type(XML_TYPE)
          .send(lockXml(active));
      }
      case 'UNLOCK':
        await webdav.unlock(user.id, location, /^<(.*)>$/.exec(header(request, 'lock-token') ?? '')?.[1]);
        return reply.status(204).send();
      default:
        throw new DavRefusal('method_not_allowed');
    }
  };

  /** Nextcloud's headers naming the item a write left at a location, which its clients record. */
  const identified = async (reply: FastifyReply, user: DavUser, location: DavLocation) => {
    const written = location.space === 'tree' ? await webdav.identify(user, location) : null;
    if (written) reply.header('oc-fileid', written.fileId).header('oc-etag', written.etag);
  };

  // Nextcloud's addresses serve the same trees in its layout (`:user` is checked by davScope).
  for (const url of [
    `${DAV_PREFIX}/*`,
    NEXTCLOUD_WEBDAV_PREFIX,
    `${NEXTCLOUD_WEBDAV_PREFIX}/*`,
    `${NEXTCLOUD_FILES_PREFIX}/:user`,
    `${NEXTCLOUD_FILES_PREFIX}/:user/*`,
  ])
    app.route({
      method: METHODS,
      url,
      exposeHeadRoute: false,
      // Bodies here are XML or file bytes, never the method marker of the description's POSTs.
      config: { methodOverride: false },
      schema: { hide: true },
      handler,
    });
};

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function ifListsOf(request: FastifyRequest) {
  const text = header(request, 'if');
  if (text === undefined) return null;
  const lists = parseIfHeader(text);
  if (!lists) throw new DavRefusal('malformed');
  return lists;
}

function hasBody(request: FastifyRequest): boolean {
  const length = header(request, 'content-length');
  return header(request, 'transfer-encoding') !== undefined || (length !== undefined && length !== '0');
}

/**
 * What a sync client says of the bytes it PUTs: X-OC-MTime (seconds since 1970, fractions allowed)
 * and OC-Checksum; a value that is neither is refused.
 */
export function clientFileState(request: FastifyRequest): ClientFileState {
  const mtime = header(request, 'x-oc-mtime');
  if (mtime !== undefined && !/^\d{1,12}(\.\d{1,9})?$/.test(mtime)) throw new DavRefusal('malformed');
  return {
    modifiedAt: mtime === undefined ? null : new Date(Math.round(Number(mtime) * 1000)),
    checksum: parseChecksum(header(request, 'oc-checksum')),
  };
}

/** The body's announced size: Content-Length, or the header macOS sends with a chunked PUT. */
function expectedBytes(request: FastifyRequest): number | null {
  const announced = header(request, 'content-length') ?? header(request, 'x-expected-entity-length');
  return announced && /^\d{1,15}$/.test(announced) ? Number(announced) : null;
}

/**
 * A PROPFIND's answer: Depth 0 or 1 (infinity is refused), the properties the body asks for of the
 * resources `at` lists. Streamed: a folder of thousands of members is written as it is read, never held whole.
 */
export async function sendPropfind(
  request: FastifyRequest,
  reply: FastifyReply,
  at: (depth: '0' | '1') => Promise<AsyncIterable<DavResource>>,
) {
  const depth = request.headers.depth ?? '1';
  if (depth !== '0' && depth !== '1') throw new DavRefusal('infinite_depth');
  const asked = parsePropfind(await readText(request, XML_BODY_BYTES.PROPFIND));
  const resources = await at(depth);
  return reply
    .status(207)
    .type(XML_TYPE)
    .send(Readable.from(propfindXml(resources, asked)));
}

/** A small XML body as text; past the limit the request is refused (413) and the rest is not read. */
export async function readText(request: FastifyRequest, limit: number): Promise<string> {
  if (!hasBody(request)) return '';
  if (Number(header(request, 'content-length') ?? 0) > limit) throw new DavRefusal('body_too_large');
  const pieces: Buffer[] = [];
  let bytes = 0;
  for await (const piece of request.raw as Readable) {
    bytes += (piece as Buffer).length;
    if (bytes > limit) throw new DavRefusal('body_too_large');
    pieces.push(piece as Buffer);
  }
  return Buffer.concat(pieces).toString('utf8');
}
