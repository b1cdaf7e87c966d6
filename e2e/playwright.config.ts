import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { E2E_PORT as port, artifactPath } from './support/artifacts';
import { DATA_DIR_FILE } from './support/data-dir';
import { SETUP_LINK_FILE } from './support/setup-link';

const chromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find((path) => path && existsSync(path));

// Journeys run against the built product on a fresh data directory, in real Chromium.
export default defineConfig({
  testDir: 'specs',
  outputDir: artifactPath('results'),
  timeout: 120_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list'], ['html', { outputFolder: artifactPath('report'), open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: `node support/serve.mjs`,
    env: { E2E_PORT: String(port), E2E_SETUP_LINK_FILE: SETUP_LINK_FILE, E2E_DATA_DIR_FILE: DATA_DIR_FILE },
    url: `http://127.0.0.1:${port}/api/ping`,
    timeout: 60_000,
    reuseExistingServer: false,
  },
});
