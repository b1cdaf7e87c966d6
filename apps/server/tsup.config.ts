import { defineConfig } from 'tsup';

// One ESM bundle for production. Workspace packages export TypeScript source, so they are bundled in;
// npm dependencies (native addons among them) stay external and load from node_modules.
export default defineConfig({
  entry: {
    main: 'src/main.ts',
    'cli/setup': 'src/cli/setup.ts',
    // The render engine starts these as worker threads from files beside the bundle that imports it.
    'raster.worker': '../../packages/render/src/engines/draft/raster.worker.ts',
    'occt.worker': '../../packages/render/src/import/occt.worker.ts',
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
  external: ['sharp', 'occt-import-js', 'playwright-core', '@ffmpeg-installer/linux-x64', '@ffprobe-installer/linux-x64'],
});
