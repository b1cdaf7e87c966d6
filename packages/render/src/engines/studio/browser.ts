import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { RenderError } from '../../types';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * Headless flags: the project's baseline plus what WebGL 2 needs without a GPU. ANGLE on
 * SwiftShader (Vulkan on the CPU) is the only software path Chromium still offers, and it must be
 * opted into explicitly since Chromium 137.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
  // Render loops run while the page is "hidden"; never let Chromium throttle them.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

interface ChromiumCandidate {
  source: string;
  path: () => Promise<string | undefined>;
}

/** An optional package, loaded by a computed name so bundlers and type checks never require it. */
async function importOptional(name: string): Promise<unknown> {
  try {
    return await import(/* @vite-ignore */ name);
  } catch {
    return undefined;
  }
}

// The order the issue asks for: CHROMIUM_PATH, Debian's Chromium, Playwright's own, @sparticuz/chromium.
const CANDIDATES: ChromiumCandidate[] = [
  { source: 'CHROMIUM_PATH', path: async () => process.env.CHROMIUM_PATH || undefined },
  { source: DEBIAN_CHROMIUM, path: async () => (existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined) },
  {
    source: "Playwright's Chromium",
    path: async () => {
      const path = chromium.executablePath();
      return path && existsSync(path) ? path : undefined;
    },
  },
  {
    source: '@sparticuz/chromium',
    path: async () => {
      const mod = (await importOptional('@sparticuz/chromium')) as
        { default?: { executablePath(): Promise<string> } } | undefined;
      return mod?.default ? await mod.default.executablePath() : undefined;
    },
  },
];

/** The first Chromium found, in the order above. */
export async function findChromium(): Promise<{ path: string; source: string }> {
  for (const candidate of CANDIDATES) {
    const path = await candidate.path().catch(() => undefined);
    if (path) return { path, source: candidate.source };
  }
  throw new RenderError(
    'engine_unavailable',
    'no Chromium found for the studio engine: set CHROMIUM_PATH, install Debian chromium, or run `npx playwright install chromium`',
  );
}

let launching: Promise<Browser> | undefined;

/**
 * The one browser of this process, launched on first use and shared by every job (a launch costs
 * seconds; a page costs milliseconds). A crashed or closed browser is relaunched on the next call.
 */
export function sharedBrowser(): Promise<Browser> {
  if (!launching) {
    const attempt = launchBrowser();
    launching = attempt;
    attempt.then(
      (browser) =>
        browser.on('disconnected', () => {
          if (launching === attempt) launching = undefined;
        }),
      () => {
        if (launching === attempt) launching = undefined;
      },
    );
  }
  return launching;
}

async function launchBrowser(): Promise<Browser> {
  const { path, source } = await findChromium();
  try {
    return await chromium.launch({
      executablePath: path,
      args: CHROMIUM_FLAGS,
      headless: true,
      timeout: 60_000,
    });
  } catch (error) {
    throw new RenderError(
      'engine_unavailable',
      `could not start Chromium from ${source} (${path}): ${(error as Error).message}`,
    );
  }
}

/** Closes the shared browser if one is running; the next job launches a fresh one. */
export async function closeSharedBrowser(): Promise<void> {
  const current = launching;
  launching = undefined;
  if (!current) return;
  const browser = await current.catch(() => undefined);
  await browser?.close().catch(() => undefined);
}

/** Whether a browser is running now (for tests that check reuse). */
export function isBrowserRunning(): boolean {
  return launching !== undefined;
}
