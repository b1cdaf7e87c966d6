import { existsSync, readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { artifactPath } from './artifacts';

/** Where serve.mjs keeps the setup link the server printed at start (the config hands it this path). */
export const SETUP_LINK_FILE = artifactPath('setup-link.txt');

/** The printed `…/install?token=…` link; the server may still be printing it when the specs start. */
export async function printedSetupLink(): Promise<URL> {
  await expect
    .poll(() => existsSync(SETUP_LINK_FILE), { message: 'the server printed no setup link' })
    .toBe(true);
  return new URL(readFileSync(SETUP_LINK_FILE, 'utf8').trim());
}
