import type { PlanItem, SubscriptionDetail } from '@atelier/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildConfig, buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { json, noContent } from '../../responses';

const plan: PlanItem = {
  id: 'plan-pro',
  type: 'plan',
  attributes: {
    type: 'fixed',
    name: 'Atelier Pro',
    description: 'Room for renders',
    currency: 'USD',
    status: 'active',
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    amount: '12.50',
    interval: 'month',
    features: { max_storage_amount: 250, max_team_members: 5 },
  },
};

const empty = { data: [], meta: { paginate: { current_page: 1, last_page: 1, per_page: 20, total: 0 } } };

/** The billing calls, answered as the server would; every call is kept with its body. */
function fakeServer(
  detail: SubscriptionDetail['data'],
  checkout: Record<string, unknown> = {},
  plans: PlanItem[] = [plan],
) {
  const calls: { call: string; body: unknown }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = `${init?.method ?? 'GET'} ${String(input).split('?')[0]}`;
    calls.push({ call, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (call === 'GET /api/subscriptions/detail') return json({ data: detail });
    if (call === 'GET /api/subscriptions/plans') return json({ data: plans });
    if (call === 'GET /api/user/transactions') return json(empty);
    if (call.endsWith('/checkout')) return json({ data: checkout });
    if (call === 'POST /api/subscriptions/cancel') return noContent();
    return json({ data: [] });
  });
  return { fetch, calls, sent: (call: string) => calls.find((entry) => entry.call === call)?.body };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.querySelectorAll('script[src*="paystack"]').forEach((script) => script.remove());
});

const fixed = buildConfig({ subscriptionType: 'fixed' });

