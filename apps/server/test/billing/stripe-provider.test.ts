import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanRow, SubscriptionRow } from '../../src/modules/billing/billing.tables';
import { WebhookSignatureError } from '../../src/modules/billing/payment-provider';
import { PaymentProviderError } from '../../src/modules/billing/providers/provider-error';
import { StripeProvider } from '../../src/modules/billing/providers/stripe.provider';
import { SETTING_DEFAULTS, type Settings } from '../../src/modules/settings/settings.defaults';
import { checkoutRequest } from '../support/checkout-request';
import { startProviderPeer, type ProviderPeer } from '../support/provider-peer';
import { signStripeEvent, stripeEvent } from '../support/signed-webhooks';

// The Stripe API here is a real local HTTP server (test/support/provider-peer.ts) answering JSON as
// Stripe does; the official `stripe` client talks to it over HTTP exactly as it would to Stripe.

const WEBHOOK_SECRET = 'whsec_test_secret';
const settings: Settings = {
  ...SETTING_DEFAULTS,
  app_title: 'Atelier',
  stripe_public_key: 'pk_test_public',
  stripe_secret_key: 'sk_test_secret',
  stripe_webhook_secret: WEBHOOK_SECRET,
};

/** The injected clock: webhooks are signed relative to it. */
const NOW = new Date('2026-11-24T06:00:00.000Z');
const nowSeconds = Math.floor(NOW.getTime() / 1000);

const plan: PlanRow = {
  id: 'plan-studio',
  type: 'fixed',
  name: 'Studio',
  description: 'For small teams',
  currency: 'USD',
  status: 'active',
  amount_minor: 1999,
  interval: 'month',
  max_storage_amount: 200,
  max_team_members: -1,
  meters: null,
  created_at: NOW.toISOString(),
  updated_at: NOW.toISOString(),
};

const subscription: SubscriptionRow = {
  id: 'subscription-1',
  user_id: 'user-1',
  plan_id: plan.id,
  status: 'active',
  driver: 'stripe',
  provider_subscription_id: 'sub_123',
  renews_at: '2026-12-24T06:00:00.000Z',
  ends_at: null,
  provider_updated_at: null,
  created_at: NOW.toISOString(),
  updated_at: NOW.toISOString(),
};

