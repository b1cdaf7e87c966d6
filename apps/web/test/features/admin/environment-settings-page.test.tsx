import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  REALTIME_PATH,
  REALTIME_TEST_SEND_DELAY_MS,
  REALTIME_TEST_TIMEOUT_MS,
  type ServerToClientEvents,
} from '@atelier/contracts';
import { act, fireEvent, screen } from '@testing-library/react';
import { Server } from 'socket.io';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { overlayStore } from '../../../src/components/overlays/overlay-store';
import { buildConfig, buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';

declare const jsdom: { reconfigure(options: { url: string }): void };

/**
 * A real Socket.IO peer on a local port (the page's origin), and the API's test call in memory: when
 * `delivers` is on, the call emits the test event to every connected socket as the server would.
 */
let http: HttpServer;
let realtime: Server<Record<string, never>, ServerToClientEvents>;
let delivers = true;
const calls: string[] = [];

beforeAll(async () => {
  http = createServer();
  realtime = new Server(http, { path: REALTIME_PATH });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  jsdom.reconfigure({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/` });
});

afterAll(async () => {
  await realtime.close();
});

async function fetchApi(input: RequestInfo | URL, init?: RequestInit) {
  const url = new URL(String(input), window.location.href);
  calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
  if (url.pathname === '/api/admin/test-websockets' && init?.method === 'POST') {
    if (delivers) realtime.emit('TestWebsocketConnection', { message: 'websocket_test' });
    return new Response(null, { status: 204 });
  }
  return new Response(JSON.stringify({ message: 'Not found', code: 'not_found' }), { status: 404 });
}

/** Opens the page and waits until the tab's realtime socket is connected, before time is taken over. */
async function openPage() {
  const connected = new Promise<void>((resolve) => realtime.once('connection', () => resolve()));
  await renderApp('/admin/settings/environment', {
    config: buildConfig({ broadcasting: { driver: 'socket.io' } }),
    user: buildUser({ role: 'admin' }),
  });
  const button = await screen.findByRole('button', { name: 'Test the connection' });
  await connected;
  return button;
}

describe('admin realtime test', () => {
  beforeEach(() => {
    document.cookie = 'XSRF-TOKEN=test-token';
    calls.length = 0;
    overlayStore.set((state) => ({ ...state, toasts: [] }));
    delivers = true;
    vi.stubGlobal('fetch', fetchApi);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('sends the request only after the delay and shows success when the event arrives', async () => {
    const button = await openPage();
    // Only the page's own timers are faked; the socket keeps real ones.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(button);
    expect(button).toBeDisabled();

    await act(() => vi.advanceTimersByTimeAsync(REALTIME_TEST_SEND_DELAY_MS - 1));
    expect(calls).not.toContain('POST /api/admin/test-websockets');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(calls).toContain('POST /api/admin/test-websockets');

    // The event travels over a real socket; Testing Library's waiting needs real timers back.
    vi.useRealTimers();
    expect(
      await screen.findByText('Your websocket connection was successfully established'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Test the connection' })).toBeEnabled();
  });

  it('shows the failure toast when no event arrives within the timeout', async () => {
    delivers = false;
    const button = await openPage();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(button);

    await act(() => vi.advanceTimersByTimeAsync(REALTIME_TEST_TIMEOUT_MS - 1));
    expect(calls).toContain('POST /api/admin/test-websockets');
    expect(screen.queryByText("Your websocket connection wasn't established")).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByText("Your websocket connection wasn't established")).toBeInTheDocument();
    expect(
      screen.queryByText('Your websocket connection was successfully established'),
    ).not.toBeInTheDocument();
  });

  it('keeps the test off while realtime is off', async () => {
    await renderApp('/admin/settings/environment', { user: buildUser({ role: 'admin' }) });
    expect(await screen.findByRole('button', { name: 'Test the connection' })).toBeDisabled();
    expect(
      screen.getByText('Realtime is off: pages show news only when they are reloaded.'),
    ).toBeInTheDocument();
  });
});
