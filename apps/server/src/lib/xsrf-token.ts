import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { randomToken } from './tokens';

/**
 * XSRF tokens bound to the session: `nonce.mac`, the mac an HMAC of the nonce keyed by the session
 * cookie. Only a holder of that session (which is httpOnly) can mint a token for it, so a token
 * planted from elsewhere, or kept from before a sign-in, is refused. A visitor without a session
 * gets a token keyed by nothing, which is the plain double-submit check.
 */
export function mintXsrfToken(sessionToken: string | undefined): string {
  const nonce = randomToken();
  return `${nonce}.${mac(nonce, sessionToken)}`;
}

/** Tokens found valid lately, each with the session it is valid for (FIFO, at most this many). */
const VERIFIED_LIMIT = 10_000;
const verified = new Map<string, string>();

export function isXsrfTokenFor(token: string, sessionToken: string | undefined): boolean {
  // A browser sends the same pair on every request, and its HMAC was 5 % of a cached page's CPU.
  if (verified.get(token) === (sessionToken ?? '')) return true;
  const [nonce, given, ...rest] = token.split('.');
  if (!nonce || !given || rest.length > 0) return false;
  if (!sameText(given, mac(nonce, sessionToken))) return false;
  verified.set(token, sessionToken ?? '');
  if (verified.size > VERIFIED_LIMIT) verified.delete(verified.keys().next().value!);
  return true;
}

export function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function mac(nonce: string, sessionToken: string | undefined): string {
  return createHmac('sha256', `xsrf:${sessionToken ?? ''}`)
    .update(nonce)
    .digest('base64url');
}

/** Over https the cookie takes the `__Host-` prefix: only this exact host may set it, over TLS, on `/`. */
export function xsrfCookieName(appUrl: string): string {
  return appUrl.startsWith('https://') ? '__Host-XSRF-TOKEN' : 'XSRF-TOKEN';
}

/** Hands the browser a fresh token for the session it holds after this response (none: pass undefined). */
export function issueXsrfToken(reply: FastifyReply, sessionToken: string | undefined): void {
  const { appUrl } = reply.server.deps.env;
  reply.setCookie(xsrfCookieName(appUrl), mintXsrfToken(sessionToken), {
    path: '/',
    sameSite: 'lax',
    secure: appUrl.startsWith('https://'),
    httpOnly: false,
  });
}
