import { defineConfig, type Options } from 'tsup';
import renderBuild from '../../packages/render/tsup.config';

/** The `*.worker` entries of the render engine's own build, with paths from here. */
function renderWorkerEntries(): Record<string, string> {
  const entry = (renderBuild as Options).entry as Record<string, string>;
  return Object.fromEntries(
    Object.entries(entry)
      .filter(([name]) => name.endsWith('.worker'))
      .map(([name, path]) => [name, `../../packages/render/${path}`]),
  );
}

// One ESM bundle for production. Workspace packages export TypeScript source, so they are bundled in;
// npm dependencies (native addons among them) stay external and load from node_modules.
export default defineConfig({
  entry: {
    main: 'src/main.ts',
    'cli/setup': 'src/cli/setup.ts',
    // The render engine starts its worker threads from files beside the bundle that imports it.
    ...renderWorkerEntries(),
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  splitting: true,
  noExternal: [/^@atelier\//],
  // The render engine's native and WASM packages find their binaries in node_modules at run time.
  external: (renderBuild as Options).external,
});
