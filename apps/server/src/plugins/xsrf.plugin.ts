import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { randomToken } from '../lib/tokens';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Double-submit XSRF protection: every response hands out a readable XSRF-TOKEN cookie, and every
 * state-changing request that carries cookies must echo it in X-XSRF-TOKEN. A cross-site page can
 * make the browser send the cookie but cannot read it, so it cannot forge the header. Requests
 * without any cookie (scripts, API clients) carry no ambient authority and pass.
 */
export const xsrfPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request, reply) => {
    const cookieToken = request.cookies[XSRF_COOKIE];
    if (!cookieToken) {
      reply.setCookie(XSRF_COOKIE, randomToken(), {
        path: '/',
        sameSite: 'lax',
        secure: app.deps.env.appUrl.startsWith('https://'),
        httpOnly: false,
      });
    }
    if (!STATE_CHANGING.has(request.method) || !request.headers.cookie) return;
    const header = request.headers[XSRF_HEADER];
    const echoed = typeof header === 'string' ? decodeURIComponent(header) : '';
    if (!cookieToken || !echoed || !sameToken(cookieToken, echoed)) {
      throw new AppError('csrf_mismatch', 'CSRF token mismatch.');
    }
  });
});
