import { existsSync } from 'node:fs';
import { HEADLESS_SWITCHES, featureSwitches } from '@atelier/render/chromium-switches';
import { defineConfig } from '@playwright/test';
import { E2E_PORT, E2E_WORKERS, artifactPath, serverOrigin } from './support/artifacts';
import { dataDirFile } from './support/data-dir';
import { setupLinkFile } from './support/setup-link';

const chromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find((path) => path && existsSync(path));

// Journeys run against the built product on a fresh data directory, in real Chromium; with
// E2E_WORKERS=n, n at a time, each worker on a server of its own (support/test.ts points its pages
// there), a spec's tests in order.
export default defineConfig({
  testDir: 'specs',
  outputDir: artifactPath('results'),
  // CI runs the journeys beside the unit and API layer, where a cold screen's scripts and answers can
  // take a few seconds: the limits catch a page that never comes, not a slow one.
  timeout: 240_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: E2E_WORKERS,
  reporter: [['list'], ['html', { outputFolder: artifactPath('report'), open: 'never' }]],
  use: {
    // The journeys take their own named screenshots to look at (support/snap.ts); Playwright's own at
    // each test's end is kept for a failure.
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        ...HEADLESS_SWITCHES,
        '--disable-gpu',
        // Without the omnibox popup Chromium 156 opens for every new window (each test's context).
        ...featureSwitches(),
      ],
    },
  },
  webServer: Array.from({ length: E2E_WORKERS }, (_, server) => ({
    command: `node support/serve.mjs`,
    env: {
      E2E_PORT: String(E2E_PORT + server),
      E2E_SETUP_LINK_FILE: setupLinkFile(server),
      E2E_DATA_DIR_FILE: dataDirFile(server),
    },
    url: `${serverOrigin(server)}/api/ping`,
    // Several servers start side by side.
    timeout: 120_000,
    reuseExistingServer: false,
  })),
});
