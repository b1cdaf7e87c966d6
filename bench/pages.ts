import { startAtelier } from './lib/atelier-app';
import {
  coldLoad,
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
// manager (a folder with files, signed in) <= 250 KB, and the folder's file list visible within 1 s.
// Needs `npm run build` first (WEB_DIST_DIR names another build to measure); CHROMIUM_PATH names the
// browser (default /usr/bin/chromium).

const SIGN_IN_SCRIPT_LIMIT = 150 * KB;
const FILE_MANAGER_SCRIPT_LIMIT = 250 * KB;
const FILE_LIST_VISIBLE_LIMIT_MS = 1000;
const FOLDER_FILES = 60;
const COLD_LOADS = Number(process.env.PAGES_COLD_LOADS ?? 5);

function report(name: string, loads: Load[], scriptLimit: number, visibleLimitMs?: number) {
  reportScripts(name, loads[loads.length - 1]!, scriptLimit);
  const visible = median(loads.map((load) => load.visibleMs));
  const mainThread =
    loads[0]?.mainThreadMs === undefined ? null : median(loads.map((load) => load.mainThreadMs!));
  console.log(
    `${name}: first content visible after ${visible.toFixed(0)} ms (median of ${loads.length} cold loads)` +
      (visibleLimitMs ? `, ${(visible / visibleLimitMs).toFixed(2)} of the ${visibleLimitMs} ms limit` : '') +
      (mainThread === null
        ? ''
        : `; the page's main thread used ${mainThread.toFixed(0)} ms of CPU until then`),
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
    for (let n = 0; n < COLD_LOADS; n++) {
      signIn.push(
        await coldLoad(browser, `${atelier.url}/sign-in`, {
          visible: (page) => page.locator('input[type=password]').waitFor(),
        }),
      );
      fileManager.push(
        await coldLoad(browser, `${atelier.url}/platform/files/${target}`, {
          cookies,
          visible: (page) =>
            page
              .getByText(/^file-\d+\.jpg$/)
              .first()
              .waitFor(),
          traced: true,
        }),
      );
    }
    report('sign-in page', signIn, SIGN_IN_SCRIPT_LIMIT);
    report('file manager', fileManager, FILE_MANAGER_SCRIPT_LIMIT, FILE_LIST_VISIBLE_LIMIT_MS);
  } finally {
    await browser.close();
    await atelier.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
