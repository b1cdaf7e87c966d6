import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startAtelier } from './lib/atelier-app';
import { folder, seed } from './lib/items';

// Pages: what opening the built web app costs a browser on a cold load (an empty cache), read from
// Chromium's network events. Goals: the sign-in page <= 150 KB of compressed JavaScript, the file
// manager (a folder with files, signed in) <= 250 KB, and the folder's file list visible within 1 s:
// its first file name painted, by the time the page itself reports (Element Timing, from the
// navigation). Playwright's own sight of it is printed beside: it polls the page over the DevTools
// protocol, which on a busy machine answers 150-450 ms after the paint.
// Needs `npm run build` first (WEB_DIST_DIR names another build to measure); CHROMIUM_PATH names the
// browser (default /usr/bin/chromium).

const WEB_DIST = process.env.WEB_DIST_DIR ?? fileURLToPath(new URL('../apps/web/dist', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const KB = 1024;
const SIGN_IN_SCRIPT_LIMIT = 150 * KB;
const FILE_MANAGER_SCRIPT_LIMIT = 250 * KB;
const FILE_LIST_VISIBLE_LIMIT_MS = 1000;
const FOLDER_FILES = 60;
const COLD_LOADS = Number(process.env.PAGES_COLD_LOADS ?? 5);
/** PAGES_ALL_SCRIPTS=1 lists every script a page loaded instead of its five largest. */
const LISTED_SCRIPTS = process.env.PAGES_ALL_SCRIPTS ? Infinity : 5;

interface Load {
  /** Compressed bytes of the JavaScript bodies the page loaded until the network was idle. */
  scriptBytes: number;
  scripts: number;
  /** The largest scripts, for finding what to split next. */
  largest: { name: string; bytes: number }[];
  /** Content-Encoding of each script: what the browser asked for and the server sent. */
  encodings: Set<string>;
  /** Every response's bytes on the wire, headers included. */
  totalBytes: number;
  /** From the navigation to the page's first content being visible. */
  visibleMs: number;
  /**
   * The page's main-thread CPU time over the same span (the trace's tasks, by thread time): what the
   * page's scripts, style, layout and paint cost, which other work on the machine does not stretch as
   * it stretches the wall time.
   */
  mainThreadMs?: number;
}

/** Sums the thread time of the page's main-thread tasks from its navigation on. */
function mainThreadCpuMs(trace: Buffer, origin: string): number {
  type TraceEvent = {
    name: string;
    ph: string;
    pid: number;
    tid: number;
    ts: number;
    tdur?: number;
    args?: { data?: { documentLoaderURL?: string } };
  };
  const { traceEvents } = JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] };
  const navigation = traceEvents.find(
    (event) =>
      event.name === 'navigationStart' && (event.args?.data?.documentLoaderURL ?? '').startsWith(origin),
  );
  if (!navigation) return NaN;
  let micros = 0;
  for (const event of traceEvents)
    if (
      event.name === 'ThreadControllerImpl::RunTask' &&
      event.ph === 'X' &&
      event.pid === navigation.pid &&
      event.tid === navigation.tid &&
      event.ts >= navigation.ts
    )
      micros += event.tdur ?? 0;
  return micros / 1000;
}

/** One cold load of `url` in a fresh browser context, counting Chromium's encoded bytes per response. */
async function coldLoad(
  browser: Browser,
  url: string,
  cookies: { name: string; value: string }[],
  visible: (page: Page) => Promise<void>,
  traced = false,
): Promise<Load> {
  const context = await browser.newContext();
  await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: new URL(url).origin })));
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const scripts = new Map<string, { name: string; headerBytes: number }>();
  const load: Load = {
    scriptBytes: 0,
    scripts: 0,
    largest: [],
    encodings: new Set(),
    totalBytes: 0,
    visibleMs: 0,
  };
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    if (type !== 'Script') return;
    // At this point the bytes received are the status line and headers.
    scripts.set(requestId, { name: new URL(response.url).pathname, headerBytes: response.encodedDataLength });
    load.encodings.add(
      response.headers['content-encoding'] ?? response.headers['Content-Encoding'] ?? 'none',
    );
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    load.totalBytes += encodedDataLength;
    const script = scripts.get(requestId);
    if (!script) return;
    const bytes = encodedDataLength - script.headerBytes;
    load.scriptBytes += bytes;
    load.scripts += 1;
    load.largest.push({ name: script.name, bytes });
  });
  if (traced) await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing', 'loading'] });
  const started = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await visible(page);
  load.visibleMs = performance.now() - started;
  if (traced) load.mainThreadMs = mainThreadCpuMs(await browser.stopTracing(), new URL(url).origin);
  // What the page fetches after its first content (lazy chunks, the realtime client) counts too.
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await context.close();
  load.largest = load.largest.sort((a, b) => b.bytes - a.bytes).slice(0, LISTED_SCRIPTS);
  return load;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/** An element's paint as the browser reports it (Element Timing), which TypeScript's DOM types lack. */
