import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type BuildOptions } from 'vite';
import { compileHints } from './build/compile-hints';
import { groupChunks } from './build/group-chunks';
import { ownChunk } from './build/own-chunk';
import { precompress } from './build/precompress';
import { preloadFonts } from './build/preload-fonts';
import { productionRouter } from './build/production-router';
import { pureModules } from './build/pure-modules';
import { routePreloads } from './build/route-preloads';
import { schemaChunk } from './build/schema-chunk';
import { separateEntry } from './build/separate-entry';
import { twemojiAssets } from './build/twemoji-assets';

// The API server (port 8080) answers these prefixes; everything else is the SPA.
const serverPrefixes = ['/api', '/logout', '/translations', '/socket.io', '/file', '/thumbnail'];
const apiTarget = process.env.ATELIER_API_URL ?? 'http://localhost:8080';

// A product page's address: answered with the page's own entry (product.html, src/product-main.tsx).
const productPage = /^\/share\/[A-Za-z0-9]+\/product(?:[?#]|$)/;

// Both entries' builds. Tiny chunks (an icon, a helper two pages share) cost a request each: those
// under 1 KB without side effects join a chunk that loads with them. A larger limit moves whole pages
// into chunks other pages load (the sign-in page took the setup wizard's). Schemas keep a chunk of
// their own.
const build: BuildOptions = {
  target: 'es2022',
  sourcemap: true,
  rollupOptions: { output: { experimentalMinChunkSize: 1_000, manualChunks: schemaChunk } },
};
const pagePlugins = () => [
  react(),
  tailwindcss(),
  productionRouter(),
  pureModules(),
  compileHints(),
  precompress(),
];
const ownChunks = () => ownChunk(['src/lib/delta-upload.ts', 'src/lib/block-hash-client.ts']);

// The file manager: the signed-in frame, its navigation and its pages (see routes.tsx).
const fileManagerScreen = [
  'src/app/app-layout.tsx',
  'src/features/files/file-manager-layout.tsx',
  'src/features/files/files-pages.tsx',
];
// What a visitor opens outside the signed-in frame (routes.tsx), and the parts any page loads on use:
// none of these may load more when the file manager's chunks are grouped.
const outsideTheFrame = [
  'src/features/auth/',
  'src/features/setup/',
  'src/features/public/',
  'src/features/sharing/share-',
  'src/features/sharing/product-route.tsx',
  'src/features/upload-requests/upload-request-page.tsx',
  'src/features/upload-requests/request-about-page.tsx',
  'src/features/teams/team-invitation-page.tsx',
  'src/features/sync-clients/login-flow-page.tsx',
  'src/components/overlays/popups.tsx',
  'src/components/theme-dropdown.tsx',
];

export default defineConfig({
  plugins: [
    ...pagePlugins(),
    twemojiAssets(),
    // The text's and the headings' fonts (index.css).
    preloadFonts([
      'instrument-sans/files/instrument-sans-latin-wght-normal.woff2',
      'fraunces/files/fraunces-latin-wght-normal.woff2',
    ]),
    ownChunks(),
    // The file manager's first load in few scripts; pages outside the frame load at most 4 KB more.
    groupChunks({
      screens: [...fileManagerScreen, 'src/features/files/listing-prefetch.ts'],
      apart: outsideTheFrame,
      budget: 4_000,
      firstPass: () => ({
        plugins: [react(), tailwindcss(), productionRouter(), pureModules(), ownChunks()],
        build,
      }),
    }),
    routePreloads({ '/platform/files': fileManagerScreen }),
    separateEntry({
      html: 'product.html',
      paths: productPage,
      config: () => ({ plugins: pagePlugins(), build }),
    }),
  ],
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      serverPrefixes.map((prefix) => [
        prefix,
        { target: apiTarget, changeOrigin: false, ws: prefix === '/socket.io' },
      ]),
    ),
  },
  preview: {
    port: 4173,
    proxy: Object.fromEntries(
      serverPrefixes.map((prefix) => [prefix, { target: apiTarget, ws: prefix === '/socket.io' }]),
    ),
  },
  build,
});