const payer = { id: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' };

let peer: ProviderPeer;
let provider: StripeProvider;

beforeAll(async () => {
  peer = await startProviderPeer({
    'POST /v1/checkout/sessions': () => [
      200,
      { id: 'cs_test_1', object: 'checkout.session', url: 'https://checkout.stripe.com/c/pay/cs_test_1' },
    ],
    'POST /v1/products': (request) => [
      200,
      { id: 'prod_1', object: 'product', name: request.form.get('name') },
    ],
    'POST /v1/prices': () => [200, { id: 'price_1', object: 'price' }],
    'GET /v1/subscriptions/sub_123': () => [
      200,
      {
        id: 'sub_123',
        object: 'subscription',
        items: {
          object: 'list',
          data: [{ id: 'si_1', object: 'subscription_item', price: { id: 'price_old' } }],
        },
      },
    ],
    'POST /v1/subscriptions/sub_123': () => [200, { id: 'sub_123', object: 'subscription' }],
  });
  provider = new StripeProvider({ baseUrl: peer.url, now: () => NOW, maxNetworkRetries: 0 });
});
afterAll(() => peer.close());
beforeEach(() => {
  peer.requests.length = 0;
});

describe('stripe provider: API calls', () => {
  it('is configured with a secret key and a webhook secret', () => {
    expect(provider.configured(settings)).toBe(true);
    expect(provider.configured({ ...settings, stripe_webhook_secret: null })).toBe(false);
    expect(provider.configured({ ...settings, stripe_secret_key: null })).toBe(false);
  });

  it('makes a subscription Checkout Session with the registered price and answers its URL', async () => {
    const session = await provider.createCheckout(
      {
        payer,
        purpose: { kind: 'plan', plan, providerPlanId: 'price_registered' },
        reference: 'Ab12Cd34Ef',
        successUrl: 'https://atelier.test/user/settings/billing?checkout=success',
        cancelUrl: 'https://atelier.test/user/settings/billing?checkout=cancelled',
      },
      settings,
    );
    expect(session).toEqual({ url: 'https://checkout.stripe.com/c/pay/cs_test_1' });
    expect(peer.requests).toHaveLength(1);
    const [request] = peer.requests;
    expect(request!.headers.authorization).toBe('Bearer sk_test_secret');
    expect(request!.headers['idempotency-key']).toBe('checkout-Ab12Cd34Ef');
    expect(Object.fromEntries(request!.form)).toEqual({
      client_reference_id: 'user-1',
      customer_email: 'ada@example.com',
      success_url: 'https://atelier.test/user/settings/billing?checkout=success',
      cancel_url: 'https://atelier.test/user/settings/billing?checkout=cancelled',
      mode: 'subscription',
      'line_items[0][price]': 'price_registered',
      'line_items[0][quantity]': '1',
      'metadata[plan_id]': 'plan-studio',
      'metadata[user_id]': 'user-1',
      'metadata[reference]': 'Ab12Cd34Ef',
      'subscription_data[metadata][plan_id]': 'plan-studio',
      'subscription_data[metadata][user_id]': 'user-1',
    });
  });

  it('prices a plan not registered yet inline', async () => {
    await provider.createCheckout(
      checkoutRequest(
        payer,
        { kind: 'plan', plan: { ...plan, interval: 'year', currency: 'EUR' }, providerPlanId: null },
        'Zz98Yy76Xx',
      ),
      settings,
    );
    const form = peer.requests[0]!.form;
    expect(form.get('mode')).toBe('subscription');
    expect(form.get('line_items[0][price]')).toBeNull();
    expect(form.get('line_items[0][price_data][currency]')).toBe('eur');
    expect(form.get('line_items[0][price_data][unit_amount]')).toBe('1999');
    expect(form.get('line_items[0][price_data][recurring][interval]')).toBe('year');
    expect(form.get('line_items[0][price_data][product_data][name]')).toBe('Studio');
  });

  it('makes a payment Checkout Session for a balance top-up', async () => {
    const session = await provider.createCheckout(
      checkoutRequest(payer, { kind: 'balance', amountMinor: 2500, currency: 'USD' }, 'Top0Up1234'),
      settings,
    );
    expect(session.url).toBe('https://checkout.stripe.com/c/pay/cs_test_1');
    const form = peer.requests[0]!.form;
    expect(form.get('mode')).toBe('payment');
    expect(form.get('client_reference_id')).toBe('user-1');
    expect(form.get('line_items[0][price_data][currency]')).toBe('usd');
    expect(form.get('line_items[0][price_data][unit_amount]')).toBe('2500');
    expect(form.get('line_items[0][price_data][recurring][interval]')).toBeNull();
    expect(form.get('metadata[type]')).toBe('balance');
    expect(form.get('metadata[reference]')).toBe('Top0Up1234');
    expect(form.get('metadata[plan_id]')).toBeNull();
  });

  it('refuses a metered plan and a missing key before calling Stripe', async () => {
    const request = checkoutRequest(
      payer,
      {
        kind: 'plan' as const,
        plan: { ...plan, type: 'metered' as const, amount_minor: null },
        providerPlanId: null,
      },
      'Me7ered123',
    );
    await expect(provider.createCheckout(request, settings)).rejects.toMatchObject({
      name: 'PaymentProviderError',
      reason: 'plan_unsupported',
    });
    await expect(provider.registerPlan(plan, { ...settings, stripe_secret_key: null })).rejects.toMatchObject(
      {
        reason: 'not_configured',
      },
    );
    expect(peer.requests).toHaveLength(0);
  });

  it('registers a plan as a Product and a monthly Price in minor units, answering the price id', async () => {
    await expect(provider.registerPlan(plan, settings)).resolves.toBe('price_1');
    expect(peer.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/products',
      'POST /v1/prices',
    ]);
    const [product, price] = peer.requests;
    expect(product!.form.get('name')).toBe('Studio');
    expect(product!.form.get('metadata[plan_id]')).toBe('plan-studio');
    expect(product!.headers['idempotency-key']).toBe('plan-plan-studio-product');
    expect(Object.fromEntries(price!.form)).toEqual({
      currency: 'usd',
      unit_amount: '1999',
      'recurring[interval]': 'month',
      product: 'prod_1',
      'metadata[plan_id]': 'plan-studio',
    });
    expect(price!.headers['idempotency-key']).toBe('plan-plan-studio-price');
  });

  it('registers a yearly plan with interval year', async () => {
    await provider.registerPlan(
      { ...plan, id: 'plan-yearly', interval: 'year', amount_minor: 19900 },
      settings,
    );
    expect(peer.requests[1]!.form.get('recurring[interval]')).toBe('year');
    expect(peer.requests[1]!.form.get('unit_amount')).toBe('19900');
  });

  it('cancels at the end of the period', async () => {
    await provider.cancelAtPeriodEnd(subscription, settings);
    expect(peer.requests).toHaveLength(1);
    expect(peer.requests[0]!.method).toBe('POST');
    expect(peer.requests[0]!.path).toBe('/v1/subscriptions/sub_123');
    expect(Object.fromEntries(peer.requests[0]!.form)).toEqual({ cancel_at_period_end: 'true' });
  });

  it("swaps the subscription's item to the new price", async () => {
    await provider.swap(subscription, { ...plan, id: 'plan-pro' }, 'price_pro', settings);
    expect(peer.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/subscriptions/sub_123',
      'POST /v1/subscriptions/sub_123',
    ]);
    expect(Object.fromEntries(peer.requests[1]!.form)).toEqual({
      'items[0][id]': 'si_1',
      'items[0][price]': 'price_pro',
      cancel_at_period_end: 'false',
      proration_behavior: 'create_prorations',
      'metadata[plan_id]': 'plan-pro',
      'metadata[user_id]': 'user-1',
    });
  });

  it("turns Stripe's refusal into a PaymentProviderError", async () => {
    const error = await provider
      .cancelAtPeriodEnd({ ...subscription, provider_subscription_id: 'sub_unknown' }, settings)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect(error).toMatchObject({ driver: 'stripe', reason: 'provider_rejected' });
    expect((error as Error).message).toContain('Unrecognized request URL');
  });
});

