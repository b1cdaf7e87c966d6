import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../../db/schema';
import { startSession } from '../../plugins/session.plugin';

/** The cookie of a sign-in waiting for its second factor; sent only to the challenge. */
export const TWO_FACTOR_CHALLENGE_COOKIE = 'atelier_two_factor';
export const TWO_FACTOR_CHALLENGE_PATH = '/api/two-factor-challenge';

/**
 * The cookie that makes a browser known to the accounts it signed in to (see LoginThrottle); only
 * sign-in reads it. A year, renewed at each sign-in.
 */
export const SIGN_IN_DEVICE_COOKIE = 'atelier_device';
const SIGN_IN_DEVICE_PATH = '/api/login';
const SIGN_IN_DEVICE_DAYS = 365;

/** The browser's device cookie, when it carries one that could be ours. */
export function signInDeviceOf(request: FastifyRequest): string | undefined {
  const value = request.cookies[SIGN_IN_DEVICE_COOKIE];
  return value && value.length <= 100 ? value : undefined;
}

export function setSignInDevice(request: FastifyRequest, reply: FastifyReply, device: string): void {
  reply.setCookie(SIGN_IN_DEVICE_COOKIE, device, {
    path: SIGN_IN_DEVICE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.server.deps.env.appUrl.startsWith('https://'),
    maxAge: SIGN_IN_DEVICE_DAYS * 86_400,
  });
}

/**
 * THE way every sign-in path (password, social callback, …) lets a user in whose identity it has
 * proven. Without two-factor authentication the session starts now ('session'). With it no
 * session is created: a challenge valid for a few minutes is stored and its cookie set
 * ('two_factor'); the caller then answers `{ two_factor: true }` (an API call) or redirects to
 * `/sign-in?two_factor=1` (a browser navigation), and POST /api/two-factor-challenge finishes it.
 */
export async function signIn(
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): Promise<'session' | 'two_factor'> {
  if (!user.two_factor_confirmed_at) {
    await startSession(request, reply, user);
    return 'session';
  }
  const { signInChallenges, env } = request.server.deps;
  const challenge = await signInChallenges.begin(user);
  reply.setCookie(TWO_FACTOR_CHALLENGE_COOKIE, challenge.token, {
    path: TWO_FACTOR_CHALLENGE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: env.appUrl.startsWith('https://'),
    expires: challenge.expiresAt,
  });
  return 'two_factor';
}

/** Finishes a sign-in that answered its challenge: the cookie goes, the session starts. */
export async function completeTwoFactorSignIn(
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): Promise<void> {
  reply.clearCookie(TWO_FACTOR_CHALLENGE_COOKIE, { path: TWO_FACTOR_CHALLENGE_PATH });
  await startSession(request, reply, user);
}
