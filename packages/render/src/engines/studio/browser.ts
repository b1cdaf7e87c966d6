import { existsSync, readdirSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { HEADLESS_SWITCHES, featureSwitches } from '../../chromium-switches';
import { RenderError } from '../../types';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** Headless flags every launch takes, whichever way WebGL is drawn. */
const BASE_FLAGS = [
  ...HEADLESS_SWITCHES,
  '--ignore-gpu-blocklist',
  // Render loops run while the page is "hidden"; never let Chromium throttle them.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

/**
 * WebGL 2 without a GPU: ANGLE on SwiftShader (Vulkan on the CPU) is the only software path
 * Chromium still offers, and it must be opted into explicitly since Chromium 137.
 */
export const CHROMIUM_FLAGS = [
  ...BASE_FLAGS,
  ...featureSwitches(),
  '--disable-gpu',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

/** WebGL 2 on the machine's GPU: ANGLE over Vulkan where the GPU has a Vulkan driver, else over EGL. */
const GPU_FLAGS: Record<'vulkan' | 'egl', string[]> = {
  vulkan: [
    ...BASE_FLAGS,
    ...featureSwitches(['Vulkan', 'VulkanFromANGLE']),
    '--enable-gpu',
    '--use-angle=vulkan',
  ],
  egl: [...BASE_FLAGS, ...featureSwitches(), '--enable-gpu', '--use-gl=angle', '--use-angle=gl-egl'],
};

/** How the studio's Chromium draws: on a GPU through ANGLE (Vulkan or EGL), or on the CPU (SwiftShader). */
export type GraphicsBackend = 'vulkan' | 'egl' | 'swiftshader';

export interface GraphicsChoice {
  backend: GraphicsBackend;
  /** Why, in words, for logs and the docs' "how it is chosen". */
  reason: string;
}

/** What the choice looks at: the environment and whether a path exists (injected, so tests need no GPU). */
export interface GraphicsProbe {
  env: NodeJS.ProcessEnv;
  exists: (path: string) => boolean;
  list: (dir: string) => string[];
}

const HOST_PROBE: GraphicsProbe = {
  env: process.env,
  exists: existsSync,
  list: (dir) => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  },
};

/** A software rasteriser's WebGL renderer string (what a GPU launch that found no GPU reports). */
export const isSoftwareRenderer = (renderer: string): boolean =>
  /swiftshader|llvmpipe|lavapipe|softpipe|software/i.test(renderer);

/**
 * The backend to try first. ATELIER_STUDIO_GPU=off always draws on the CPU; =vulkan or =egl forces
 * that GPU path; unset (or auto) uses the GPU when the machine shows one — an NVIDIA device node, or
 * a DRM render node (/dev/dri/renderD*, AMD and Intel) — over Vulkan where a Vulkan driver for it
 * is installed, else over EGL. A GPU launch whose WebGL still reports a software renderer falls back
 * to SwiftShader (see sharedBrowser).
 */
export function chooseGraphics(probe: GraphicsProbe = HOST_PROBE): GraphicsChoice {
  const asked = (probe.env.ATELIER_STUDIO_GPU ?? 'auto').trim().toLowerCase();
  if (asked === 'off' || asked === 'swiftshader')
    return { backend: 'swiftshader', reason: 'ATELIER_STUDIO_GPU=off' };
  if (asked === 'vulkan' || asked === 'egl') return { backend: asked, reason: `ATELIER_STUDIO_GPU=${asked}` };
  const nvidia = probe.exists('/dev/nvidia0');
  const renderNode = probe.list('/dev/dri').find((name) => name.startsWith('renderD'));
  if (!nvidia && !renderNode) return { backend: 'swiftshader', reason: 'no GPU device on this machine' };
  const device = nvidia ? '/dev/nvidia0' : `/dev/dri/${renderNode}`;
  // Mesa's lavapipe ICD is software: it does not count as a Vulkan driver for a GPU.
  const icds = ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d'].flatMap((dir) => probe.list(dir));
  const vulkan = icds.some((icd) => (nvidia ? /nvidia/i : /^(?!lvp_)/).test(icd));
  return {
    backend: vulkan ? 'vulkan' : 'egl',
    reason: `GPU device ${device}${vulkan ? ' with a Vulkan driver' : ''}`,
  };
}

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
let graphics: (GraphicsChoice & { renderer: string }) | undefined;

/**
 * The one browser of this process, launched on first use and shared by every job (a launch costs
 * seconds; a page costs milliseconds). A crashed or closed browser is relaunched on the next call.
 */
export function sharedBrowser(): Promise<Browser> {
  if (!launching) {
    const attempt = launchWithGraphics();
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

/** How the running browser draws (after sharedBrowser resolved): the backend, why, and WebGL's renderer string. */
export function studioGraphics(): (GraphicsChoice & { renderer: string }) | undefined {
  return graphics;
}

/** Launches on the chosen backend; a GPU launch that draws in software anyway is replaced by SwiftShader. */
async function launchWithGraphics(): Promise<Browser> {
  const choice = chooseGraphics();
  if (choice.backend !== 'swiftshader') {
    const browser = await launchBrowser(GPU_FLAGS[choice.backend]).catch(() => undefined);
    const renderer = browser ? await webglRenderer(browser) : 'launch failed';
    if (browser && !isSoftwareRenderer(renderer) && renderer !== 'no WebGL 2') {
      graphics = { ...choice, renderer };
      return browser;
    }
    await browser?.close().catch(() => undefined);
    choice.backend = 'swiftshader';
    choice.reason += `, but its WebGL drew with ${renderer}: SwiftShader instead`;
  }
  const browser = await launchBrowser(CHROMIUM_FLAGS);
  graphics = { ...choice, renderer: 'SwiftShader' };
  return browser;
}

/** The WebGL 2 renderer string a blank page of `browser` reports (e.g. "ANGLE (NVIDIA, Vulkan …)"). */
async function webglRenderer(browser: Browser): Promise<string> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      if (!gl) return 'no WebGL 2';
      const info = gl.getExtension('WEBGL_debug_renderer_info');
      return String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    });
  } catch {
    return 'no WebGL 2';
  } finally {
    await page.close().catch(() => undefined);
  }
}

async function launchBrowser(args: string[]): Promise<Browser> {
  const { path, source } = await findChromium();
  try {
    return await chromium.launch({
      executablePath: path,
      args,
      headless: true,
      timeout: 60_000,
      // The server's own shutdown closes the browser (closeStudio): Playwright's handlers would exit
      // the process on SIGINT before the server let its jobs go, and close Chromium under a render on SIGHUP.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
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
