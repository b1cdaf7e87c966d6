import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // Migrates one database of each kind per run, which test apps copy instead of migrating their own.
    globalSetup: ['test/support/migrated-templates.ts'],
    // argon2 hashing and real database round trips are slower than pure unit tests.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
