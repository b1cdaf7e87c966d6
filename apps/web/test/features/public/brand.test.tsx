import { accentPalette } from '@atelier/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COOKIE_DISCLAIMER_KEY } from '../../../src/components/overlays/cookie-disclaimer';
import { configQuery } from '../../../src/features/session/session-queries';
import { buildConfig, buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';

const studio = buildConfig({
  app: {
    ...buildConfig().app,
    name: 'Studio North',
    description: 'Product photography for makers.',
    logo: '/api/app-images/light-logo-key/main',
    logo_dark: '/api/app-images/dark-logo-key/main',
    contactEmail: 'hello@studio-north.test',
    accent: '#ffd400',
  },
});

const accentStyle = () => document.getElementById('instance-accent')?.textContent ?? null;

describe("the instance's brand", { timeout: 30_000 }, () => {
  beforeEach(() => localStorage.setItem(COOKIE_DISCLAIMER_KEY, '1'));
  afterEach(() => {
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it("greets a visitor on the homepage in the studio's name, words and logo, with the way in", async () => {
    await renderApp('/', { config: studio });
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome to Studio North' })).toBeVisible();
    expect(screen.getByText('Product photography for makers.', { selector: 'main p' })).toBeVisible();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
    expect(within(main).getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/inhouse-sign-up',
    );
    expect(within(main).getByRole('link', { name: 'hello@studio-north.test' })).toHaveAttribute(
      'href',
      'mailto:hello@studio-north.test',
    );
    // Nothing of the software's own pitch.
    expect(screen.queryByText(/npm start/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Atelier/)).not.toBeInTheDocument();
    // The logo, and its dark-theme version for the dark theme.
    const sources = [...document.querySelectorAll('img')].map((img) => img.getAttribute('src'));
    expect(sources).toContain('/api/app-images/light-logo-key/main');
    expect(sources).toContain('/api/app-images/dark-logo-key/main');
  });

  it("shows the admin's own headline and lead, and offers the app to someone signed in", async () => {
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 200 }));
    await renderApp('/', {
      config: { ...studio, homepage: { title: 'Renders that sell', description: 'Send us a model.' } },
      user: buildUser(),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Renders that sell' })).toBeVisible();
    expect(screen.getByText('Send us a model.')).toBeVisible();
    expect(within(screen.getByRole('main')).getByRole('link', { name: /Open Studio North/ })).toHaveAttribute(
      'href',
      '/projects',
    );
  });

  it('makes the accent the primary colour of both themes, as readable tones, and drops it when cleared', async () => {
    const { queryClient } = await renderApp('/', { config: studio });
    await screen.findByRole('heading', { level: 1 });
    const { light, dark } = accentPalette('#ffd400');
    expect(accentStyle()).toContain(`:root:root{--accent:${light.accent};`);
    expect(accentStyle()).toContain(`--on-accent:${light.onAccent}`);
    expect(accentStyle()).toContain(`:root.dark{--accent:${dark.accent};`);
    expect(light.accent).not.toBe('#ffd400');

    act(() =>
      queryClient.setQueryData(configQuery.queryKey, { ...studio, app: { ...studio.app, accent: null } }),
    );
    await waitFor(() => expect(accentStyle()).toBeNull());
  });

  it('names the instance in the cookie notice', async () => {
    localStorage.removeItem(COOKIE_DISCLAIMER_KEY);
    await renderApp('/', { config: studio });
    const notice = await screen.findByRole('complementary', { name: 'Cookie notice' });
    expect(notice).toHaveTextContent('We use only the cookies Studio North needs');
  });
});

describe('the accent colour in the appearance settings', { timeout: 30_000 }, () => {
  const posted: unknown[] = [];
  beforeEach(() => {
    localStorage.setItem(COOKIE_DISCLAIMER_KEY, '1');
    document.cookie = 'XSRF-TOKEN=test-token';
    posted.length = 0;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), window.location.href);
      if (url.pathname === '/api/admin/settings' && init?.method === 'POST') {
        posted.push(JSON.parse(String(init.body)));
        return new Response(null, { status: 204 });
      }
      if (url.pathname === '/api/admin/settings')
        return Response.json({
          app_title: 'Studio North',
          app_description: '',
          contact_email: 'hello@studio-north.test',
          support_email: null,
          user_guide_url: null,
          app_accent_color: null,
        });
      return Response.json({});
    });
  });
  afterEach(() => {
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('previews both themes live, says where a colour was moved to stay readable, and saves it', async () => {
    await renderApp('/admin/settings/appearance', { user: buildUser({ role: 'admin' }) });
    const field = await screen.findByRole('textbox', { name: 'Accent colour' }, { timeout: 10_000 });
    const light = screen.getByTestId('accent-preview-light');
    expect(light).toHaveTextContent('The built-in clay colour');

    fireEvent.change(field, { target: { value: '#FFD400' } });
    const { light: lightTones } = accentPalette('#ffd400');
    expect(light).toHaveTextContent(
      `Adjusted to ${lightTones.accent} so text stays readable, contrast ${lightTones.contrast.toFixed(1)}:1`,
    );
    expect(screen.getByTestId('accent-preview-dark')).toHaveTextContent('#ffd400 as picked');
    // The preview wears the tones, and the draft name.
    const lightFrame = light.querySelector<HTMLElement>('.light')!;
    expect(lightFrame.style.getPropertyValue('--accent')).toBe(lightTones.accent);
    expect(lightFrame).toHaveTextContent('Studio North');

    fireEvent.change(field, { target: { value: 'yellow' } });
    expect(field).toHaveAccessibleDescription(/six hexadecimal digits/);

    fireEvent.change(field, { target: { value: '#2563eb' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ settings: { app_accent_color: '#2563eb', app_title: 'Studio North' } });
  });
});
