import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { saveSetupToken } from '../../src/features/setup/setup-token';
import { buildConfig, buildUser } from '../fixtures';
import { currentUrl, renderApp } from '../render-app';

describe('route guards', () => {
  it('sends an anonymous visitor to SignIn with the intended path in redirect', async () => {
    const { router } = await renderApp('/platform/files/42?sort=name');
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    expect(router.state.location.search).toBe(
      `?redirect=${encodeURIComponent('/platform/files/42?sort=name')}`,
    );
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(document.title).toBe('Sign in · Atelier');
  });

  it('lets a signed-in user into their area, inside the layout with the sidebar', async () => {
    const { router } = await renderApp('/gallery/files', { user: buildUser() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Gallery' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/gallery/files');
    expect(screen.getAllByRole('navigation', { name: 'Main navigation' }).length).toBeGreaterThan(0);
  });

  it('keeps a normal user out of admin routes', async () => {
    const { router } = await renderApp('/admin/users', { user: buildUser({ role: 'user' }) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument();
  });

  it('lets an admin into admin routes', async () => {
    const { router } = await renderApp('/admin/users', { user: buildUser({ role: 'admin' }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/admin/users');
  });

  // The wizard's own gate, the setup token, has its tests in features/setup; here the token is at hand.
  it('shows StatusCheck on every path but the wizard while installation is needed', async () => {
    saveSetupToken('printed-token');
    const config = buildConfig({ installation: 'installation-needed' });
    const { router } = await renderApp('/platform/files', { config });
    await waitFor(() => expect(router.state.location.pathname).toBe('/setup-wizard/status-check'));
    expect(await screen.findByRole('heading', { name: 'Let’s check your server' })).toBeInTheDocument();
  });

  it('leaves the wizard reachable while installation is needed', async () => {
    saveSetupToken('printed-token');
    const config = buildConfig({ installation: 'installation-needed' });
    const { router } = await renderApp('/setup-wizard/database', { config });
    expect(await screen.findByRole('heading', { name: 'Database' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/setup-wizard/database');
  });

  it('opens /install at the first wizard step', async () => {
    saveSetupToken('printed-token');
    const config = buildConfig({ installation: 'installation-needed' });
    const { router } = await renderApp('/install', { config });
    await waitFor(() => expect(router.state.location.pathname).toBe('/setup-wizard/status-check'));
  });

  it('sends visitors to SignIn when the homepage is not allowed', async () => {
    const { router } = await renderApp('/', { config: buildConfig({ allowHomepage: false }) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
  });

  it('shows the not-found page for unknown paths', async () => {
    await renderApp('/no/such/place');
    expect(await screen.findByRole('heading', { name: 'This page does not exist' })).toBeInTheDocument();
  });
});
