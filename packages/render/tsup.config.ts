import { defineConfig } from 'tsup';

// Worker entries sit flat beside the bundles as `<name>.worker.js`, where spawnWorker() looks first.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    cli: 'src/cli.ts',
    'raster.worker': 'src/engines/draft/raster.worker.ts',
    'import.worker': 'src/import/import.worker.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  splitting: true,
  dts: false,
  // Native and WASM packages resolve their binaries at run time from node_modules; so does esbuild,
  // which bundles the studio page when the engine starts. ws is CommonJS that requires Node's
  // built-ins, which an ESM bundle cannot: bundled, it stopped the studio engine from loading.
  external: [
    'sharp',
    'occt-import-js',
    'playwright-core',
    '@ffmpeg-installer/linux-x64',
    '@ffprobe-installer/linux-x64',
    'esbuild',
    'ws',
  ],
});
