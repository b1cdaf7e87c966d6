import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { COOKIE_DISCLAIMER_KEY, CookieDisclaimer } from '../../src/components/overlays/cookie-disclaimer';
import { buildConfig } from '../fixtures';
import { createTestI18n, createTestQueryClient } from '../render-app';

async function renderDisclaimer(installed: boolean) {
  const i18n = await createTestI18n();
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
