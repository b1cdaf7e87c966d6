import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildConfig, buildUser } from '../../fixtures';
import { currentUrl, renderApp } from '../../render-app';

const inMaintenance = buildConfig({ maintenance: true });

describe('maintenance', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends a visitor to the maintenance page, which offers only the administrators’ sign-in', async () => {
    const { router } = await renderApp('/demo', { config: inMaintenance });
    expect(await screen.findByRole('heading', { name: 'Back in a moment' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/temporary-unavailable');
    // Every other public page would send them straight back here.
    expect(screen.getByRole('link', { name: 'Administrator sign-in' })).toHaveAttribute('href', '/sign-in');
    expect(screen.queryByRole('link', { name: 'Get started' })).not.toBeInTheDocument();
    const footer = screen.getByRole('navigation', { name: 'More about Atelier' });
    expect(within(footer).queryAllByRole('link')).toHaveLength(0);
  });

  it('offers a signed-in person who is not an admin a way out instead of the app they cannot open', async () => {
    vi.stubGlobal('fetch', async () => new Response(null, { status: 204 }));
    await renderApp('/platform/files', { config: inMaintenance, user: buildUser() });
    expect(await screen.findByRole('heading', { name: 'Back in a moment' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Open Atelier' })).not.toBeInTheDocument();
  });

  it('reminds an admin, on every page of the app, that maintenance is on and where to turn it off', async () => {
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 200 }));
    await renderApp('/user/settings/storage', { config: inMaintenance, user: buildUser({ role: 'admin' }) });
    const bar = await screen.findByText('Maintenance is on.');
    expect(
      within(bar.closest('[role="status"]')!).getByRole('link', { name: 'Turn it off' }),
    ).toHaveAttribute('href', '/admin/settings/others');
  });
});
