import type { AdminSettings } from '@atelier/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';

/** The payments group of the admin settings, as the server reads it back (secrets only as set). */
function serveSettings(settings: AdminSettings) {
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = new URL(String(input), window.location.href);
    if (url.pathname === '/api/admin/settings')
      return new Response(JSON.stringify(settings), { headers: { 'Content-Type': 'application/json' } });
    return new Response(JSON.stringify({ message: 'Not found', code: 'not_found' }), { status: 404 });
  });
}

const NO_KEYS: AdminSettings = {
  subscription_type: 'none',
  allowed_payment_drivers: [],
  currency: 'EUR',
  stripe_secret_key: null,
  stripe_secret_key_set: false,
  stripe_webhook_secret: null,
  stripe_webhook_secret_set: false,
};

describe('admin billings', { timeout: 30_000 }, () => {
  it('warns loudly, with the way to the keys, while fixed plans have no provider to take the money', async () => {
    serveSettings(NO_KEYS);
    const user = userEvent.setup();
    await renderApp('/admin/payments/billings', { user: buildUser({ role: 'admin' }) });
    await user.click(await screen.findByRole('radio', { name: /Fixed plans/ }));
    expect(screen.getByRole('status')).toHaveTextContent('Nobody can buy a plan yet');
    expect(screen.getByRole('link', { name: 'Enter the keys of a provider' })).toHaveAttribute(
      'href',
      '/admin/payments/payments',
    );
    // The currency is typed, with the ISO codes offered on the way.
    const currency = screen.getByRole('combobox', { name: 'Currency' });
    const offered = document.getElementById(currency.getAttribute('list')!)!;
    expect([...offered.querySelectorAll('option')].map((option) => option.value)).toEqual(
      expect.arrayContaining(['EUR', 'USD', 'JPY']),
    );
    // Allowing a provider without its keys changes nothing: it still cannot take a payment.
    await user.click(screen.getByRole('switch', { name: /Stripe/ }));
    expect(screen.getByRole('status')).toHaveTextContent('Nobody can buy a plan yet');
  });

  it('says a provider with its keys is switched off, rather than asking for keys', async () => {
    serveSettings({
      ...NO_KEYS,
      subscription_type: 'fixed',
      allowed_payment_drivers: ['paypal'],
      stripe_secret_key_set: true,
      stripe_webhook_secret_set: true,
    });
    const user = userEvent.setup();
    await renderApp('/admin/payments/billings', { user: buildUser({ role: 'admin' }) });
    const warning = (await screen.findByText('Nobody can buy a plan yet')).closest('[role="status"]');
    expect(warning).toHaveTextContent(
      'Stripe has its keys but is switched off under Payment providers below. Switch it on and save to offer your plans.',
    );
    expect(screen.queryByRole('link', { name: 'Enter the keys of a provider' })).not.toBeInTheDocument();
    // Switched on, Stripe can take the payment: the warning goes.
    await user.click(screen.getByRole('switch', { name: /Stripe/ }));
    expect(screen.queryByText('Nobody can buy a plan yet')).not.toBeInTheDocument();
  });

  it('says nothing once an allowed provider has its keys', async () => {
    serveSettings({
      ...NO_KEYS,
      subscription_type: 'fixed',
      allowed_payment_drivers: ['stripe'],
      stripe_secret_key_set: true,
      stripe_webhook_secret_set: true,
    });
    await renderApp('/admin/payments/billings', { user: buildUser({ role: 'admin' }) });
    expect(await screen.findByRole('radio', { name: /Fixed plans/ })).toBeChecked();
    expect(screen.queryByText('Nobody can buy a plan yet')).not.toBeInTheDocument();
  });
});
