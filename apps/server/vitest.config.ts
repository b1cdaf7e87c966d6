import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // argon2 hashing and real database round trips are slower than pure unit tests.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