interface ElementTiming extends PerformanceEntry {
  identifier: string;
  renderTime: number;
}

/**
 * When the page painted its first file name, in ms from the navigation, as the browser itself reports
 * it: the names carry `elementtiming="file-name"` (apps/web/src/features/files/item-list.tsx).
 */
function fileNamePainted(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        // A build without the attribute (before issue 23's) reports none: say so rather than wait.
        setTimeout(
          () => reject(new Error('no Element Timing entry "file-name": a build without it?')),
          10_000,
        );
        new PerformanceObserver((list, observer) => {
          const times = (list.getEntries() as ElementTiming[])
            .filter((entry) => entry.identifier === 'file-name')
            .map((entry) => entry.renderTime);
          if (times.length === 0) return;
          observer.disconnect();
          resolve(Math.min(...times));
        }).observe({ type: 'element', buffered: true });
      }),
  );
}

function report(name: string, loads: Load[], scriptLimit: number, painted?: number[]) {
  const last = loads[loads.length - 1]!;
  console.log(
    `${name}: JavaScript ${kb(last.scriptBytes)} compressed (${[...last.encodings].join(', ')}) in ` +
      `${last.scripts} files, ${(last.scriptBytes / scriptLimit).toFixed(2)} of the ${kb(scriptLimit)} limit; ` +
      `${kb(last.totalBytes)} transferred in all`,
  );
  console.log(
    `${name}: ${LISTED_SCRIPTS === Infinity ? 'scripts' : 'largest scripts'} ${last.largest.map((s) => `${s.name} ${kb(s.bytes)}`).join(', ')}`,
  );
  const visible = median(loads.map((load) => load.visibleMs));
  const mainThread =
    loads[0]?.mainThreadMs === undefined ? null : median(loads.map((load) => load.mainThreadMs!));
  const paint = painted && median(painted);
  console.log(
    (paint
      ? `${name}: first file name painted after ${paint.toFixed(0)} ms by the page's own timing, ` +
        `${(paint / FILE_LIST_VISIBLE_LIMIT_MS).toFixed(2)} of the ${FILE_LIST_VISIBLE_LIMIT_MS} ms limit; seen by Playwright`
      : `${name}: first content visible`) +
      ` after ${visible.toFixed(0)} ms (median of ${loads.length} cold loads)` +
      (mainThread === null
        ? ''
        : `; the page's main thread used ${mainThread.toFixed(0)} ms of CPU until then`),
  );
}

export async function run(): Promise<void> {
  if (!existsSync(`${WEB_DIST}/index.html`)) throw new Error('the web app is not built: run `npm run build`');
  const atelier = await startAtelier({}, { WEB_DIST_DIR: WEB_DIST });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const target = await folder(atelier, 'Opened');
    await seed(atelier, target, 'file', FOLDER_FILES, 1);
    const cookies = atelier.headers
      .cookie!.split('; ')
      .map((pair) => pair.split('='))
      .map(([name, value]) => ({ name: name!, value: value! }));

    const signIn: Load[] = [];
    const fileManager: Load[] = [];
    const painted: number[] = [];
    for (let n = 0; n < COLD_LOADS; n++) {
      signIn.push(
        await coldLoad(browser, `${atelier.url}/sign-in`, [], (page) =>
          page.locator('input[type=password]').waitFor(),
        ),
      );
      fileManager.push(
        await coldLoad(
          browser,
          `${atelier.url}/platform/files/${target}`,
          cookies,
          async (page) => {
            await page
              .getByText(/^file-\d+\.jpg$/)
              .first()
              .waitFor();
            painted.push(await fileNamePainted(page));
          },
          true,
        ),
      );
    }
    report('sign-in page', signIn, SIGN_IN_SCRIPT_LIMIT);
    report('file manager', fileManager, FILE_MANAGER_SCRIPT_LIMIT, painted);
  } finally {
    await browser.close();
    await atelier.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
