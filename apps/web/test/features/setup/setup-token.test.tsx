import { SETUP_TOKEN_COOKIE } from '@atelier/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readCookie } from '../../../src/lib/api-client';
import { buildConfig } from '../../fixtures';
import { currentUrl, renderApp } from '../../render-app';

const notInstalled = buildConfig({ installation: 'installation-needed' });

/** The status-check call of the setup API: it answers only to the token `valid`, read from the cookie. */
function setupServer() {
  const calls: Array<string | undefined> = [];
  const fetch = async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://atelier.test');
    if (url.pathname !== '/api/setup/status-check') return new Response(null, { status: 404 });
    const token = readCookie(SETUP_TOKEN_COOKIE);
    calls.push(token);
    if (token !== 'valid') {
      const body = { code: 'forbidden', message: 'This setup link is not valid.' };
      return new Response(JSON.stringify(body), {
        status: 403,
        headers: { 'Content-Type': 'application/json' },
      });
    }
    const body = { checks: [{ name: 'Node.js runtime', ok: true, detail: 'Node.js 22' }] };
    return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
  };
  return { fetch, calls };
}

describe('setup wizard token', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('keeps the token of the printed link, drops it from the address and opens the first step', async () => {
    const server = setupServer();
    vi.stubGlobal('fetch', server.fetch);
    const { router } = await renderApp('/install?token=valid', { config: notInstalled });

    expect(await screen.findByText('Node.js 22')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/setup-wizard/status-check');
    expect(server.calls).toEqual(['valid']);
  });

  it('asks for the link before any step when the wizard is opened without it', async () => {
    const server = setupServer();
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/platform/files', { config: notInstalled });

    expect(await screen.findByRole('heading', { name: 'Open the setup link' })).toBeInTheDocument();
    expect(server.calls).toEqual([]);

    await userEvent.type(
      screen.getByLabelText('Setup link or token'),
      'http://files.example.test/install?token=valid',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Node.js 22')).toBeInTheDocument();
    expect(server.calls).toEqual(['valid']);
  });

  it('asks again, and forgets the token, when the server refuses it', async () => {
    const server = setupServer();
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/install?token=mistyped', { config: notInstalled });

    expect(await screen.findByRole('heading', { name: 'Open the setup link' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('That link was not accepted.');
    expect(readCookie(SETUP_TOKEN_COOKIE)).toBeUndefined();
    expect(server.calls).toEqual(['mistyped']);
  });
});
