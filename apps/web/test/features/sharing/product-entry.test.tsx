import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../src/app/app-providers';
import { ProductEntry } from '../../../src/features/sharing/product-entry';
import { buildConfig } from '../../fixtures';
import { createTestI18n, createTestQueryClient, currentUrl, renderApp } from '../../render-app';
import { fakeVisitServer } from './fake-share-server';

function serve(options: Parameters<typeof fakeVisitServer>[0] = {}) {
  const visit = fakeVisitServer(options);
  vi.stubGlobal('fetch', visit.fetch);
  return visit;
}

/** The product page's own entry as product-main.tsx mounts it: no router around it. */
async function renderEntry(token: string) {
  const queryClient = createTestQueryClient(buildConfig(), null);
  const i18n = await createTestI18n();
  return render(
    <AppProviders queryClient={queryClient} i18n={i18n}>
      <ProductEntry token={token} />
    </AppProviders>,
  );
}

describe("the product page's own entry", { timeout: 30_000 }, () => {
  it('shows the page in the share frame, its sharer named, without the app’s router', async () => {
    const visit = serve();
    await renderEntry(visit.token);
    // The fake server has no product for this link: the page says so, inside the frame.
    expect(await screen.findByText(/This link has no product page yet/)).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(visit.calls('GET', `/api/sharing/product/${visit.token}`)).toHaveLength(1);
  });

  it('says a revoked link was turned off, by whom, with a way back to the start', async () => {
    const visit = serve({ state: 'revoked' });
    await renderEntry(visit.token);
    expect(await screen.findByRole('heading', { name: 'This link was turned off' })).toBeInTheDocument();
    expect(screen.getByText(/Ada Lovelace/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the start' })).toHaveAttribute('href', '/');
  });

  it("sends a protected link's page in the app to the password gate, which comes back to the page", async () => {
    const visit = serve({ protected: true });
    const user = userEvent.setup();
    const { router } = await renderApp(`/share/${visit.token}/product`);
    expect(await screen.findByLabelText('Password')).toBeInTheDocument();
    expect(currentUrl(router)).toBe(`/share/${visit.token}/authenticate?next=product`);
    await user.type(screen.getByLabelText('Password'), visit.password);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/This link has no product page yet/)).toBeInTheDocument();
    expect(currentUrl(router)).toBe(`/share/${visit.token}/product`);
  });
});