describe('stripe provider: webhooks', () => {
  const verify = (body: string, headers: Record<string, string | string[] | undefined>) =>
    provider.verifyWebhook(Buffer.from(body), headers, settings);

  const signed = (type: string, object: Record<string, unknown>, timestamp = nowSeconds) =>
    signStripeEvent(
      stripeEvent(type, object, { id: 'evt_1', created: nowSeconds - 10 }),
      WEBHOOK_SECRET,
      timestamp,
    );

  it('accepts a good signature and answers the event id, type and time', async () => {
    const { body, headers } = signed('customer.created', { id: 'cus_1', object: 'customer' });
    await expect(verify(body, headers)).resolves.toEqual({
      eventId: 'evt_1',
      type: 'customer.created',
      occurredAt: new Date((nowSeconds - 10) * 1000).toISOString(),
      effect: { kind: 'none' },
    });
  });

  it('accepts a signature within the 300 s tolerance of the injected clock', async () => {
    const { body, headers } = signed('customer.created', {}, nowSeconds - 299);
    await expect(verify(body, headers)).resolves.toMatchObject({ eventId: 'evt_1' });
  });

  it('refuses a stale signature (older than 300 s on the injected clock)', async () => {
    const { body, headers } = signed('customer.created', {}, nowSeconds - 301);
    await expect(verify(body, headers)).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(verify(body, headers)).rejects.toThrow(/tolerance/);
  });

  it('refuses a signature made with another secret', async () => {
    const { body, headers } = signStripeEvent(stripeEvent('customer.created', {}), 'whsec_other', nowSeconds);
    await expect(verify(body, headers)).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('refuses a body changed after signing', async () => {
    const { body, headers } = signed('invoice.paid', { id: 'in_1', amount_paid: 100, currency: 'usd' });
    const tampered = body.replace('"amount_paid":100', '"amount_paid":100000');
    expect(tampered).not.toBe(body);
    await expect(verify(tampered, headers)).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('refuses a missing, empty, repeated or malformed signature header', async () => {
    const { body, headers } = signed('customer.created', {});
    await expect(verify(body, {})).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(verify(body, { 'stripe-signature': '' })).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(
      verify(body, { 'stripe-signature': [headers['stripe-signature']!, headers['stripe-signature']!] }),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(verify(body, { 'stripe-signature': 'garbage' })).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    // The right timestamp with a signature of the wrong length.
    await expect(verify(body, { 'stripe-signature': `t=${nowSeconds},v1=abc123` })).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
  });

  it('refuses every webhook while no webhook secret is set', async () => {
    const { body, headers } = signed('customer.created', {});
    await expect(
      provider.verifyWebhook(Buffer.from(body), headers, { ...settings, stripe_webhook_secret: null }),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('reads checkout.session.completed in subscription mode as subscription.started', async () => {
    const { body, headers } = signed('checkout.session.completed', {
      id: 'cs_test_1',
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: 'user-1',
      subscription: 'sub_123',
      payment_status: 'paid',
      amount_total: 1999,
      currency: 'usd',
      metadata: { plan_id: 'plan-studio', user_id: 'user-1', reference: 'Ab12Cd34Ef' },
    });
    const event = await verify(body, headers);
    expect(event.effect).toEqual({
      kind: 'subscription.started',
      userId: 'user-1',
      plan: { id: 'plan-studio' },
      providerSubscriptionId: 'sub_123',
      renewsAt: null,
    });
  });

  it('starts a subscription only from a session paid or needing no payment; a delayed payment starts it when it succeeds', async () => {
    const session = {
      id: 'cs_test_4',
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: 'user-1',
      subscription: 'sub_123',
      metadata: { plan_id: 'plan-studio', user_id: 'user-1' },
    };
    const effect = async (type: string, paymentStatus?: string) => {
      const { body, headers } = signed(type, { ...session, payment_status: paymentStatus });
      return (await verify(body, headers)).effect.kind;
    };
    expect(await effect('checkout.session.completed', 'unpaid')).toBe('none');
    expect(await effect('checkout.session.completed')).toBe('none');
    expect(await effect('checkout.session.completed', 'no_payment_required')).toBe('subscription.started');
    expect(await effect('checkout.session.async_payment_succeeded', 'paid')).toBe('subscription.started');
  });

  it('reads a paid balance top-up session as payment.succeeded for the balance', async () => {
    const { body, headers } = signed('checkout.session.completed', {
      id: 'cs_test_2',
      object: 'checkout.session',
      mode: 'payment',
      client_reference_id: 'user-1',
      payment_status: 'paid',
      amount_total: 2500,
      currency: 'eur',
      metadata: { type: 'balance', reference: 'Top0Up1234' },
    });
    expect((await verify(body, headers)).effect).toEqual({
      kind: 'payment.succeeded',
      purpose: 'balance',
      reference: 'Top0Up1234',
      amountMinor: 2500,
      currency: 'EUR',
      userId: 'user-1',
      providerSubscriptionId: null,
    });
  });

  it("falls back to the session id as a top-up's reference, and credits an unpaid session once its payment succeeds", async () => {
    const session = {
      id: 'cs_test_3',
      object: 'checkout.session',
      mode: 'payment',
      client_reference_id: 'user-1',
      payment_status: 'paid',
      amount_total: 500,
      currency: 'usd',
      metadata: { type: 'balance' },
    };
    let signedEvent = signed('checkout.session.completed', session);
    expect((await verify(signedEvent.body, signedEvent.headers)).effect).toMatchObject({
      reference: 'cs_test_3',
    });
    signedEvent = signed('checkout.session.completed', { ...session, payment_status: 'unpaid' });
    expect((await verify(signedEvent.body, signedEvent.headers)).effect).toEqual({ kind: 'none' });
    // The delayed method's payment succeeds days later: the same session, paid, credits the top-up.
    signedEvent = signed('checkout.session.async_payment_succeeded', session);
    expect((await verify(signedEvent.body, signedEvent.headers)).effect).toMatchObject({
      kind: 'payment.succeeded',
      purpose: 'balance',
      reference: 'cs_test_3',
      amountMinor: 500,
      currency: 'USD',
    });
  });

  it('reads customer.subscription.updated (period end on the item, newer API versions) as subscription.changed', async () => {
    const { body, headers } = signed('customer.subscription.updated', {
      id: 'sub_123',
      object: 'subscription',
      cancel_at_period_end: true,
      metadata: { plan_id: 'plan-studio', user_id: 'user-1' },
      items: {
        object: 'list',
        data: [
          {
            id: 'si_1',
            current_period_end: nowSeconds + 86_400,
            price: { id: 'price_pro', object: 'price', metadata: { plan_id: 'plan-pro' } },
          },
        ],
      },
    });
    expect((await verify(body, headers)).effect).toEqual({
      kind: 'subscription.changed',
      providerSubscriptionId: 'sub_123',
      renewsAt: new Date((nowSeconds + 86_400) * 1000).toISOString(),
      cancelAtPeriodEnd: true,
      plan: { id: 'plan-pro' },
    });
  });

  it('reads the period end on the subscription (older API versions), the plan by price id when nothing names ours', async () => {
    const { body, headers } = signed('customer.subscription.updated', {
      id: 'sub_123',
      object: 'subscription',
      cancel_at_period_end: false,
      current_period_end: nowSeconds + 3600,
      metadata: {},
      items: { object: 'list', data: [{ id: 'si_1', price: { id: 'price_elsewhere', metadata: {} } }] },
    });
    expect((await verify(body, headers)).effect).toEqual({
      kind: 'subscription.changed',
      providerSubscriptionId: 'sub_123',
      renewsAt: new Date((nowSeconds + 3600) * 1000).toISOString(),
      cancelAtPeriodEnd: false,
      plan: { providerPlanId: 'price_elsewhere' },
    });
  });

  it("names the plan from the subscription's metadata when its price was made inline at checkout", async () => {
    const { body, headers } = signed('customer.subscription.updated', {
      id: 'sub_123',
      cancel_at_period_end: false,
      metadata: { plan_id: 'plan-studio' },
      items: {
        data: [{ id: 'si_1', current_period_end: nowSeconds, price: { id: 'price_inline', metadata: {} } }],
      },
    });
    expect((await verify(body, headers)).effect).toMatchObject({ plan: { id: 'plan-studio' } });
  });

  it('reads a subscription Stripe stopped billing (unpaid, incomplete_expired, canceled) as subscription.ended', async () => {
    for (const status of ['unpaid', 'incomplete_expired', 'canceled']) {
      const { body, headers } = signed('customer.subscription.updated', {
        id: 'sub_123',
        object: 'subscription',
        status,
        cancel_at_period_end: false,
        current_period_end: nowSeconds + 3600,
        metadata: { plan_id: 'plan-studio' },
      });
      expect((await verify(body, headers)).effect, status).toEqual({
        kind: 'subscription.ended',
        providerSubscriptionId: 'sub_123',
      });
    }
    const { body, headers } = signed('customer.subscription.updated', {
      id: 'sub_123',
      object: 'subscription',
      status: 'past_due',
      cancel_at_period_end: false,
      metadata: { plan_id: 'plan-studio' },
    });
    expect((await verify(body, headers)).effect.kind).toBe('subscription.changed');
  });

  it('reads customer.subscription.deleted as subscription.ended', async () => {
    const { body, headers } = signed('customer.subscription.deleted', {
      id: 'sub_123',
      object: 'subscription',
    });
    expect((await verify(body, headers)).effect).toEqual({
      kind: 'subscription.ended',
      providerSubscriptionId: 'sub_123',
    });
  });

  it('reads invoice.paid (subscription under parent, newer API versions) as payment.succeeded', async () => {
    const { body, headers } = signed('invoice.paid', {
      id: 'in_1',
      object: 'invoice',
      amount_paid: 1999,
      amount_due: 1999,
      currency: 'usd',
      parent: {
        type: 'subscription_details',
        subscription_details: {
          subscription: 'sub_123',
          metadata: { plan_id: 'plan-studio', user_id: 'user-1' },
        },
      },
    });
    expect((await verify(body, headers)).effect).toEqual({
      kind: 'payment.succeeded',
      purpose: 'subscription',
      reference: 'in_1',
      amountMinor: 1999,
      currency: 'USD',
      userId: 'user-1',
      providerSubscriptionId: 'sub_123',
    });
  });

  it('reads invoice.paid with the subscription at the top level (older API versions)', async () => {
    const { body, headers } = signed('invoice.paid', {
      id: 'in_2',
      object: 'invoice',
      amount_paid: 500,
      currency: 'jpy',
      subscription: 'sub_old',
    });
    expect((await verify(body, headers)).effect).toEqual({
      kind: 'payment.succeeded',
      purpose: 'subscription',
      reference: 'in_2',
      amountMinor: 500,
      currency: 'JPY',
      userId: null,
      providerSubscriptionId: 'sub_old',
    });
  });

  it('reads invoice.payment_failed as payment.failed', async () => {
    const { body, headers } = signed('invoice.payment_failed', {
      id: 'in_3',
      object: 'invoice',
      amount_paid: 0,
      amount_due: 1999,
      currency: 'usd',
      parent: { subscription_details: { subscription: 'sub_123', metadata: { user_id: 'user-1' } } },
    });
    expect((await verify(body, headers)).effect).toEqual({
      kind: 'payment.failed',
      reference: 'in_3',
      amountMinor: 1999,
      currency: 'USD',
      userId: 'user-1',
      providerSubscriptionId: 'sub_123',
    });
  });

  it('answers none for events the ledger does not use', async () => {
    const { body, headers } = signed('payment_intent.created', { id: 'pi_1' });
    expect(await verify(body, headers)).toMatchObject({
      type: 'payment_intent.created',
      effect: { kind: 'none' },
    });
  });
});
