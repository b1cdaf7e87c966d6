import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Modules loaded by `import()` for one rare action keep a chunk that holds nothing else. The bundler
 * moves small chunks without side effects (an icon, a helper) into a chunk that loads with them, and
 * a lazy chunk of plain functions is such a target: the delta upload's code joined the chunk of an
 * icon the sidebar shows, so every signed-in page loaded it. A module that counts as having side
 * effects (`no-treeshake`: kept whole, as these are anyway) is no target for other pages' code.
 */
export function ownChunk(files: string[]): Plugin {
  const ids = new Set(files.map((file) => path.resolve(import.meta.dirname, '..', file)));
  return {
    name: 'atelier-own-chunk',
    apply: 'build',
    transform(_code, id) {
      return ids.has(id) ? { moduleSideEffects: 'no-treeshake' } : null;
    },
  };
}
