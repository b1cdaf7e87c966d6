import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress';
import { pureContracts } from './build/pure-contracts';
import { twemojiAssets } from './build/twemoji-assets';

// The API server (port 8080) answers these prefixes; everything else is the SPA.
const serverPrefixes = ['/api', '/logout', '/translations', '/socket.io', '/file', '/thumbnail'];
const apiTarget = process.env.ATELIER_API_URL ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react(), tailwindcss(), twemojiAssets(), pureContracts(), precompress()],
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
  build: {
    target: 'es2022',
    sourcemap: true,
    // Tiny chunks (an icon, a helper two pages share) cost a request each and compress poorly: those
    // without side effects join a chunk that loads with them.
    rollupOptions: { output: { experimentalMinChunkSize: 8_000 } },
  },
});
