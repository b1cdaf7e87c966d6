import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { HEADLESS_SWITCHES, featureSwitches } from '../../packages/render/src/chromium-switches';

// Cold loads of the built web app in Chromium, measured from its network events: what a page's
// visitor downloads, and when the page shows its first content. CHROMIUM_PATH names the browser
// (default /usr/bin/chromium); WEB_DIST_DIR another build to measure than apps/web/dist.

export const WEB_DIST =
  process.env.WEB_DIST_DIR ?? fileURLToPath(new URL('../../apps/web/dist', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const KB = 1024;
/** PAGES_ALL_SCRIPTS=1 lists every script a page loaded instead of its five largest. */
const LISTED_SCRIPTS = process.env.PAGES_ALL_SCRIPTS ? Infinity : 5;

/** Fails unless the build to measure has the page `file` (index.html, product.html). */
export function requireBuilt(file: string): void {
  if (!existsSync(join(WEB_DIST, file)))
    throw new Error(`the web app is not built (no ${file} in ${WEB_DIST}): run \`npm run build\``);
}

/** What Chromium's network emulation takes: bytes per second and milliseconds of round trip. */
export interface NetworkConditions {
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
}

/**
 * DevTools' "Fast 4G" preset (Fast4GConditions in front_end/core/sdk/NetworkManager.ts of
 * ChromeDevTools/devtools-frontend): 9 Mbit/s down and 1.5 Mbit/s up, each times 0.9, and a 60 ms
 * round trip times 2.75 — 1,012,500 B/s, 168,750 B/s and 165 ms.
 */
export const FAST_4G: NetworkConditions = {
  latency: 60 * 2.75,
  downloadThroughput: ((9 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((1.5 * 1000 * 1000) / 8) * 0.9,
};

export interface Load {
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

export interface ColdLoadOptions {
  cookies?: { name: string; value: string }[];
  /**
   * Resolves once the page's first content is visible; with the time it was, from the navigation,
   * when the page knows it better (a performance mark) than the clock here.
   */
  visible: (page: Page) => Promise<number | void>;
  /** Records a trace for the page's main-thread CPU time. */
  traced?: boolean;
  /** Chromium's network emulation (`Network.emulateNetworkConditions`), e.g. FAST_4G. */
  network?: NetworkConditions;
}

/** CPU time (ms) of every Chromium process on the machine, or null where /proc cannot tell. */
function chromiumCpuMs(): number | null {
  let ms = 0;
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]!.includes('chrom')) continue;
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ms += (Number(fields[11]) + Number(fields[12])) * 10;
      } catch {
        // The process ended while we read it.
      }
    }
  } catch {
    return null;
  }
  return ms;
}

const SETTLE_STEP_MS = 100;
const SETTLE_MAX_MS = 5000;

/**
 * Waits until a new window's own start-up is over (its renderer, and in a Chromium that ignores the
 * flag below, the omnibox popup's two `chrome://omnibox-popup.top-chrome` WebUI pages: about 1.5
 * CPU-s on both cores for a second here), which a visitor's long-open window has paid before they
 * type an address. Done when Chromium used under a quarter of a core for one step (or after 5 s on a
 * machine too busy to tell); without /proc, a fixed 2 s.
 */
async function windowSettled(): Promise<void> {
  let before = chromiumCpuMs();
  if (before === null) return sleep(2000);
  for (let waited = 0; waited < SETTLE_MAX_MS; waited += SETTLE_STEP_MS) {
    await sleep(SETTLE_STEP_MS);
    const now = chromiumCpuMs() ?? 0;
    if (now - before < SETTLE_STEP_MS / 4) return;
    before = now;
  }
}

/**
 * One cold load of `url` in a fresh browser context (empty cache and storage), counting Chromium's
 * encoded bytes per response. The navigation starts once the new window has settled.
 */
export async function coldLoad(
  browser: Browser,
  url: string,
  { cookies = [], visible, traced = false, network }: ColdLoadOptions,
): Promise<Load> {
  const context = await browser.newContext();
  await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: new URL(url).origin })));
  const page = await context.newPage();
  await windowSettled();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  if (network) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...network });
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
  const seen = await visible(page);
  load.visibleMs = seen ?? performance.now() - started;
  if (traced) load.mainThreadMs = mainThreadCpuMs(await browser.stopTracing(), new URL(url).origin);
  // What the page fetches after its first content (lazy chunks, the realtime client) counts too.
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await context.close();
  load.largest = load.largest.sort((a, b) => b.bytes - a.bytes).slice(0, LISTED_SCRIPTS);
  return load;
}

/** A page's scripts: their compressed bytes against a limit, all bytes on the wire, the largest ones. */
export function reportScripts(name: string, load: Load, limit: number): void {
  console.log(
    `${name}: JavaScript ${kb(load.scriptBytes)} compressed (${[...load.encodings].join(', ')}) in ` +
      `${load.scripts} files, ${(load.scriptBytes / limit).toFixed(2)} of the ${kb(limit)} limit; ` +
      `${kb(load.totalBytes)} transferred in all`,
  );
  console.log(
    `${name}: ${LISTED_SCRIPTS === Infinity ? 'scripts' : 'largest scripts'} ${load.largest.map((s) => `${s.name} ${kb(s.bytes)}`).join(', ')}`,
  );
}

/** An element's paint as the browser reports it (Element Timing), which TypeScript's DOM types lack. */
interface ElementTiming extends PerformanceEntry {
  identifier: string;
  renderTime: number;
}

/**
 * When the page first painted an element named `elementtiming="{identifier}"`, in ms from the
 * navigation, as the browser itself reports it; null if it reported none within `waitMs`.
 */
export function elementPainted(page: Page, identifier: string, waitMs: number): Promise<number | null> {
  return page.evaluate(
    ({ identifier, waitMs }) =>
      new Promise<number | null>((resolve) => {
        setTimeout(() => resolve(null), waitMs);
        new PerformanceObserver((list, observer) => {
          const times = (list.getEntries() as ElementTiming[])
            .filter((entry) => entry.identifier === identifier)
            .map((entry) => entry.renderTime);
          if (times.length === 0) return;
          observer.disconnect();
          resolve(Math.min(...times));
        }).observe({ type: 'element', buffered: true });
      }),
    { identifier, waitMs },
  );
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/** Chromium as every page benchmark runs it: headless, without its background traffic. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      ...HEADLESS_SWITCHES,
      '--disable-gpu',
      // Without the omnibox popup Chromium 156 opens for every new window, which a cold load would
      // share the cores with.
      ...featureSwitches(),
    ],
  });
}
