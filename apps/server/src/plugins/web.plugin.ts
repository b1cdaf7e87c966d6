import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { openGraphTags } from '../modules/sharing/sharing.presenter';

/** A share link's pages: /share/{token}, /share/{token}/file, /share/{token}/files/{id}… */
const SHARE_PAGE = /^\/share\/([A-Za-z0-9]{16,64})(?:[/?#]|$)/;

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
      // The build writes brotli and gzip copies (file.br, file.gz); the one the browser accepts is sent.
      preCompressed: true,
      // The policy is set per file below.
      cacheControl: false,
      setHeaders: (res, file) => {
        // Vite fingerprints everything under assets/, so those never change; index.html always may.
        const immutable = file.startsWith(path.join(root, 'assets') + path.sep);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The same address answers other bytes to another Accept-Encoding: caches must keep them apart.
        res.setHeader('vary', 'accept-encoding');
      },
    });
  } else {
    app.log.warn({ root }, 'web app not built: run `npm run build` to serve the interface');
  }

  // A share link's page carries its item's name and thumbnail for link previews, made without scripts.
  const sharePage = async (token: string): Promise<string | null> => {
    // Closed like the API: before the installation and in maintenance the page names nothing.
    const { installed, maintenance } = await app.deps.settings.all();
    if (!installed || maintenance) return null;
    const preview = await app.deps.sharing.preview(token);
    if (!preview) return null;
    const tags = openGraphTags(preview, await app.deps.settings.get('app_title'));
    const page = await readFile(path.join(root, 'index.html'), 'utf8');
    // A function, not a string: a replacement string reads `$\``, `$'` and `$&` in a file name as patterns.
    return page.includes('</head>') ? page.replace('</head>', () => `${tags}</head>`) : tags + page;
  };

  app.setNotFoundHandler(async (request, reply) => {
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') && !SERVER_PATHS.test(request.url);
    if (built && wantsPage) {
      const token = SHARE_PAGE.exec(request.url)?.[1];
      const previewed = token ? await sharePage(token) : null;
      reply.header('cache-control', 'no-cache');
      return previewed
        ? reply.type('text/html; charset=utf-8').send(previewed)
        : reply.sendFile('index.html');
    }
    throw new AppError('not_found', 'errors.not_found');
  });
});
