import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';
import { TWEMOJI_PATH } from '../src/lib/emoji';

const SVG_NAME = /^[0-9a-f]+(?:-[0-9a-f]+)*\.svg$/;

/**
 * The twemoji graphics (CC-BY 4.0) for the `twemoji` emoji type: served from the package in
 * development and copied beside the build, so an instance needs no outside host to show them.
 */
export function twemojiAssets(): Plugin {
  const source = path.dirname(createRequire(import.meta.url).resolve('@twemoji/svg/package.json'));
  let outDir = '';
  return {
    name: 'atelier-twemoji-assets',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use(TWEMOJI_PATH, (request, response, next) => {
        const name = (request.url ?? '').replace(/^\//, '').split('?')[0]!;
        if (!SVG_NAME.test(name)) return next();
        response.setHeader('content-type', 'image/svg+xml');
        createReadStream(path.join(source, name))
          .on('error', () => next())
          .pipe(response);
      });
    },
    async writeBundle() {
      const target = path.join(outDir, TWEMOJI_PATH);
      await mkdir(target, { recursive: true });
      const names = (await readdir(source)).filter((name) => SVG_NAME.test(name));
      await Promise.all(names.map((name) => copyFile(path.join(source, name), path.join(target, name))));
    },
  };
}
