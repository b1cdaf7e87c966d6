import { SIGNED_IN_COOKIE } from '@atelier/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { UserRow } from '../db/schema';
import { AppError } from '../lib/app-error';
import { issueXsrfToken } from '../lib/xsrf-token';

export const SESSION_COOKIE = 'atelier_session';

const hintOptions = (request: FastifyRequest, expires?: Date) => ({
  path: '/',
  sameSite: 'lax' as const,
  secure: request.server.deps.env.appUrl.startsWith('https://'),
  ...(expires ? { expires } : {}),
});

/**
 * A page's answer brings the hint in line with the session cookie it came with: a session made before
 * the hint existed gets it, a hint the session outlived goes.
 */
export function syncSignedInHint(request: FastifyRequest, reply: FastifyReply): void {
  const session = Boolean(request.cookies[SESSION_COOKIE]);
  const hint = Boolean(request.cookies[SIGNED_IN_COOKIE]);
  if (session && !hint) reply.setCookie(SIGNED_IN_COOKIE, '1', hintOptions(request));
  else if (!session && hint) reply.clearCookie(SIGNED_IN_COOKIE, { path: '/' });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by the requireUser / requireAdmin guards. */
    user: UserRow | null;
    /** Looks the session cookie up once per request; null when anonymous. */
    sessionUser(): Promise<UserRow | null>;
  }
  interface FastifyInstance {
    requireUser(request: FastifyRequest): Promise<void>;
    requireAdmin(request: FastifyRequest): Promise<void>;
  }
}

const resolved = new WeakMap<FastifyRequest, Promise<UserRow | null>>();

/** The user a guarded handler runs for. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new AppError('unauthenticated', 'errors.unauthenticated');
  return request.user;
}

/** The browser a guarded handler answers: its address and the session it is signed in with. */
export interface SignedInClient {
  ip: string;
  sessionToken: string;
}

export function signedInClient(request: FastifyRequest): SignedInClient {
  const sessionToken = request.cookies[SESSION_COOKIE];
  if (!request.user || !sessionToken) throw new AppError('unauthenticated', 'errors.unauthenticated');
  return { ip: request.ip, sessionToken };
}

/** Signs the user in on a fresh session; any session the browser already had is destroyed (rotation). */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): Promise<void> {
  const { sessions, env } = request.server.deps;
  const previous = request.cookies[SESSION_COOKIE];
  if (previous) await sessions.destroy(previous);
  const session = await sessions.create(user, {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
  });
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: env.appUrl.startsWith('https://'),
    expires: session.expiresAt,
  });
  reply.setCookie(SIGNED_IN_COOKIE, '1', hintOptions(request, session.expiresAt));
  // A token minted for the old session (or none) is useless now: the browser gets one for this one.
  issueXsrfToken(reply, session.token);
  request.user = user;
  resolved.set(request, Promise.resolve(user));
}

export async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (token) await request.server.deps.sessions.destroy(token);
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  reply.clearCookie(SIGNED_IN_COOKIE, { path: '/' });
  issueXsrfToken(reply, undefined);
  request.user = null;
  resolved.set(request, Promise.resolve(null));
}

/** Cookie sessions and the guards routes declare as `preHandler: app.requireUser`. */
export const sessionPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionUser', function (this: FastifyRequest) {
    let user = resolved.get(this);
    if (!user) {
      const token = this.cookies[SESSION_COOKIE];
      user = token ? app.deps.sessions.resolve(token).then((u) => u ?? null) : Promise.resolve(null);
      resolved.set(this, user);
    }
    return user;
  });

  app.decorate('requireUser', async (request: FastifyRequest) => {
    const user = await request.sessionUser();
    if (!user) throw new AppError('unauthenticated', 'errors.unauthenticated');
    request.user = user;
  });

  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    await app.requireUser(request);
    if (request.user?.role !== 'admin') throw new AppError('forbidden', 'errors.forbidden');
  });
});
