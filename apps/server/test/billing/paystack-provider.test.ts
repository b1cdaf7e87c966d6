import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanRow, SubscriptionRow } from '../../src/modules/billing/billing.tables';
import { WebhookSignatureError } from '../../src/modules/billing/payment-provider';
import { PaystackProvider } from '../../src/modules/billing/providers/paystack.provider';
import { PaymentProviderError } from '../../src/modules/billing/providers/provider-error';
import { SETTING_DEFAULTS, type Settings } from '../../src/modules/settings/settings.defaults';
import { checkoutRequest } from '../support/checkout-request';
import { startProviderPeer, type ProviderPeer } from '../support/provider-peer';
import { signPaystackEvent } from '../support/signed-webhooks';

// The Paystack API here is a real local HTTP server (test/support/provider-peer.ts) answering JSON
// as Paystack does ({ status, message, data }); the provider calls it with fetch as it would Paystack.

const SECRET_KEY = 'sk_test_paystack_secret';
const settings: Settings = {
  ...SETTING_DEFAULTS,
  currency: 'NGN',
  paystack_public_key: 'pk_test_paystack_public',
  paystack_secret_key: SECRET_KEY,
};

/** The injected clock. */
const NOW = new Date('2026-11-24T06:00:00.000Z');

const plan: PlanRow = {
  id: 'plan-studio',
  type: 'fixed',
  name: 'Studio',
  description: 'For small teams',
  currency: 'NGN',
  status: 'active',
  amount_minor: 500_000,
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
  driver: 'paystack',
  provider_subscription_id: 'SUB_vsyqdmlzble3uii',
  renews_at: '2026-12-24T06:00:00.000Z',
  ends_at: null,
  provider_updated_at: null,
  created_at: NOW.toISOString(),
  updated_at: NOW.toISOString(),
};

