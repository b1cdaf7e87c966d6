import { ERROR_STATUS } from '@atelier/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { basicCredentials } from '../../lib/basic-credentials';
import { errorXml, XML_TYPE } from './webdav.presenter';
import { DavRefusal, type DavRefusalReason } from './webdav.refusals';
import { namesUser } from './webdav.service';
import { MalformedBody } from './webdav.xml';

/** The methods RFC 4918 adds to HTTP; Fastify routes them once they are declared. */
export const DAV_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;
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
 * Makes a plugin's scope speak WebDAV, for `/dav/` and every Nextcloud address
 * (`/remote.php/dav/<collection>/{user}/…`): the DAV methods routed, bodies left unread for the
 * handler to stream, refusals answered with RFC 4918's statuses, and every request but OPTIONS
 * signed in before its body is read, with HTTP Basic and an app password of the account (never the
 * account password; wrong ones count with the sign-in throttle). A route of the scope with a `:user`
 * parameter is Nextcloud's `{user}`: the account's e-mail address or id; anything else answers 404.
 *
 *     export const myRoutes: FastifyPluginAsync = async (app) => {
 *       const signedIn = davScope(app);
 *       app.route({ method: ['MKCOL', 'PUT'], url: '/remote.php/dav/uploads/:user/*', ...,
 *         handler: async (request, reply) => { const user = signedIn(request); … } });
 *     };
 *
 * Returns the signed-in user of a request of the scope.
 */
export function davScope(app: FastifyInstance): (request: FastifyRequest) => UserRow {
  const { appPasswords } = app.deps;
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
    const named = (request.params as { user?: string } | undefined)?.user;
    if (named !== undefined && !namesUser(user, named)) throw new DavRefusal('not_found');
    users.set(request, user);
  });

  return (request) => {
    const user = users.get(request);
    if (!user) throw new DavRefusal('unauthenticated');
    return user;
  };
}
