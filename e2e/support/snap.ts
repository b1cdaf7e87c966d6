import type { Page, TestInfo } from '@playwright/test';

/**
 * Whether the journeys take their named screenshots: E2E_SCREENSHOTS=off leaves them out, for a run
 * nobody looks at (CI): about 490 full-page captures, none of them asserted. What they show at a
 * phone's width is asserted on its own (22-phone-width.spec.ts).
 */
const TAKEN = process.env.E2E_SCREENSHOTS !== 'off';

/** A full-page screenshot kept with the test's artifacts, to be looked at after the run. */
export async function snap(page: Page, info: TestInfo, name: string): Promise<void> {
  if (!TAKEN) return;
  await page.screenshot({ path: info.outputPath(`${name}.png`), fullPage: true });
}

/** The page as it is now, on a desktop and on a 390 px phone, light and dark; back to light desktop. */
export async function snapEverywhere(page: Page, info: TestInfo, name: string): Promise<void> {
  if (!TAKEN) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of [
      ['desktop', { width: 1440, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(viewport);
      // A full-page capture of a scrolled page repeats the sticky header mid-way.
      await page.evaluate(() => window.scrollTo(0, 0));
      await snap(page, info, `${name}-${size}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 900 });
}