const payer = { id: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' };

let peer: ProviderPeer;
let provider: PaystackProvider;

beforeAll(async () => {
  peer = await startProviderPeer({
    'POST /plan': (request) => [
      201,
      {
        status: true,
        message: 'Plan created',
        data: { ...(request.json as object), plan_code: 'PLN_gx2wn530m0i3w3m', id: 49122 },
      },
    ],
    'GET /subscription/SUB_vsyqdmlzble3uii': () => [
      200,
      {
        status: true,
        message: 'Subscription retrieved successfully',
        data: { subscription_code: 'SUB_vsyqdmlzble3uii', email_token: 'd7gofp6yppn3qz7', status: 'active' },
      },
    ],
    'POST /subscription/disable': () => [
      200,
      { status: true, message: 'Subscription disabled successfully' },
    ],
    'GET /subscription/SUB_gone': () => [404, { status: false, message: 'Subscription not found' }],
  });
  provider = new PaystackProvider({ baseUrl: peer.url, now: () => NOW });
});
afterAll(() => peer.close());
beforeEach(() => {
  peer.requests.length = 0;
});

describe('paystack provider: API calls', () => {
  it('is configured with a public and a secret key', () => {
    expect(provider.configured(settings)).toBe(true);
    expect(provider.configured({ ...settings, paystack_public_key: null })).toBe(false);
    expect(provider.configured({ ...settings, paystack_secret_key: null })).toBe(false);
  });

  it('answers the public key for a registered plan and sends nothing to Paystack', async () => {
    const session = await provider.createCheckout(
      checkoutRequest(payer, { kind: 'plan', plan, providerPlanId: 'PLN_gx2wn530m0i3w3m' }, 'Ab12Cd34Ef'),
      settings,
    );
    expect(session).toEqual({ publicKey: 'pk_test_paystack_public' });
    expect(peer.requests).toHaveLength(0);
  });

  it('answers the public key for a balance top-up and sends nothing to Paystack', async () => {
    const session = await provider.createCheckout(
      checkoutRequest(payer, { kind: 'balance', amountMinor: 250_000, currency: 'NGN' }, 'Top0Up1234'),
      settings,
    );
    expect(session).toEqual({ publicKey: 'pk_test_paystack_public' });
    expect(peer.requests).toHaveLength(0);
  });

  it('refuses a plan not registered yet (a charge without a plan code would never renew), a metered plan, and no key', async () => {
    const request = checkoutRequest(
      payer,
      { kind: 'plan' as const, plan, providerPlanId: null },
      'Ab12Cd34Ef',
    );
    await expect(provider.createCheckout(request, settings)).rejects.toMatchObject({
      name: 'PaymentProviderError',
      driver: 'paystack',
      reason: 'plan_not_registered',
    });
    await expect(
      provider.createCheckout(
        {
          ...request,
          purpose: { kind: 'plan', plan: { ...plan, type: 'metered' }, providerPlanId: 'PLN_x' },
        },
        settings,
      ),
    ).rejects.toMatchObject({ reason: 'plan_unsupported' });
    await expect(
      provider.createCheckout(
        { ...request, purpose: { kind: 'plan', plan, providerPlanId: 'PLN_x' } },
        { ...settings, paystack_public_key: null },
      ),
    ).rejects.toMatchObject({ reason: 'not_configured' });
    expect(peer.requests).toHaveLength(0);
  });

  it('registers a plan with POST /plan (subunits, monthly, currency) and answers its plan code', async () => {
    await expect(provider.registerPlan(plan, settings)).resolves.toBe('PLN_gx2wn530m0i3w3m');
    expect(peer.requests).toHaveLength(1);
    const [request] = peer.requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/plan');
    expect(request!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.json).toEqual({
      name: 'Studio',
      description: 'For small teams',
      amount: 500_000,
      interval: 'monthly',
      currency: 'NGN',
    });
  });

  it('registers a yearly plan as annually', async () => {
    await provider.registerPlan({ ...plan, interval: 'year', description: '' }, settings);
    expect(peer.requests[0]!.json).toEqual({
      name: 'Studio',
      amount: 500_000,
      interval: 'annually',
      currency: 'NGN',
    });
  });

  it('cancels by fetching the e-mail token, then POST /subscription/disable with code and token', async () => {
    await provider.cancelAtPeriodEnd(subscription, settings);
    expect(peer.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /subscription/SUB_vsyqdmlzble3uii',
      'POST /subscription/disable',
    ]);
    expect(peer.requests[1]!.json).toEqual({ code: 'SUB_vsyqdmlzble3uii', token: 'd7gofp6yppn3qz7' });
    expect(peer.requests.every((r) => r.headers.authorization === `Bearer ${SECRET_KEY}`)).toBe(true);
  });

  it("turns Paystack's refusal into a PaymentProviderError", async () => {
    const error = await provider
      .cancelAtPeriodEnd({ ...subscription, provider_subscription_id: 'SUB_gone' }, settings)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect(error).toMatchObject({ reason: 'provider_rejected', message: 'Paystack: Subscription not found' });
  });

  it('refuses a swap before any call, so nothing changes', async () => {
    await expect(provider.swap()).rejects.toMatchObject({
      name: 'PaymentProviderError',
      driver: 'paystack',
      reason: 'swap_unsupported',
    });
    expect(peer.requests).toHaveLength(0);
  });
});

