import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One run covers every workspace's unit, API and component tests; e2e runs separately in Chromium.
export default defineConfig({
  test: {
    projects: ['packages/contracts', 'packages/render', 'apps/server', 'apps/web'],
    // Most test files wait on databases, sockets and child processes rather than the CPU: one worker
    // more than the cores keeps them busy (Vitest's default, one fewer, runs a single file at a time
    // on a two-core machine).
    maxWorkers: availableParallelism() + 1,
  },
});
