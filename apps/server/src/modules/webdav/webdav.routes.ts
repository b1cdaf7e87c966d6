import { ERROR_STATUS } from '@atelier/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { Readable } from 'node:stream';
import { AppError } from '../../lib/app-error';
import { basicCredentials } from '../../lib/basic-credentials';
import type { UserRow } from '../../db/schema';
import { sendDownload } from '../files/file-response';
import { parseIfHeader } from './webdav.locks';
import { errorXml, lockXml, propfindXml, proppatchXml, XML_TYPE } from './webdav.presenter';
import { DavRefusal, type DavRefusalReason } from './webdav.refusals';
import { DAV_PREFIX, type WriteContext } from './webdav.service';
import { MalformedBody, parseLockinfo, parseProppatch, parsePropfind } from './webdav.xml';

/** The methods RFC 4918 adds to HTTP; Fastify routes them once they are declared. */
const DAV_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;
const METHODS: HTTPMethods[] = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', ...DAV_METHODS];
const ALLOW = METHODS.join(', ');
/**
 * XML bodies are small: a PROPFIND names properties and a LOCK its owner in a few hundred bytes.
 * A PROPPATCH carries property values, so it may hold all the dead properties a resource may keep
 * with room for markup; anything larger is no client's request (413, the rest not read).
 */
const XML_BODY_BYTES = { PROPFIND: 16 * 1024, LOCK: 16 * 1024, PROPPATCH: 256 * 1024 } as const;
const REALM = 'Basic realm="Atelier WebDAV", charset="UTF-8"';

/** The status RFC 4918 gives each refusal, and the precondition element its error body names, if any. */
const REFUSAL_ANSWERS: Record<DavRefusalReason, { status: number; condition?: string }> = {
  malformed: { status: 400 },
  unauthenticated: { status: 401 },
  not_found: { status: 404 },
  outside_tree: { status: 403 },
  tree_root: { status: 403 },
  into_itself: { status: 403 },
  not_lock_holder: { status: 403 },
  infinite_depth: { status: 403, condition: 'propfind-finite-depth' },
  not_a_file: { status: 405 },
  already_exists: { status: 405 },
  method_not_allowed: { status: 405 },
  missing_parent: { status: 409 },
  lock_not_on_resource: { status: 409, condition: 'lock-token-matches-request-uri' },
  precondition_failed: { status: 412 },
  no_lock_to_refresh: { status: 412, condition: 'lock-token-submitted' },
  body_too_large: { status: 413 },
  unexpected_body: { status: 415 },
  locked: { status: 423, condition: 'lock-token-submitted' },
  lock_conflict: { status: 423, condition: 'no-conflicting-lock' },
  foreign_destination: { status: 502 },
  insufficient_storage: { status: 507 },
};

/** How a refusal from the files services reads in WebDAV's terms. */
const DAV_STATUS: Partial<Record<AppError['code'], number>> = {
  upload_disabled: 403,
  blacklisted_type: 403,
  storage_limit_exceeded: 507,
  validation_failed: 400,
  upload_offset_mismatch: 409,
};

/**
 * WebDAV at /dav/ (RFC 4918 class 1 and 2): `/dav/files/` is My files, `/dav/shared/{name}/` each
 * team folder the user is a member of. Basic authentication with the account's e-mail and an app
 * password. Bodies are never parsed by Fastify here: a PUT streams into storage as it arrives.
 */
export const webdavRoutes: FastifyPluginAsync = async (app) => {
  const { webdav, appPasswords } = app.deps;
  for (const method of DAV_METHODS)
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  app.setErrorHandler(async (error, request, reply) => {
    const refusal = error instanceof DavRefusal ? REFUSAL_ANSWERS[error.reason] : null;
    const status = refusal
      ? refusal.status
      : error instanceof AppError
        ? (DAV_STATUS[error.code] ?? ERROR_STATUS[error.code])
        : error instanceof MalformedBody
          ? 400
          : ((error as { statusCode?: number }).statusCode ?? 500);
    // Only a failure of the server's own is an error to log: a refusal or an AppError (maintenance's 503, say) is an answer.
    if (status >= 500 && !refusal && !(error instanceof AppError))
      request.log.error({ err: error }, 'webdav request failed');
    if (status === 401) reply.header('www-authenticate', REALM);
    if (refusal?.condition) return reply.status(status).type(XML_TYPE).send(errorXml(refusal.condition));
    return reply.status(status).send();
  });

  // Before the body is read: a request without valid credentials never reaches storage.
  const users = new WeakMap<FastifyRequest, UserRow>();
  app.addHook('onRequest', async (request) => {
    if (request.method === 'OPTIONS') return;
    const credentials = basicCredentials(request.headers.authorization);
    const user = credentials
      ? await appPasswords.authenticate(credentials.email, credentials.password, request.ip)
      : null;
    if (!user) throw new DavRefusal('unauthenticated');
    users.set(request, user);
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === 'OPTIONS') {
      return reply
        .status(200)
        .header('dav', '1, 2')
        .header('ms-author-via', 'DAV')
        .header('allow', ALLOW)
        .send();
    }
    const user = users.get(request)!;
    const path = request.url.split('?', 1)[0]!;
    const location = await webdav.locate(user.id, path);
    const context: WriteContext = { userId: user.id, ifLists: ifListsOf(request) };
    switch (request.method) {
      case 'GET':
      case 'HEAD':
        return sendDownload(request, reply, await webdav.download(location), {
          attachment: true,
          cacheControl: 'private, no-cache',
        });
      case 'PROPFIND': {
        const depth = request.headers.depth ?? '1';
        if (depth !== '0' && depth !== '1') throw new DavRefusal('infinite_depth');
        const asked = parsePropfind(await readText(request, XML_BODY_BYTES.PROPFIND));
        const resources = await webdav.propfind(user.id, location, depth);
        // Streamed: a folder of thousands of members is written as it is read, never held whole.
        return reply
          .status(207)
          .type(XML_TYPE)
          .send(Readable.from(propfindXml(resources, asked)));
      }
      case 'PUT': {
        const { created, etag } = await webdav.put(context, location, request.raw, expectedBytes(request));
        return reply
          .status(created ? 201 : 204)
          .header('etag', etag)
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
        return reply.status(201).send();
      case 'COPY':
      case 'MOVE': {
        const mode = request.method === 'COPY' ? 'copy' : 'move';
        const depth = request.headers.depth ?? 'infinity';
        if (depth !== 'infinity' && (mode === 'move' || depth !== '0')) throw new DavRefusal('malformed');
        const overwrite = request.headers.overwrite ?? 'T';
        if (overwrite !== 'T' && overwrite !== 'F') throw new DavRefusal('malformed');
        const destination = await webdav.locateDestination(
          user.id,
          header(request, 'destination'),
          request.headers.host,
        );
        const created = await webdav.transfer(context, mode, location, destination, {
          overwrite: overwrite === 'T',
          depth,
        });
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

  app.route({
    method: METHODS,
    url: `${DAV_PREFIX}/*`,
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

/** The body's announced size: Content-Length, or the header macOS sends with a chunked PUT. */
function expectedBytes(request: FastifyRequest): number | null {
  const announced = header(request, 'content-length') ?? header(request, 'x-expected-entity-length');
  return announced && /^\d{1,15}$/.test(announced) ? Number(announced) : null;
}

/** A small XML body as text; past the limit the request is refused (413) and the rest is not read. */
async function readText(request: FastifyRequest, limit: number): Promise<string> {
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