describe('paystack provider: webhooks', () => {
  const verify = (body: string, headers: Record<string, string | string[] | undefined>) =>
    provider.verifyWebhook(Buffer.from(body), headers, settings);
  const signed = (event: string, data: Record<string, unknown>) =>
    signPaystackEvent({ event, data }, SECRET_KEY);

  it('accepts the HMAC-SHA512 of the raw body with the secret key, upper- or lower-case hex', async () => {
    const { body, headers } = signed('charge.dispute.create', { id: 1 });
    await expect(verify(body, headers)).resolves.toMatchObject({
      type: 'charge.dispute.create',
      effect: { kind: 'none' },
    });
    const upper = { 'x-paystack-signature': headers['x-paystack-signature']!.toUpperCase() };
    await expect(verify(body, upper)).resolves.toMatchObject({ type: 'charge.dispute.create' });
  });

  it('refuses a missing, repeated, wrong-length, non-hex or wrong signature, and a changed body', async () => {
    const { body, headers } = signed('charge.success', { reference: 'Ab12Cd34Ef', amount: 500_000 });
    const good = headers['x-paystack-signature']!;
    const refusals: Array<[string, Record<string, string | string[] | undefined>, string?]> = [
      ['missing', {}],
      ['empty', { 'x-paystack-signature': '' }],
      ['repeated', { 'x-paystack-signature': [good, good] }],
      ['too short', { 'x-paystack-signature': good.slice(0, 64) }],
      ['too long', { 'x-paystack-signature': `${good}00` }],
      ['odd length', { 'x-paystack-signature': good.slice(0, 127) }],
      ['not hex', { 'x-paystack-signature': `${good.slice(0, 126)}zz` }],
      ['any header', { 'x-paystack-signature': 'true' }],
      [
        'another key',
        { 'x-paystack-signature': createHmac('sha512', 'sk_other').update(body).digest('hex') },
      ],
      ['changed body', headers, body.replace('500000', '5000000')],
    ];
    for (const [name, candidate, otherBody] of refusals) {
      await expect(verify(otherBody ?? body, candidate), name).rejects.toBeInstanceOf(WebhookSignatureError);
    }
  });

  it('refuses every webhook while no secret key is set', async () => {
    const { body, headers } = signed('charge.success', {});
    await expect(
      provider.verifyWebhook(Buffer.from(body), headers, { ...settings, paystack_secret_key: null }),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('refuses a signed body that is not a Paystack event', async () => {
    const body = '["not", "an", "event"]';
    const signature = createHmac('sha512', SECRET_KEY).update(body).digest('hex');
    await expect(verify(body, { 'x-paystack-signature': signature })).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
  });

  const charge = {
    id: 302961,
    domain: 'test',
    status: 'success',
    reference: 'Ab12Cd34Ef',
    amount: 500_000,
    paid_at: '2026-11-24T05:59:00.000Z',
    created_at: '2026-11-24T05:58:00.000Z',
    currency: 'NGN',
    metadata: { user_id: 'user-1', plan_id: 'plan-studio' },
    customer: { email: 'ada@example.com', customer_code: 'CUS_xnxdt6s1zg1f4nx', metadata: null },
    plan: { plan_code: 'PLN_gx2wn530m0i3w3m' },
  };

  it("reads a plan checkout's charge.success as the subscription's payment, keyed by its reference", async () => {
    const { body, headers } = signed('charge.success', charge);
    expect(await verify(body, headers)).toEqual({
      eventId: 'charge.success:Ab12Cd34Ef',
      type: 'charge.success',
      occurredAt: '2026-11-24T05:59:00.000Z',
      effect: {
        kind: 'payment.succeeded',
        purpose: 'subscription',
        reference: 'Ab12Cd34Ef',
        amountMinor: 500_000,
        currency: 'NGN',
        userId: 'user-1',
        providerSubscriptionId: null,
      },
    });
  });

  it("reads a top-up's charge.success as a balance payment, metadata as an object or JSON text", async () => {
    for (const metadata of [
      { user_id: 'user-1', type: 'balance' },
      JSON.stringify({ user_id: 'user-1', type: 'balance' }),
    ]) {
      const { body, headers } = signed('charge.success', {
        ...charge,
        reference: 'Top0Up1234',
        amount: 250_000,
        currency: 'ghs',
        metadata,
        plan: {},
      });
      expect((await verify(body, headers)).effect).toEqual({
        kind: 'payment.succeeded',
        purpose: 'balance',
        reference: 'Top0Up1234',
        amountMinor: 250_000,
        currency: 'GHS',
        userId: 'user-1',
        providerSubscriptionId: null,
      });
    }
  });

  it('leaves a charge without our metadata (a renewal, or another integration) to other events', async () => {
    for (const metadata of ['', null, {}, { user_id: 'user-1' }]) {
      const { body, headers } = signed('charge.success', { ...charge, metadata });
      expect((await verify(body, headers)).effect).toEqual({ kind: 'none' });
    }
  });

  it('reads subscription.create as subscription.started by plan code, naming the payer by e-mail', async () => {
    const { body, headers } = signed('subscription.create', {
      domain: 'test',
      status: 'active',
      subscription_code: 'SUB_vsyqdmlzble3uii',
      email_token: 'd7gofp6yppn3qz7',
      amount: 500_000,
      next_payment_date: '2026-12-24T06:00:00.000Z',
      createdAt: '2026-11-24T05:59:30.000Z',
      plan: { name: 'Studio', plan_code: 'PLN_gx2wn530m0i3w3m', interval: 'monthly', currency: 'NGN' },
      customer: { email: 'ada@example.com', customer_code: 'CUS_xnxdt6s1zg1f4nx', metadata: {} },
    });
    expect(await verify(body, headers)).toEqual({
      eventId: 'subscription.create:SUB_vsyqdmlzble3uii',
      type: 'subscription.create',
      occurredAt: '2026-11-24T05:59:30.000Z',
      effect: {
        kind: 'subscription.started',
        userId: '',
        payerEmail: 'ada@example.com',
        plan: { providerPlanId: 'PLN_gx2wn530m0i3w3m' },
        providerSubscriptionId: 'SUB_vsyqdmlzble3uii',
        renewsAt: '2026-12-24T06:00:00.000Z',
      },
    });
  });

  it('finds the user by the e-mail the checkout gave Paystack when a lookup is given', async () => {
    const asked: string[] = [];
    const withLookup = new PaystackProvider({
      baseUrl: peer.url,
      now: () => NOW,
      userIdByEmail: async (email) => {
        asked.push(email);
        return email === 'ada@example.com' ? 'user-1' : null;
      },
    });
    const started = (email: string) =>
      signed('subscription.create', {
        subscription_code: 'SUB_1',
        plan: { plan_code: 'PLN_1' },
        customer: { email, metadata: {} },
      });
    let event = started('ada@example.com');
    expect(
      (await withLookup.verifyWebhook(Buffer.from(event.body), event.headers, settings)).effect,
    ).toMatchObject({ kind: 'subscription.started', userId: 'user-1', payerEmail: 'ada@example.com' });
    event = started('nobody@example.com');
    expect(
      (await withLookup.verifyWebhook(Buffer.from(event.body), event.headers, settings)).effect,
    ).toMatchObject({ kind: 'subscription.started', userId: '' });
    expect(asked).toEqual(['ada@example.com', 'nobody@example.com']);
    expect(peer.requests).toHaveLength(0);
  });

  it("takes the user id from the customer's metadata when it is there", async () => {
    const { body, headers } = signed('subscription.create', {
      subscription_code: 'SUB_1',
      plan: { plan_code: 'PLN_1' },
      customer: { email: 'ada@example.com', metadata: { user_id: 'user-1' } },
    });
    expect((await verify(body, headers)).effect).toMatchObject({ userId: 'user-1', renewsAt: null });
  });

  it('reads subscription.disable of a non-renewing subscription (or one paid ahead) as cancelled at period end', async () => {
    for (const data of [
      { status: 'non-renewing', next_payment_date: null },
      { status: 'cancelled', next_payment_date: '2026-12-24T06:00:00.000Z' },
    ]) {
      const { body, headers } = signed('subscription.disable', {
        subscription_code: 'SUB_vsyqdmlzble3uii',
        createdAt: '2026-10-24T06:00:00.000Z',
        ...data,
      });
      const event = await verify(body, headers);
      expect(event).toMatchObject({
        eventId: 'subscription.disable:SUB_vsyqdmlzble3uii',
        // The object's only time is its creation: the receipt time keeps the change newer than the start.
        occurredAt: NOW.toISOString(),
      });
      expect(event.effect).toEqual({
        kind: 'subscription.changed',
        providerSubscriptionId: 'SUB_vsyqdmlzble3uii',
        renewsAt: data.next_payment_date,
        cancelAtPeriodEnd: true,
      });
    }
  });

  it('reads subscription.disable of a finished subscription as subscription.ended', async () => {
    for (const status of ['complete', 'cancelled']) {
      const { body, headers } = signed('subscription.disable', {
        subscription_code: 'SUB_vsyqdmlzble3uii',
        status,
        next_payment_date: null,
      });
      expect((await verify(body, headers)).effect).toEqual({
        kind: 'subscription.ended',
        providerSubscriptionId: 'SUB_vsyqdmlzble3uii',
      });
    }
  });

  it('reads subscription.not_renew as cancelled at period end', async () => {
    const { body, headers } = signed('subscription.not_renew', {
      subscription_code: 'SUB_vsyqdmlzble3uii',
      status: 'non-renewing',
      next_payment_date: '2026-12-24T06:00:00.000Z',
    });
    expect((await verify(body, headers)).effect).toEqual({
      kind: 'subscription.changed',
      providerSubscriptionId: 'SUB_vsyqdmlzble3uii',
      renewsAt: '2026-12-24T06:00:00.000Z',
      cancelAtPeriodEnd: true,
    });
  });

  const invoice = {
    domain: 'test',
    invoice_code: 'INV_thy2vkmirn2urwv',
    amount: 500_000,
    period_start: '2026-12-24T06:00:00.000Z',
    period_end: '2027-01-24T06:00:00.000Z',
    created_at: '2026-12-21T06:00:00.000Z',
    subscription: {
      subscription_code: 'SUB_vsyqdmlzble3uii',
      status: 'active',
      next_payment_date: '2027-01-24T06:00:00.000Z',
    },
    customer: { email: 'ada@example.com', customer_code: 'CUS_xnxdt6s1zg1f4nx', metadata: {} },
  };

  it('reads invoice.payment_failed as payment.failed of the subscription, one event per attempt', async () => {
    const { body, headers } = signed('invoice.payment_failed', {
      ...invoice,
      status: 'failed',
      paid: false,
      transaction: { reference: 'T928379374', status: 'failed', amount: 500_000, currency: 'NGN' },
    });
    expect(await verify(body, headers)).toEqual({
      eventId: 'invoice.payment_failed:INV_thy2vkmirn2urwv:T928379374',
      type: 'invoice.payment_failed',
      occurredAt: '2026-12-21T06:00:00.000Z',
      effect: {
        kind: 'payment.failed',
        reference: 'T928379374',
        amountMinor: 500_000,
        currency: 'NGN',
        userId: null,
        providerSubscriptionId: 'SUB_vsyqdmlzble3uii',
      },
    });
  });

  it("falls back to the invoice code and the instance's currency when the attempt has no transaction", async () => {
    const { body, headers } = signed('invoice.payment_failed', { ...invoice, status: 'failed', paid: false });
    const event = await verify(body, headers);
    expect(event.eventId).toBe('invoice.payment_failed:INV_thy2vkmirn2urwv:failed');
    expect(event.effect).toMatchObject({
      kind: 'payment.failed',
      reference: 'INV_thy2vkmirn2urwv',
      currency: 'NGN',
    });
  });

  it("reads a paid invoice.update (a renewal) as the subscription's payment; an unpaid one as nothing", async () => {
    const paid = signed('invoice.update', {
      ...invoice,
      status: 'success',
      paid: true,
      paid_at: '2026-12-24T06:01:00.000Z',
      transaction: { reference: 'T1000000001', status: 'success', amount: 500_000, currency: 'NGN' },
    });
    expect(await verify(paid.body, paid.headers)).toEqual({
      eventId: 'invoice.update:INV_thy2vkmirn2urwv:T1000000001',
      type: 'invoice.update',
      occurredAt: '2026-12-24T06:01:00.000Z',
      effect: {
        kind: 'payment.succeeded',
        purpose: 'subscription',
        reference: 'T1000000001',
        amountMinor: 500_000,
        currency: 'NGN',
        userId: null,
        providerSubscriptionId: 'SUB_vsyqdmlzble3uii',
        renewsAt: '2027-01-24T06:00:00.000Z',
      },
    });
    const pending = signed('invoice.update', { ...invoice, status: 'pending', paid: false });
    expect((await verify(pending.body, pending.headers)).effect).toEqual({ kind: 'none' });
  });

  it('gives the same id to the same event sent again, and keys unknown events by their body', async () => {
    const first = signed('charge.success', charge);
    const again = signed('charge.success', { ...charge, paid_at: '2026-11-24T05:59:01.000Z' });
    expect((await verify(first.body, first.headers)).eventId).toBe(
      (await verify(again.body, again.headers)).eventId,
    );
    const other = signed('transfer.success', { amount: 1 });
    expect((await verify(other.body, other.headers)).eventId).toMatch(
      /^transfer\.success:sha256:[0-9a-f]{64}$/,
    );
  });
});
