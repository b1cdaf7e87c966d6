import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Bundles React Router's production build. The package's exports name only its development build,
 * whose warnings (`ENABLE_DEV_WARNINGS`, the one difference) ran in every visitor's browser; the
 * production build beside it has them off, so the bundler drops them.
 */
export function productionRouter(): Plugin {
  const packageDir = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
  const production = path.join(packageDir, 'dist/production/index.mjs');
  return {
    name: 'atelier-production-router',
    apply: 'build',
    config() {
      // A release that moved the file would otherwise bundle the development build again unnoticed.
      if (!existsSync(production)) throw new Error(`production router: no ${production}`);
      return { resolve: { alias: [{ find: /^react-router$/, replacement: production }] } };
    },
  };
}
