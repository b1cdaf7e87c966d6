import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'render',
    environment: 'node',
    // Renders and ffmpeg runs are CPU-bound; generous per-test ceilings keep slow CI boxes green.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
