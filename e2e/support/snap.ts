import type { Page, TestInfo } from '@playwright/test';

/** A full-page screenshot kept with the test's artifacts, to be looked at after the run. */
export async function snap(page: Page, info: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: info.outputPath(`${name}.png`), fullPage: true });
}
