import { CheckoutAnswer, TransactionList } from '@atelier/contracts';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import type { TestAgent } from '../support/agent';
import { applyStoredEvents, BALANCE_RECORDS, clearTables } from '../support/billing-events';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { startProviderPeer, type ProviderPeer } from '../support/provider-peer';
import {
  signPaystackEvent,
  signStripeEvent,
  stripeEvent,
  type SignedWebhook,
} from '../support/signed-webhooks';
import { createTestApp, type TestApp } from '../support/test-app';

// Stripe and Paystack are each played by a real local HTTP server answering as their APIs do;
// webhooks are signed as each provider signs them and go through the real route, store and ledger.
const STRIPE_WEBHOOK_SECRET = 'whsec_top_up';
const PAYSTACK_SECRET_KEY = 'sk_test_paystack_top_up';
const NOW = new Date('2026-03-01T10:00:00.000Z');
const nowSeconds = Math.floor(NOW.getTime() / 1000);

describeEachDatabase('billing: balance top-ups through Stripe and Paystack', (kind) => {
  let t: TestApp;
  let stripe: ProviderPeer;
  let paystack: ProviderPeer;
  let user: { agent: TestAgent; user: UserRow };

  const send = (driver: 'stripe' | 'paystack', signed: SignedWebhook) =>
    t.app.inject({
      method: 'POST',
      url: `/api/subscriptions/${driver}/webhooks`,
      payload: signed.body,
      headers: signed.headers,
    });

  const applyStored = (driver: 'stripe' | 'paystack', eventId: string) =>
    applyStoredEvents(t, driver, eventId);

  const balance = () =>
    t.deps.database.db
      .selectFrom('balances')
      .select(['amount_minor', 'currency'])
      .where('user_id', '=', user.user.id)
      .executeTakeFirst();
  const credits = async () =>
    TransactionList.parse((await user.agent.get('/api/user/transactions')).json()).data.filter(
      (transaction) => transaction.type === 'credit',
    );

  const topUp = async (driver: 'stripe' | 'paystack') => {
    const response = await user.agent.post('/api/subscriptions/balance/checkout', {
      amount: '25.00',
      driver,
    });
    expect(response.statusCode).toBe(200);
    return CheckoutAnswer.parse(response.json()).data;
  };

  /** Paystack's signed-for event of the top-up `reference` paid (25.00 in `currency`) by the user. */
  const balanceCharge = (id: number, reference: string, currency: string) => ({
    event: 'charge.success',
    data: {
      id,
      status: 'success',
      reference,
      amount: 2500,
      currency,
      paid_at: NOW.toISOString(),
      metadata: { user_id: user.user.id, type: 'balance' },
      customer: { email: user.user.email },
    },
  });

  beforeAll(async () => {
    stripe = await startProviderPeer({
      'POST /v1/checkout/sessions': () => [
        200,
        { id: 'cs_top_up', object: 'checkout.session', url: 'https://checkout.stripe.com/c/pay/cs_top_up' },
      ],
    });
    paystack = await startProviderPeer();
    t = await createTestApp({
      database: kind,
      clock: () => NOW,
      env: { STRIPE_API_URL: stripe.url, PAYSTACK_API_URL: paystack.url },
      settings: {
        subscription_type: 'metered',
        currency: 'USD',
        allowed_payment_drivers: ['stripe', 'paystack'],
        stripe_secret_key: 'sk_test_top_up',
        stripe_webhook_secret: STRIPE_WEBHOOK_SECRET,
        paystack_public_key: 'pk_test_paystack_top_up',
        paystack_secret_key: PAYSTACK_SECRET_KEY,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
    await paystack.close();
  });
  beforeEach(async () => {
    stripe.requests.length = 0;
    paystack.requests.length = 0;
    await clearTables(t, BALANCE_RECORDS);
    user = await signedInAgent(t.app);
  });

  it('tops up through Stripe Checkout: a payment session, then the signed completed session credits once', async () => {
    const answer = await topUp('stripe');
    expect(answer).toMatchObject({ driver: 'stripe', url: 'https://checkout.stripe.com/c/pay/cs_top_up' });
    const sent = stripe.requests[0]!.form;
    expect(sent.get('mode')).toBe('payment');
    expect(sent.get('line_items[0][price_data][unit_amount]')).toBe('2500');
    expect(sent.get('line_items[0][price_data][currency]')).toBe('usd');
    expect(sent.get('metadata[type]')).toBe('balance');
    expect(sent.get('metadata[reference]')).toBe(answer.reference);

    const completed = stripeEvent(
      'checkout.session.completed',
      {
        id: 'cs_top_up',
        object: 'checkout.session',
        mode: 'payment',
        payment_status: 'paid',
        client_reference_id: user.user.id,
        amount_total: 2500,
        currency: 'usd',
        metadata: { type: 'balance', user_id: user.user.id, reference: answer.reference },
      },
      { id: 'evt_top_up', created: nowSeconds },
    );
    for (let i = 0; i < 2; i++) {
      const response = await send('stripe', signStripeEvent(completed, STRIPE_WEBHOOK_SECRET, nowSeconds));
      expect(response.statusCode).toBe(200);
    }
    await applyStored('stripe', 'evt_top_up');
    await applyStored('stripe', 'evt_top_up');
    expect(await balance()).toEqual({ amount_minor: 2500, currency: 'USD' });
    expect(await credits()).toEqual([
      expect.objectContaining({
        reference: answer.reference,
        amount: '25.00',
        driver: 'stripe',
        status: 'completed',
      }),
    ]);
  });

  it("tops up through Paystack's inline form: nothing sent to Paystack, the signed charge credits once", async () => {
    const answer = await topUp('paystack');
    expect(answer).toMatchObject({
      driver: 'paystack',
      public_key: 'pk_test_paystack_top_up',
      email: user.user.email,
      amount: '25.00',
      amount_subunit: 2500,
      currency: 'USD',
      plan: null,
    });
    expect(answer.reference).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(paystack.requests).toHaveLength(0);

    const charge = balanceCharge(4099260516, answer.reference, 'USD');
    for (let i = 0; i < 2; i++) {
      expect((await send('paystack', signPaystackEvent(charge, PAYSTACK_SECRET_KEY))).statusCode).toBe(200);
    }
    await applyStored('paystack', `charge.success:${answer.reference}`);
    expect(await balance()).toEqual({ amount_minor: 2500, currency: 'USD' });
    expect(await credits()).toEqual([
      expect.objectContaining({ reference: answer.reference, amount: '25.00', driver: 'paystack' }),
    ]);
    expect(paystack.requests).toHaveLength(0);
  });

  it("tops up and credits in the metered plan's currency, the one its balance settles in, on an instance of another", async () => {
    const admin = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user);
    const created = await admin.agent.post('/api/admin/plans', {
      type: 'metered',
      name: 'Pay as you go in euros',
      description: '',
      currency: 'EUR',
      meters: [
        {
          key: 'flat_fee',
          aggregate: 'sum',
          tiers: [{ first_unit: 1, last_unit: null, per_unit: '2.00', flat_fee: '0.00' }],
        },
      ],
    });
    expect(created.statusCode).toBe(201);
    try {
      const shown = (await user.agent.get('/api/subscriptions/detail')).json();
      expect(shown.data.balance).toEqual({ amount: '0.00', currency: 'EUR' });

      const answer = await topUp('paystack');
      expect(answer).toMatchObject({ amount: '25.00', amount_subunit: 2500, currency: 'EUR' });
      const charge = balanceCharge(4099260517, answer.reference, 'EUR');
      expect((await send('paystack', signPaystackEvent(charge, PAYSTACK_SECRET_KEY))).statusCode).toBe(200);
      await applyStored('paystack', `charge.success:${answer.reference}`);
      expect(await balance()).toEqual({ amount_minor: 2500, currency: 'EUR' });

      const credit = await admin.agent.post(`/api/admin/users/${user.user.id}/credit`, {
        amount: '5.00',
        note: 'For the wait',
      });
      expect(credit.statusCode).toBe(201);
      expect(await balance()).toEqual({ amount_minor: 3000, currency: 'EUR' });
    } finally {
      await t.deps.database.db.deleteFrom('subscriptions').execute();
      await t.deps.database.db.deleteFrom('plans').execute();
    }
  });

  it('credits nothing for a top-up signed with the wrong key', async () => {
    const answer = await topUp('paystack');
    const forged = signPaystackEvent(
      {
        event: 'charge.success',
        data: {
          reference: answer.reference,
          amount: 1_000_000,
          currency: 'USD',
          metadata: { user_id: user.user.id, type: 'balance' },
        },
      },
      'sk_guessed',
    );
    expect((await send('paystack', forged)).statusCode).toBe(400);
    expect(await t.deps.database.db.selectFrom('billing_events').selectAll().execute()).toHaveLength(0);
    expect(await balance()).toBeUndefined();
  });
});
