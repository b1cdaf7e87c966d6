import { readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HEADLESS_SWITCHES, featureSwitches } from '../src/chromium-switches';
import { CHROMIUM_FLAGS, findChromium } from '../src/engines/studio/browser';

/** The command line of the process started with `marker` among its arguments. */
function commandLineWith(marker: string): string[] {
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (args.includes(marker)) return args;
    } catch {
      // It ended while we read it.
    }
  }
  throw new Error(`no process runs with ${marker}`);
}

/** The features each `--{kind}-features` switch names, in the command line's order. */
const featureLists = (args: string[], kind: 'enable' | 'disable') =>
  args
    .filter((arg) => arg.startsWith(`--${kind}-features=`))
    .map((arg) => arg.slice(`--${kind}-features=`.length).split(','));

describe('Chromium feature switches', () => {
  // Chromium keeps only the last --disable-features and --enable-features: ours must carry every
  // feature Playwright's own switches name, or a Playwright upgrade turns its list back on unseen.
  it.each([
    ['the studio (SwiftShader)', CHROMIUM_FLAGS],
    ['a launch that enables features', featureSwitches(['VulkanFromANGLE'])],
  ])("keeps Playwright's features in the last switch of %s", async (_name, flags) => {
    const marker = `--atelier-switch-check=${randomUUID()}`;
    const browser = await chromium.launch({
      executablePath: (await findChromium()).path,
      args: [...flags, marker],
    });
    try {
      const args = commandLineWith(marker);
      for (const kind of ['disable', 'enable'] as const) {
        const lists = featureLists(args, kind);
        const last = new Set(lists.at(-1));
        for (const feature of lists.flat()) expect(last, `${kind}: ${feature}`).toContain(feature);
      }
      expect(featureLists(args, 'disable').at(-1)).toContain('WebUIOmniboxPopup');
    } finally {
      await browser.close();
    }
  });

  it('opens a new context without the omnibox popup pages', async () => {
    const browser = await chromium.launch({
      executablePath: (await findChromium()).path,
      args: [...HEADLESS_SWITCHES, '--disable-gpu', ...featureSwitches()],
    });
    try {
      const context = await browser.newContext();
      await context.newPage();
      const cdp = await browser.newBrowserCDPSession();
      const { targetInfos } = await cdp.send('Target.getTargets');
      expect(targetInfos.map((target) => target.url).filter((url) => url.includes('omnibox'))).toEqual([]);
      expect(targetInfos.filter((target) => target.type === 'page')).toHaveLength(1);
    } finally {
      await browser.close();
    }
  });
});
