import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';

/** Paths the server answers itself; an unknown one is a JSON 404, never the SPA page. */
const SERVER_PATHS = /^\/(api|translations|file|thumbnail|socket\.io|logout)(\/|$)/;

/**
 * Serves the built web app from WEB_DIST_DIR with a history-mode fallback: any other GET that
 * accepts HTML gets index.html and the client router takes it from there.
 */
export const webPlugin = fp(async (app: FastifyInstance) => {
  const root = path.resolve(app.deps.env.WEB_DIST_DIR);
  const built = existsSync(path.join(root, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root,
      index: ['index.html'],
      // The policy is set per file below.
      cacheControl: false,
      setHeaders: (res, file) => {
        // Vite fingerprints everything under assets/, so those never change; index.html always may.
        const immutable = file.startsWith(path.join(root, 'assets') + path.sep);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ root }, 'web app not built: run `npm run build` to serve the interface');
  }

  app.setNotFoundHandler(async (request, reply) => {
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') && !SERVER_PATHS.test(request.url);
    if (built && wantsPage) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    throw new AppError('not_found', 'errors.not_found');
  });
});
