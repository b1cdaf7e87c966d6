import path from 'node:path';
import type { Plugin, Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

/** What the build writes for the server: per address prefix, the script files its screen needs. */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/** The script names the server names in a page: letters, digits, '-', '_' and '.' under assets/. */
const SERVED_SCRIPT = /^assets\/[\w.-]+\.js$/;

/**
 * Writes route-preloads.json: for each address prefix, the chunks holding the lazily loaded modules
 * that draw its screen, with everything they import, less what index.html already names for the entry. The
 * server names these in the page it sends a signed-in visitor of such an address, so the browser asks
 * for them beside the entry's chunks instead of after the entry has run and the router has asked,
 * six requests at a time behind the session's own calls.
 */
export function routePreloads(routes: Record<string, readonly string[]>): Plugin {
  let root = '';
  return {
    name: 'atelier-route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output): output is OutputChunk => output.type === 'chunk');
      const entry = chunks.filter((chunk) => chunk.isEntry);
      const named = new Set(withImports(bundle, entry));
      const preloads = Object.fromEntries(
        Object.entries(routes).map(([prefix, modules]) => {
          const screens = modules.map((module) => {
            const id = path.resolve(root, module);
            const chunk = chunks.find((candidate) => candidate.moduleIds.includes(id));
            // A module renamed or moved would otherwise silently preload nothing.
            if (!chunk) this.error(`route preloads: no chunk holds ${module}`);
            return chunk;
          });
          const files = withImports(bundle, screens).filter((file) => !named.has(file));
          // The server drops a prefix's whole list when one name is outside its pattern (web.plugin.ts).
          const odd = files.find((file) => !SERVED_SCRIPT.test(file));
          if (odd) this.error(`route preloads: the server would not name ${odd} in a page`);
          return [prefix, files.map((file) => `/${file}`)];
        }),
      );
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: JSON.stringify(preloads) });
    },
  };
}

/** The chunks' files and those of everything they import statically, each once. */
function withImports(bundle: OutputBundle, start: OutputChunk[]): string[] {
  const seen = new Set<string>();
  const visit = (chunk: OutputChunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    for (const file of chunk.imports) {
      const imported = bundle[file];
      if (imported?.type === 'chunk') visit(imported);
    }
  };
  start.forEach(visit);
  return [...seen];
}
