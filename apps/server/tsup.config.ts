import { defineConfig } from 'tsup';

// One ESM bundle for production. Workspace packages export TypeScript source, so they are bundled in;
// npm dependencies (native addons among them) stay external and load from node_modules.
export default defineConfig({
  entry: { main: 'src/main.ts', 'cli/setup': 'src/cli/setup.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  splitting: true,
  noExternal: [/^@atelier\//],
});