describe('the billing page', () => {
  it('shows the plans as pricing cards and sends a Stripe checkout to Stripe’s page', async () => {
    const server = fakeServer(
      { subscription: null, drivers: ['stripe', 'paystack'] },
      { driver: 'stripe', reference: 'AbCdEf1234', url: 'https://checkout.stripe.test/c/pay' },
    );
    vi.stubGlobal('fetch', server.fetch);
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    await renderApp('/user/settings/billing', { user: buildUser(), config: fixed });

    const card = await screen.findByTestId('pricing-card');
    expect(card).toHaveTextContent('$12.50');
    expect(card).toHaveTextContent('250 GB of storage');
    expect(card).toHaveTextContent('Up to 5 team members');
    await userEvent.click(within(card).getByRole('button', { name: 'Subscribe' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('radio', { name: /Stripe/ })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue to payment' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay'));
    expect(server.sent('POST /api/subscriptions/checkout')).toEqual({
      plan_id: 'plan-pro',
      driver: 'stripe',
    });
  });

  it('says why no plan is offered: none published, or no provider can take the payment', async () => {
    vi.stubGlobal('fetch', fakeServer({ subscription: null, drivers: ['stripe'] }, {}, []).fetch);
    const published = await renderApp('/user/settings/billing', { user: buildUser(), config: fixed });
    expect(await screen.findByText('No plans to choose from yet')).toBeInTheDocument();
    expect(
      screen.getByText('The administrator has not published any plan. Come back later.'),
    ).toBeInTheDocument();
    published.unmount();

    vi.stubGlobal('fetch', fakeServer({ subscription: null, drivers: [] }, {}, []).fetch);
    await renderApp('/user/settings/billing', { user: buildUser(), config: fixed });
    expect(
      await screen.findByText(
        'Plans can’t be bought yet: no way to pay is set up on this instance. Come back later.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/has not published any plan/)).not.toBeInTheDocument();
  });

  it('shows Paystack’s reference and amount, and loads Paystack’s script only when asked', async () => {
    const server = fakeServer(
      { subscription: null, drivers: ['paystack'] },
      {
        driver: 'paystack',
        reference: 'Xy12Ab34Cd',
        public_key: 'pk_test_x',
        email: 'ada@atelier.test',
        amount: '12.50',
        amount_subunit: 1250,
        currency: 'USD',
        plan: null,
      },
    );
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/settings/billing', { user: buildUser(), config: fixed });

    await userEvent.click(await screen.findByRole('button', { name: 'Subscribe' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Continue to payment' }));
    const panel = await screen.findByTestId('paystack-panel');
    expect(within(panel).getByTestId('paystack-reference')).toHaveTextContent('Xy12Ab34Cd');
    expect(panel).toHaveTextContent('$12.50');
    expect(document.querySelector('script[src*="paystack"]')).toBeNull();

    await userEvent.click(within(panel).getByRole('button', { name: 'Open Paystack’s form' }));
    const script = document.querySelector<HTMLScriptElement>('script[src*="paystack"]');
    expect(script?.src).toBe('https://js.paystack.co/v2/inline.js');
    // The browser refuses it (here: the test's; in production the instance's CSP or network).
    script!.dispatchEvent(new Event('error'));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('could not be loaded');
  });

  it('shows the plan held, and cancels it after a confirmation that says until when it stays', async () => {
    const server = fakeServer({
      subscription: {
        id: 'sub-1',
        plan,
        status: 'active',
        driver: 'stripe',
        renews_at: '2026-12-24T10:00:00.000Z',
        ends_at: null,
        created_at: '2026-11-24T10:00:00.000Z',
      },
      drivers: ['stripe'],
    });
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/settings/billing', { user: buildUser(), config: fixed });

    const card = await screen.findByTestId('subscription-card');
    expect(card).toHaveTextContent('Atelier Pro');
    expect(card).toHaveTextContent('Active');
    expect(card).toHaveTextContent('Renews on');
    expect(card).toHaveTextContent('Dec 24, 2026');
    expect(card).toHaveTextContent('Stripe');
    await userEvent.click(within(card).getByRole('button', { name: 'Cancel subscription' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm).toHaveTextContent('Your plan stays active until Dec 24, 2026');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel subscription' }));
    await waitFor(() =>
      expect(server.calls.map((entry) => entry.call)).toContain('POST /api/subscriptions/cancel'),
    );
  });

  it('shows a metered balance and estimate, and refuses a top-up that is no amount before sending it', async () => {
    const server = fakeServer({
      subscription: null,
      balance: { amount: '3.20', currency: 'EUR' },
      usage: {
        period_start: '2026-11-01T00:00:00.000Z',
        period_end: '2026-11-30T23:59:59.000Z',
        currency: 'EUR',
        items: [
          { key: 'storage', quantity: 42, amount: '4.20' },
          { key: 'flat_fee', quantity: 1, amount: '2.00' },
        ],
        total: '6.20',
      },
      drivers: ['stripe'],
    });
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/settings/billing', {
      user: buildUser(),
      config: buildConfig({ subscriptionType: 'metered' }),
    });

    expect(await screen.findByTestId('balance')).toHaveTextContent('€3.20');
    expect(screen.getByTestId('usage-card')).toHaveTextContent('Storage 42 GB€4.20');
    expect(screen.getByTestId('estimate')).toHaveTextContent('€6.20');
    await userEvent.click(screen.getByRole('button', { name: 'Top up' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Amount (EUR)'), '12.5.0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue to payment' }));
    expect(
      await within(dialog).findByText('Enter an amount like 19.99, with a dot before the decimals.'),
    ).toBeVisible();
    expect(server.sent('POST /api/subscriptions/balance/checkout')).toBeUndefined();
  });

  it('tells a restricted metered account why, beside the red bar, with the way out', async () => {
    vi.stubGlobal(
      'fetch',
      fakeServer({
        subscription: null,
        balance: { amount: '0.00', currency: 'EUR' },
        usage: null,
        drivers: ['stripe'],
      }).fetch,
    );
    const reason = 'Your usage of €4.20 is unpaid.';
    await renderApp('/user/settings/billing', {
      user: buildUser({ reason }),
      config: buildConfig({ subscriptionType: 'metered' }),
    });

    const callout = await screen.findByTestId('billing-restricted');
    expect(callout).toHaveTextContent(`Your account is restricted. ${reason}`);
    await userEvent.click(within(callout).getByRole('button', { name: 'Top up' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('Top up your balance');
  });
});
