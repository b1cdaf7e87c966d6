import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // Migrates one database of each kind per run, which test apps copy instead of migrating their own.
    globalSetup: ['test/support/migrated-templates.ts'],
    setupFiles: ['test/support/cheap-password-hashing.ts'],
    // Real database round trips, sockets and child processes are slower than pure unit tests.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
