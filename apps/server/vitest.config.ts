import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // Migrates one database of each kind per run, which test apps copy instead of migrating their own.
    globalSetup: ['test/support/migrated-templates.ts'],
    setupFiles: ['test/support/cheap-password-hashing.ts'],
    // A worker runs its test files one after another in one module graph instead of evaluating the
    // server's few hundred modules afresh for each file: that import was about half the CPU of a file
    // (10 files, one worker: 35 -> 15 s user). Every file builds its own app, database and data folder
    // (test/support/test-app.ts), and the server keeps no state in its modules, so nothing a file
    // does reaches the next one.
    isolate: false,
    // Real database round trips, sockets and child processes are slower than pure unit tests.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
