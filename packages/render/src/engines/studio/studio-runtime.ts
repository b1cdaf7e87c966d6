import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { withTimeout } from '../../abort';
import { RenderError } from '../../types';
import { closeSharedBrowser, sharedBrowser } from './browser';
import { startPageServer, type FrameChannel, type PageServer } from './page-server';

/** One studio tab: the studio page installed (a three.js WebGL renderer), and its frame channel. */
export interface StudioSession {
  page: Page;
  channel: FrameChannel;
  server: PageServer;
}

const SETUP_TIMEOUT_MS = 60_000;

let serverStarting: Promise<PageServer> | undefined;
// Warm tabs kept between jobs: opening one costs a WebGL context, shader compiles and a three.js load.
const idle: Array<StudioSession & { context: BrowserContext }> = [];
const MAX_IDLE = 1;

function pageServer(): Promise<PageServer> {
  if (!serverStarting) {
    serverStarting = startPageServer();
    serverStarting.catch(() => (serverStarting = undefined));
  }
  return serverStarting;
}

async function openSession(): Promise<StudioSession & { context: BrowserContext }> {
  const [browser, server] = await Promise.all([sharedBrowser(), pageServer()]);
  const context = await browser.newContext({ viewport: { width: 64, height: 64 }, deviceScaleFactor: 1 });
  try {
    // The page may reach nothing but our loopback server.
    await context.route('**/*', (route) =>
      route.request().url().startsWith(`${server.origin}/`)
        ? route.continue()
        : route.abort('blockedbyclient'),
    );
    const page = await context.newPage();
    page.setDefaultTimeout(SETUP_TIMEOUT_MS);
    const id = randomUUID();
    const channel = server.channel(id);
    await page.goto(server.pageUrl(id));
    // A string, so the test runner's transform of dynamic imports never reaches the page.
    const options = JSON.stringify({ relay: server.relayUrl });
    await page.evaluate(
      `import(${JSON.stringify(server.scriptUrl)}).then((m) => m.installStudioPage(${options}))`,
    );
    await withTimeout(channel.connected, SETUP_TIMEOUT_MS, 'connecting the frame channel');
    return { page, channel, server, context };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw new RenderError('engine_unavailable', `could not open a studio page: ${(error as Error).message}`);
  }
}

/** A ready studio tab, reusing a warm one when there is one. */
export async function acquireSession(): Promise<StudioSession & { context: BrowserContext }> {
  while (idle.length > 0) {
    const session = idle.pop()!;
    if (!session.page.isClosed()) return session;
  }
  return openSession();
}

/** Returns a tab after a job; a broken one (or one past the warm pool) is closed instead. */
export async function releaseSession(
  session: StudioSession & { context: BrowserContext },
  healthy: boolean,
): Promise<void> {
  session.channel.drain();
  if (healthy && !session.page.isClosed() && idle.length < MAX_IDLE) {
    idle.push(session);
    return;
  }
  session.channel.close();
  await session.context.close().catch(() => undefined);
}

/** Closes every tab, the loopback server and the shared browser. The next job starts them again. */
export async function closeStudio(): Promise<void> {
  const sessions = idle.splice(0);
  await Promise.all(sessions.map((s) => s.context.close().catch(() => undefined)));
  const server = serverStarting;
  serverStarting = undefined;
  await (await server?.catch(() => undefined))?.close();
  await closeSharedBrowser();
}
