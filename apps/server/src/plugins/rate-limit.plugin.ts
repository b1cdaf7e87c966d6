import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Env } from '../env';
import { AppError } from '../lib/app-error';

/**
 * A ceiling on requests per address and minute for every route, set high enough for a file manager
 * (chunked uploads, a page of thumbnails, several people behind one office address), in memory on one node and in
 * Redis when several API nodes share the load. Sign-in has its own stricter throttle.
 */
export const rateLimitPlugin = fp(async (app: FastifyInstance) => {
  const { redis } = app.deps;
  await app.register(rateLimit, {
    global: true,
    max: app.deps.env.RATE_LIMIT_MAX,
    timeWindow: '1 minute',
    ...(redis ? { redis, nameSpace: 'atelier:rate-limit:' } : {}),
    errorResponseBuilder: () => new AppError('throttled', 'errors.throttled'),
  });
});

/** Route config for calls that send mail or test tokens: a six-hundredth of the global ceiling (10 a minute by default). */
export function mailingRateLimit(env: Pick<Env, 'RATE_LIMIT_MAX'>) {
  return { rateLimit: { max: Math.max(1, Math.floor(env.RATE_LIMIT_MAX / 600)), timeWindow: '1 minute' } };
}
