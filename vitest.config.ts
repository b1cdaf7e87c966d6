import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One run covers every workspace's unit, API and component tests; e2e runs separately in Chromium.
export default defineConfig({
  // Vitest starts the files that took longest last time first (files it has no record of by size), so
  // the slowest do not start last and run alone while the other workers idle; CI keeps that record
  // between its runs in a cache folder named here, a fresh clone's node_modules having none.
  cacheDir: process.env.VITEST_CACHE_DIR,
  test: {
    projects: [
      'packages/chunker',
      'packages/contracts',
      'packages/render',
      'apps/server',
      'apps/web',
      'apps/web/vitest.mocked.config.ts',
    ],
    // Most test files wait on databases, sockets and child processes rather than the CPU: one worker
    // more than the cores keeps them busy (Vitest's default, one fewer, runs a single file at a time
    // on a two-core machine).
    maxWorkers: availableParallelism() + 1,
    // CI also keeps the modules Vitest compiled (VITEST_MODULE_CACHE_DIR, keyed by each file's content):
    // every test file evaluates the server's few hundred modules afresh, and from this cache it skips
    // compiling them and most of asking the main process for them (4 small server files: 13-17 s -> 9-10 s).
    ...(process.env.VITEST_MODULE_CACHE_DIR
      ? { experimental: { fsModuleCache: true, fsModuleCachePath: process.env.VITEST_MODULE_CACHE_DIR } }
      : {}),
  },
});
