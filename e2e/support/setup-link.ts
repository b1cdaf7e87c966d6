import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { serverFile } from './artifacts';

/** Where serve.mjs keeps the setup link a server printed at start (the config hands it this path). */
export const setupLinkFile = (server: number): string => serverFile(server, 'setup-link.txt');

/** The `…/install?token=…` link the running test's server printed; it may still be printing it when the specs start. */
export async function printedSetupLink(): Promise<URL> {
  const file = setupLinkFile(test.info().parallelIndex);
  await expect.poll(() => existsSync(file), { message: 'the server printed no setup link' }).toBe(true);
  return new URL(readFileSync(file, 'utf8').trim());
}
