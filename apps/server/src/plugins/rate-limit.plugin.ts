import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Env } from '../env';
import { AppError } from '../lib/app-error';
import { clientNetwork } from '../lib/client-network';

/**
 * A ceiling on requests per address and minute for every route, set high enough for a file manager
 * (chunked uploads, a page of thumbnails, several people behind one office address), in memory on one node and in
 * Redis when several API nodes share the load. An IPv6 client counts by its /64 (see clientNetwork).
 * Sign-in has its own stricter throttle.
 */
export const rateLimitPlugin = fp(async (app: FastifyInstance) => {
  const { redis, env } = app.deps;
  await app.register(rateLimit, {
    global: true,
    max: env.RATE_LIMIT_MAX,
    timeWindow: '1 minute',
    keyGenerator: (request: FastifyRequest) => clientNetwork(request.ip),
    ...(redis ? { redis, nameSpace: `${env.REDIS_PREFIX}:rate-limit:` } : {}),
    errorResponseBuilder: () => new AppError('throttled', 'errors.throttled'),
  });
});

/** Calls a minute that send mail or test tokens: a six-hundredth of the global ceiling (10 by default). */
function mailingMax(env: Pick<Env, 'RATE_LIMIT_MAX'>): number {
  return Math.max(1, Math.floor(env.RATE_LIMIT_MAX / 600));
}

/** Route config for calls that send mail or test tokens. */
export function mailingRateLimit(env: Pick<Env, 'RATE_LIMIT_MAX'>) {
  return { rateLimit: { max: mailingMax(env), timeWindow: '1 minute' } };
}

/**
 * Route config for a call that sends mail only when its body asks for it (a link created with
 * addresses to send it to): those calls are counted apart and held to the mailing rate, the others
 * only to the global ceiling. Counted once the body is read.
 */
export function mailingRateLimitWhen(
  env: Pick<Env, 'RATE_LIMIT_MAX'>,
  sendsMail: (request: FastifyRequest) => boolean,
) {
  return {
    rateLimit: {
      hook: 'preHandler' as const,
      keyGenerator: (request: FastifyRequest) => {
        const network = clientNetwork(request.ip);
        return sendsMail(request) ? `mail:${network}` : network;
      },
      max: async (request: FastifyRequest) => (sendsMail(request) ? mailingMax(env) : env.RATE_LIMIT_MAX),
      timeWindow: '1 minute',
    },
  };
}
