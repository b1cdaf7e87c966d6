import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { issueXsrfToken, isXsrfTokenFor, sameText, xsrfCookieName } from '../lib/xsrf-token';
import { SESSION_COOKIE } from './session.plugin';

export const XSRF_HEADER = 'x-xsrf-token';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Payment providers' webhooks: authorized by their signature, never by a cookie a browser sends. */
const SIGNED_WEBHOOK = /^\/api\/subscriptions\/[a-z]+\/webhooks(\?|$)/;
/**
 * WebDAV and the sync clients' APIs sign in with Basic and an app password on every request, never
 * the session, and keep whatever cookies they are given: a cookie there carries no authority to
 * check. What a page could forge there is preflighted anyway (DAV methods, PUT, multipart/related).
 */
const BASIC_AUTHENTICATED = /^\/(dav|remote\.php|ocs)\//;
/** A sync client's Login Flow v2: authorized by the flow's tokens, never by a cookie. */
const LOGIN_FLOW = /^\/index\.php\/login\/v2(\/poll)?(\?|$)/;
/**
 * The web build's fingerprinted files, kept a year by browsers and shared caches: an answer that
 * sets a cookie is one a proxy's or a CDN's cache keeps none of, and the page that loads them has
 * given the browser its token already.
 */
const BUILD_ASSET = /^\/assets\//;

function echoedToken(request: FastifyRequest): string {
  const header = request.headers[XSRF_HEADER];
  if (typeof header !== 'string') return '';
  try {
    return decodeURIComponent(header);
  } catch {
    return '';
  }
}

/**
 * Double-submit XSRF protection with session-bound tokens: every response makes sure the browser
 * holds a readable token minted for its current session, and every state-changing request that
 * carries cookies must echo it in X-XSRF-TOKEN. A cross-site page can make the browser send the
 * cookie but cannot read it, so it cannot forge the header. Requests without any cookie (scripts,
 * API clients) carry no ambient authority and pass. A token that is missing, malformed, or minted
 * for another session is replaced on the answer (any but a build asset's), so the client can retry
 * with the new one.
 */
export const xsrfPlugin = fp(async (app: FastifyInstance) => {
  const cookieName = xsrfCookieName(app.deps.env.appUrl);
  app.addHook('onRequest', async (request, reply) => {
    const sessionToken = request.cookies[SESSION_COOKIE];
    const cookieToken = request.cookies[cookieName];
    const valid = cookieToken !== undefined && isXsrfTokenFor(cookieToken, sessionToken);
    const asset = (request.method === 'GET' || request.method === 'HEAD') && BUILD_ASSET.test(request.url);
    if (!valid && !asset) issueXsrfToken(reply, sessionToken);
    if (
      !STATE_CHANGING.has(request.method) ||
      !request.headers.cookie ||
      SIGNED_WEBHOOK.test(request.url) ||
      BASIC_AUTHENTICATED.test(request.url) ||
      LOGIN_FLOW.test(request.url)
    )
      return;
    const echoed = echoedToken(request);
    if (!valid || !echoed || !sameText(cookieToken, echoed)) {
      throw new AppError('csrf_mismatch', 'CSRF token mismatch.');
    }
  });
});
