import { defineConfig } from 'vitest/config';

// One run covers every workspace's unit, API and component tests; e2e runs separately in Chromium.
export default defineConfig({
  test: {
    projects: ['packages/contracts', 'packages/render', 'apps/server', 'apps/web'],
  },
});
