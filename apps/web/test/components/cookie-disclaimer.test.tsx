import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { COOKIE_DISCLAIMER_KEY, CookieDisclaimer } from '../../src/components/overlays/cookie-disclaimer';
import { buildConfig } from '../fixtures';
import { createTestI18n, createTestQueryClient } from '../render-app';

async function renderDisclaimer(installed: boolean, message?: string) {
  const i18n = await createTestI18n();
  if (message) i18n.addResource(i18n.language, 'translation', 'cookies.message', message);
  return render(
    <QueryClientProvider client={createTestQueryClient(buildConfig(), null)}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <CookieDisclaimer installed={installed} />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('cookie disclaimer', () => {
  it('stays hidden while the instance is not installed', async () => {
    await renderDisclaimer(false);
    expect(screen.queryByRole('complementary', { name: 'Cookie notice' })).not.toBeInTheDocument();
  });

  it('shows on an installed instance, linking to the cookie policy', async () => {
    await renderDisclaimer(true);
    expect(screen.getByRole('complementary', { name: 'Cookie notice' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'cookie policy' })).toHaveAttribute(
      'href',
      '/page/cookie-policy',
    );
  });

  it('reads as one sentence with the instance’s name; a translation without the tags is all text', async () => {
    const first = await renderDisclaimer(true);
    expect(screen.getByRole('complementary', { name: 'Cookie notice' })).toHaveTextContent(
      `We use only the cookies ${buildConfig().app.name} needs to keep you signed in and your requests safe. Read our cookie policy.`,
    );
    first.unmount();
    await renderDisclaimer(true, 'Only the cookies {{name}} needs. See the <b>policy</b> page.');
    expect(screen.getByRole('complementary', { name: 'Cookie notice' })).toHaveTextContent(
      `Only the cookies ${buildConfig().app.name} needs. See the <b>policy</b> page.`,
    );
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('remembers the dismissal in this browser', async () => {
    const first = await renderDisclaimer(true);
    await userEvent.click(screen.getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('complementary', { name: 'Cookie notice' })).not.toBeInTheDocument();
    expect(localStorage.getItem(COOKIE_DISCLAIMER_KEY)).toBe('1');

    first.unmount();
    await renderDisclaimer(true);
    expect(screen.queryByRole('complementary', { name: 'Cookie notice' })).not.toBeInTheDocument();
  });
});
