import type { Page } from 'playwright-core';
import { startAtelier } from './lib/atelier-app';
import {
  coldLoad,
  elementPainted,
  KB,
  launchChromium,
  median,
  reportScripts,
  requireBuilt,
  WEB_DIST,
  type Load,
} from './lib/cold-load';
import { folder, seed } from './lib/items';

// Pages: what opening the built web app costs a browser on a cold load (an empty cache), read from
// Chromium's network events. Goals: the sign-in page <= 150 KB of compressed JavaScript, the file
// manager (a folder with files, signed in) <= 250 KB, and the folder's file list visible within 1 s:
// its first file name painted, by the time the page itself reports (Element Timing, from the
// navigation). Playwright's own sight of it is printed beside: it polls the page over the DevTools
// protocol, which on a busy machine answers 150-450 ms after the paint. The paint times come from
// loads without a trace; the main thread's CPU time from as many loads traced apart (tracing costs
// the browser about 50 ms a load here).
// Needs `npm run build` first (WEB_DIST_DIR names another build to measure); CHROMIUM_PATH names the
// browser (default /usr/bin/chromium).

const SIGN_IN_SCRIPT_LIMIT = 150 * KB;
const FILE_MANAGER_SCRIPT_LIMIT = 250 * KB;
const FILE_LIST_VISIBLE_LIMIT_MS = 1000;
const FOLDER_FILES = 60;
const COLD_LOADS = Number(process.env.PAGES_COLD_LOADS ?? 5);

/**
 * When the page painted its first file name, in ms from the navigation, as the browser itself reports
 * it: the names carry `elementtiming="file-name"` (apps/web/src/features/files/item-list.tsx).
 */
async function fileNamePainted(page: Page): Promise<number> {
  const painted = await elementPainted(page, 'file-name', 10_000);
  // A build without the attribute (before issue 23's) reports none: say so rather than wait.
  if (painted === null) throw new Error('no Element Timing entry "file-name": a build without it?');
  return painted;
}

/** The page's first contentful paint, in ms from the navigation: a frame drawn before the list shows earlier. */
function firstContentfulPaint(page: Page): Promise<number | null> {
  return page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
}

function report(
  name: string,
  loads: Load[],
  scriptLimit: number,
  painted?: number[],
  contentful: number[] = [],
  tracedLoads: Load[] = [],
) {
  reportScripts(name, loads[loads.length - 1]!, scriptLimit);
  const visible = median(loads.map((load) => load.visibleMs));
  // A trace now and then lacks the navigation's start (NaN): the median is of the loads that have it.
  const traced = tracedLoads
    .map((load) => load.mainThreadMs)
    .filter((ms) => ms !== undefined && !Number.isNaN(ms));
  const mainThread = traced.length === 0 ? null : median(traced as number[]);
  const paint = painted && median(painted);
  console.log(
    (paint
      ? `${name}: first file name painted after ${paint.toFixed(0)} ms by the page's own timing, ` +
        `${(paint / FILE_LIST_VISIBLE_LIMIT_MS).toFixed(2)} of the ${FILE_LIST_VISIBLE_LIMIT_MS} ms limit; seen by Playwright`
      : `${name}: first content visible`) +
      ` after ${visible.toFixed(0)} ms (median of ${loads.length} cold loads)` +
      (mainThread === null
        ? ''
        : `; the page's main thread used ${mainThread.toFixed(0)} ms of CPU until then` +
          ` (${traced.length} traced loads)`) +
      (contentful.length > 0 ? `; first contentful paint after ${median(contentful).toFixed(0)} ms` : ''),
  );
}

export async function run(): Promise<void> {
  requireBuilt('index.html');
  const atelier = await startAtelier({}, { WEB_DIST_DIR: WEB_DIST });
  const browser = await launchChromium();
  try {
    const target = await folder(atelier, 'Opened');
    await seed(atelier, target, 'file', FOLDER_FILES, 1);
    const cookies = atelier.headers
      .cookie!.split('; ')
      .map((pair) => pair.split('='))
      .map(([name, value]) => ({ name: name!, value: value! }));

    const signIn: Load[] = [];
    const fileManager: Load[] = [];
    const fileManagerTraced: Load[] = [];
    const painted: number[] = [];
    const contentful: number[] = [];
    for (let n = 0; n < COLD_LOADS; n++) {
      signIn.push(
        await coldLoad(browser, `${atelier.url}/sign-in`, {
          visible: (page) => page.locator('input[type=password]').waitFor(),
        }),
      );
      const listShown = (page: Page) =>
        page
          .getByText(/^file-\d+\.jpg$/)
          .first()
          .waitFor();
      fileManager.push(
        await coldLoad(browser, `${atelier.url}/platform/files/${target}`, {
          cookies,
          visible: async (page) => {
            await listShown(page);
            painted.push(await fileNamePainted(page));
            const fcp = await firstContentfulPaint(page);
            if (fcp !== null) contentful.push(fcp);
          },
        }),
      );
      fileManagerTraced.push(
        await coldLoad(browser, `${atelier.url}/platform/files/${target}`, {
          cookies,
          visible: listShown,
          traced: true,
        }),
      );
    }
    report('sign-in page', signIn, SIGN_IN_SCRIPT_LIMIT);
    report('file manager', fileManager, FILE_MANAGER_SCRIPT_LIMIT, painted, contentful, fileManagerTraced);
  } finally {
    await browser.close();
    await atelier.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
