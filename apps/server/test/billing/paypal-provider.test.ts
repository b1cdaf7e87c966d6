import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import type { Agent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { sign, type KeyObject } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanRow, SubscriptionRow } from '../../src/modules/billing/billing.tables';
import { WebhookSignatureError, type CheckoutRequest } from '../../src/modules/billing/payment-provider';
import {
  allowedCertificateUrl,
  PayPalApiError,
  PayPalProvider,
} from '../../src/modules/billing/providers/paypal.provider';
import {
  PaymentApprovalRequired,
  PaymentProviderError,
} from '../../src/modules/billing/providers/provider-error';
import { SETTING_DEFAULTS, type Settings } from '../../src/modules/settings/settings.defaults';
import {
  paypalEvent,
  signPayPalEvent,
  startPayPalCertificatePeer,
  type PayPalCertificatePeer,
} from '../support/paypal-certificate-peer';

/*
 * Two real local peers stand in for PayPal:
 * - an HTTP server playing PayPal's REST API (token, catalog products, plans, subscriptions,
 *   orders), recording every request so the tests check their shapes and the token's reuse;
 * - an HTTPS server with a test CA's certificate for api.paypal.com serving webhook signing
 *   certificates. The provider reaches it through an agent that resolves that name to 127.0.0.1,
 *   trusts the test CA and dials the peer's port, so the paypal.com host check stays as strict as
 *   in production. Webhooks are signed with the signing certificate's private key.
 */

const WEBHOOK_ID = '8PT597110X687430LKGECATA';
const settings: Settings = {
  ...SETTING_DEFAULTS,
  paypal_client_id: 'client-id',
  paypal_secret: 'client-secret',
  paypal_webhook_id: WEBHOOK_ID,
};

interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let clock = new Date('2026-03-02T10:00:00.000Z');
const now = () => clock;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** PayPal's REST API, as much of it as the provider calls. */
function startApiPeer() {
  const requests: Recorded[] = [];
  const captured = new Set<string>();
  const state = { tokensIssued: 0, expiresIn: 32_400, failPlans: false };
  const server = createHttpServer(async (request, response) => {
    const body = await readBody(request);
    const path = request.url ?? '';
    requests.push({ method: request.method ?? '', path, headers: request.headers, body });
    const answer = (status: number, json?: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(json === undefined ? undefined : JSON.stringify(json));
    };
    if (path === '/v1/oauth2/token') {
      const expected = `Basic ${Buffer.from('client-id:client-secret').toString('base64')}`;
      if (request.headers.authorization !== expected) return answer(401, { error: 'invalid_client' });
      state.tokensIssued += 1;
      return answer(200, {
        scope: 'https://uri.paypal.com/services/subscriptions',
        access_token: `A21AA-token-${state.tokensIssued}`,
        token_type: 'Bearer',
        app_id: 'APP-80W284485P519543T',
        expires_in: state.expiresIn,
        nonce: 'nonce',
      });
    }
    if (!request.headers.authorization?.startsWith('Bearer A21AA-token-')) {
      return answer(401, { name: 'AUTHENTICATION_FAILURE' });
    }
    if (path === '/v1/catalogs/products') return answer(201, { id: 'PROD-5FD17338DH1290436' });
    if (path === '/v1/billing/plans') {
      if (state.failPlans) {
        return answer(400, {
          name: 'INVALID_REQUEST',
          debug_id: 'f8b1c3a0e9d2',
          details: [{ issue: 'CURRENCY_NOT_SUPPORTED' }],
        });
      }
      return answer(201, { id: 'P-5ML4271244454362WXNWU5NQ', status: 'ACTIVE' });
    }
    if (path === '/v1/billing/subscriptions') {
      return answer(201, {
        id: 'I-BW452GLLEP1G',
        status: 'APPROVAL_PENDING',
        links: [
          {
            href: 'https://www.paypal.com/webapps/billing/subscriptions?ba_token=BA-2M5',
            rel: 'approve',
            method: 'GET',
          },
          {
            href: 'https://api-m.paypal.com/v1/billing/subscriptions/I-BW452GLLEP1G',
            rel: 'self',
            method: 'GET',
          },
        ],
      });
    }
    if (path === '/v2/checkout/orders') {
      return answer(200, {
        id: '5O190127TN364715T',
        status: 'PAYER_ACTION_REQUIRED',
        links: [
          {
            href: 'https://api-m.paypal.com/v2/checkout/orders/5O190127TN364715T',
            rel: 'self',
            method: 'GET',
          },
          {
            href: 'https://www.paypal.com/checkoutnow?token=5O190127TN364715T',
            rel: 'payer-action',
            method: 'GET',
          },
        ],
      });
    }
    const capture = /^\/v2\/checkout\/orders\/([^/]+)\/capture$/.exec(path);
    if (capture) {
      if (captured.has(capture[1]!)) {
        return answer(422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_ALREADY_CAPTURED' }] });
      }
      captured.add(capture[1]!);
      return answer(201, { id: capture[1], status: 'COMPLETED' });
    }
    const cancel = /^\/v1\/billing\/subscriptions\/([^/]+)\/cancel$/.exec(path);
    if (cancel) {
      if (cancel[1] === 'I-ALREADYGONE') {
        return answer(422, {
          name: 'UNPROCESSABLE_ENTITY',
          details: [{ issue: 'SUBSCRIPTION_STATUS_INVALID' }],
        });
      }
      if (cancel[1] === 'I-MISSING') return answer(404, { name: 'RESOURCE_NOT_FOUND' });
      return answer(204);
    }
    const revise = /^\/v1\/billing\/subscriptions\/([^/]+)\/revise$/.exec(path);
    if (revise) {
      const planId = (JSON.parse(body) as { plan_id: string }).plan_id;
      // A plan at the same price needs no approval; another price does.
      if (planId === 'P-SAMEPRICE00000000000000') return answer(200, { plan_id: planId, links: [] });
      return answer(200, {
        plan_id: planId,
        links: [
          {
            href: 'https://www.paypal.com/webapps/billing/subscriptions/update?ba_token=BA-9',
            rel: 'approve',
          },
        ],
      });
    }
    return answer(404, { name: 'RESOURCE_NOT_FOUND' });
  });
  return { server, requests, state };
}

const plan = (overrides: Partial<PlanRow> = {}): PlanRow => ({
  id: 'plan_studio',
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
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const subscription = (overrides: Partial<SubscriptionRow> = {}): SubscriptionRow => ({
  id: 'sub_1',
  user_id: 'user_1',
  plan_id: 'plan_studio',
  status: 'active',
  driver: 'paypal',
  provider_subscription_id: 'I-BW452GLLEP1G',
  renews_at: '2026-04-02T10:00:00.000Z',
  ends_at: null,
  provider_updated_at: null,
  created_at: '2026-03-02T10:00:00.000Z',
  updated_at: '2026-03-02T10:00:00.000Z',
  ...overrides,
});

const payer = { id: 'user_1', name: 'Ada Lovelace', email: 'ada@example.test' };

let api: ReturnType<typeof startApiPeer>;
let certs: PayPalCertificatePeer;
let agent: Agent;
let apiBase: string;

beforeAll(async () => {
  api = startApiPeer();
  certs = await startPayPalCertificatePeer();
  await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
  apiBase = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
  agent = certs.agent();
});

afterAll(async () => {
  await certs.close();
  await new Promise((resolve) => api.server.close(resolve));
});

beforeEach(() => {
  clock = new Date('2026-03-02T10:00:00.000Z');
  api.requests.length = 0;
  api.state.expiresIn = 32_400;
  api.state.failPlans = false;
  certs.hits.clear();
});

const makeProvider = (options: { certificateTimeoutMs?: number } = {}) =>
  new PayPalProvider({ baseUrl: apiBase, now, certificateAgent: agent, ...options });

function signedWebhook(
  payload: Record<string, unknown>,
  options: {
    certPath?: string;
    certUrl?: string;
    webhookId?: string;
    time?: Date;
    algo?: string;
    key?: KeyObject;
  } = {},
) {
  return signPayPalEvent(payload, {
    key: options.key ?? certs.signing.key,
    webhookId: options.webhookId ?? WEBHOOK_ID,
    time: options.time ?? clock,
    certName: options.certPath,
    certUrl: options.certUrl,
    algo: options.algo,
  });
}

const event = (eventType: string, resource: Record<string, unknown>) => paypalEvent(eventType, resource);

const activatedResource = {
  id: 'I-BW452GLLEP1G',
  plan_id: 'P-5ML4271244454362WXNWU5NQ',
  status: 'ACTIVE',
  custom_id: 'user_1',
  billing_info: { next_billing_time: '2026-04-02T10:00:00Z', failed_payments_count: 0 },
};
const activated = event('BILLING.SUBSCRIPTION.ACTIVATED', activatedResource);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('crc32 of the signed message', () => {
  it('is the unsigned IEEE CRC-32 (known vectors)', () => {
    expect(crc32(Buffer.from(''))).toBe(0);
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.from('123456789')).toString()).toBe('3421780262');
    expect(crc32(Buffer.from('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
  });
});

describe('PayPal REST API', () => {
  it('registers a plan: a catalog product, then a monthly plan at the decimal price', async () => {
    const id = await makeProvider().registerPlan(plan(), settings);
    expect(id).toBe('P-5ML4271244454362WXNWU5NQ');
    const [token, product, created] = api.requests;
    expect(token!.path).toBe('/v1/oauth2/token');
    expect(token!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(token!.body).toBe('grant_type=client_credentials');
    expect(product!.path).toBe('/v1/catalogs/products');
    expect(product!.headers.authorization).toBe('Bearer A21AA-token-1');
    expect(product!.headers['paypal-request-id']).toBe('atelier-product-plan_studio');
    expect(JSON.parse(product!.body)).toMatchObject({ name: 'Studio', type: 'SERVICE' });
    expect(created!.path).toBe('/v1/billing/plans');
    expect(JSON.parse(created!.body)).toEqual({
      product_id: 'PROD-5FD17338DH1290436',
      name: 'Studio',
      description: 'For small teams',
      status: 'ACTIVE',
      billing_cycles: [
        {
          frequency: { interval_unit: 'MONTH', interval_count: 1 },
          tenure_type: 'REGULAR',
          sequence: 1,
          total_cycles: 0,
          pricing_scheme: { fixed_price: { value: '19.99', currency_code: 'USD' } },
        },
      ],
      payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: 3 },
    });
  });

  it('registers a yearly plan in a currency without minor units', async () => {
    await makeProvider().registerPlan(
      plan({ interval: 'year', currency: 'JPY', amount_minor: 5000 }),
      settings,
    );
    const created = JSON.parse(api.requests.at(-1)!.body) as {
      billing_cycles: { frequency: unknown; pricing_scheme: unknown }[];
    };
    expect(created.billing_cycles[0]!.frequency).toEqual({ interval_unit: 'YEAR', interval_count: 1 });
    expect(created.billing_cycles[0]!.pricing_scheme).toEqual({
      fixed_price: { value: '5000', currency_code: 'JPY' },
    });
  });

  it('refuses a metered plan without calling PayPal', async () => {
    const error = await rejection(
      makeProvider().registerPlan(plan({ type: 'metered', amount_minor: null, interval: null }), settings),
    );
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect((error as PaymentProviderError).reason).toBe('plan_unsupported');
    expect(String(error)).toMatch(/metered/);
    expect(api.requests).toHaveLength(0);
  });

  it("says PayPal's refusal with its issue and debug id, never the whole answer", async () => {
    api.state.failPlans = true;
    const error = await rejection(makeProvider().registerPlan(plan(), settings));
    expect(error).toBeInstanceOf(PayPalApiError);
    expect((error as PayPalApiError).reason).toBe('provider_rejected');
    expect((error as PayPalApiError).status).toBe(400);
    expect((error as Error).message).toBe(
      'PayPal create plan failed: 400 CURRENCY_NOT_SUPPORTED (debug id f8b1c3a0e9d2)',
    );
  });

  it('says an unreachable PayPal or missing credentials as provider errors', async () => {
    const closed = createHttpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const offline = new PayPalProvider({ baseUrl: `http://127.0.0.1:${port}`, now });
    const error = await rejection(offline.registerPlan(plan(), settings));
    expect((error as PaymentProviderError).reason).toBe('provider_rejected');
    expect((error as Error).message).toBe('PayPal sign-in: unreachable');

    const unset = await rejection(makeProvider().registerPlan(plan(), { ...settings, paypal_secret: null }));
    expect((unset as PaymentProviderError).reason).toBe('not_configured');
    expect(api.requests).toHaveLength(0);
  });

  it('reuses the token until shortly before it expires, and asks again for new credentials', async () => {
    const provider = makeProvider();
    api.state.expiresIn = 3600;
    await provider.registerPlan(plan(), settings);
    await provider.registerPlan(plan(), settings);
    expect(api.requests.filter((r) => r.path === '/v1/oauth2/token')).toHaveLength(1);

    clock = new Date(clock.getTime() + 3600_000 - 30_000); // inside the last minute
    await provider.registerPlan(plan(), settings);
    const tokens = api.requests.filter((r) => r.path === '/v1/oauth2/token');
    expect(tokens).toHaveLength(2);
    expect(api.requests.at(-1)!.headers.authorization).toBe(`Bearer A21AA-token-${api.state.tokensIssued}`);

    const error = await rejection(provider.registerPlan(plan(), { ...settings, paypal_secret: 'rotated' }));
    expect(error).toBeInstanceOf(PayPalApiError);
    expect((error as PayPalApiError).status).toBe(401);
    expect(api.requests.filter((r) => r.path === '/v1/oauth2/token')).toHaveLength(3);
  });

  it('makes one token request for calls made at once', async () => {
    const provider = makeProvider();
    await Promise.all([provider.registerPlan(plan(), settings), provider.registerPlan(plan(), settings)]);
    expect(api.requests.filter((r) => r.path === '/v1/oauth2/token')).toHaveLength(1);
  });

  const checkout = (purpose: CheckoutRequest['purpose']): CheckoutRequest => ({
    payer,
    purpose,
    reference: 'Ab3dE5gH9k',
    successUrl: 'https://atelier.example.test/user/settings/billing?paid=1',
    cancelUrl: 'https://atelier.example.test/user/settings/billing',
  });

  it("checks a plan out as a subscription and answers PayPal's approve link", async () => {
    const session = await makeProvider().createCheckout(
      checkout({ kind: 'plan', plan: plan(), providerPlanId: 'P-5ML4271244454362WXNWU5NQ' }),
      settings,
    );
    expect(session).toEqual({ url: 'https://www.paypal.com/webapps/billing/subscriptions?ba_token=BA-2M5' });
    const request = api.requests.at(-1)!;
    expect(request.path).toBe('/v1/billing/subscriptions');
    expect(request.headers['paypal-request-id']).toBe('atelier-checkout-Ab3dE5gH9k');
    expect(JSON.parse(request.body)).toEqual({
      plan_id: 'P-5ML4271244454362WXNWU5NQ',
      custom_id: 'user_1',
      subscriber: { email_address: 'ada@example.test' },
      application_context: {
        user_action: 'SUBSCRIBE_NOW',
        shipping_preference: 'NO_SHIPPING',
        return_url: 'https://atelier.example.test/user/settings/billing?paid=1',
        cancel_url: 'https://atelier.example.test/user/settings/billing',
      },
    });
  });

  it('refuses to check out a plan not registered with PayPal yet', async () => {
    const error = await rejection(
      makeProvider().createCheckout(checkout({ kind: 'plan', plan: plan(), providerPlanId: null }), settings),
    );
    expect((error as PaymentProviderError).reason).toBe('plan_not_registered');
    expect(String(error)).toMatch(/not registered with PayPal/);
    expect(api.requests).toHaveLength(0);
  });

  it('tops the balance up with an order carrying our reference, then captures it once', async () => {
    const provider = makeProvider();
    const session = await provider.createCheckout(
      checkout({ kind: 'balance', amountMinor: 2550, currency: 'EUR' }),
      settings,
    );
    expect(session).toEqual({ url: 'https://www.paypal.com/checkoutnow?token=5O190127TN364715T' });
    const order = api.requests.at(-1)!;
    expect(order.path).toBe('/v2/checkout/orders');
    expect(JSON.parse(order.body)).toEqual({
      intent: 'CAPTURE',
      purchase_units: [
        {
          reference_id: 'Ab3dE5gH9k',
          invoice_id: 'Ab3dE5gH9k',
          custom_id: 'user_1',
          amount: { currency_code: 'EUR', value: '25.50' },
        },
      ],
      payment_source: {
        paypal: {
          experience_context: {
            user_action: 'PAY_NOW',
            shipping_preference: 'NO_SHIPPING',
            return_url: 'https://atelier.example.test/user/settings/billing?paid=1',
            cancel_url: 'https://atelier.example.test/user/settings/billing',
          },
        },
      },
    });

    await provider.captureOrder('5O190127TN364715T', settings);
    await provider.captureOrder('5O190127TN364715T', settings); // already captured: done
    const captures = api.requests.filter((r) => r.path === '/v2/checkout/orders/5O190127TN364715T/capture');
    expect(captures).toHaveLength(2);
    expect(captures[0]!.headers['paypal-request-id']).toBe('atelier-capture-5O190127TN364715T');
  });

  it('cancels at PayPal (an already cancelled one counts), and reports any other refusal', async () => {
    const provider = makeProvider();
    await provider.cancelAtPeriodEnd(subscription(), settings);
    const request = api.requests.at(-1)!;
    expect(request.path).toBe('/v1/billing/subscriptions/I-BW452GLLEP1G/cancel');
    expect(JSON.parse(request.body)).toEqual({ reason: 'Cancelled by the subscriber' });

    await provider.cancelAtPeriodEnd(subscription({ provider_subscription_id: 'I-ALREADYGONE' }), settings);
    const error = await rejection(
      provider.cancelAtPeriodEnd(subscription({ provider_subscription_id: 'I-MISSING' }), settings),
    );
    expect((error as PayPalApiError).status).toBe(404);
  });

  it('swaps by revising the subscription to the new plan id', async () => {
    const provider = makeProvider();
    await provider.swap(subscription(), plan({ id: 'plan_same' }), 'P-SAMEPRICE00000000000000', settings);
    const request = api.requests.at(-1)!;
    expect(request.path).toBe('/v1/billing/subscriptions/I-BW452GLLEP1G/revise');
    expect(JSON.parse(request.body)).toEqual({ plan_id: 'P-SAMEPRICE00000000000000' });
  });

  it("refuses a swap PayPal makes only after the payer's approval, handing over the approval page", async () => {
    const error = await rejection(
      makeProvider().swap(subscription(), plan({ id: 'plan_pro' }), 'P-PRO0000000000000000000', settings),
    );
    expect(error).toBeInstanceOf(PaymentApprovalRequired);
    expect((error as PaymentApprovalRequired).reason).toBe('swap_unsupported');
    expect((error as PaymentApprovalRequired).approveUrl).toBe(
      'https://www.paypal.com/webapps/billing/subscriptions/update?ba_token=BA-9',
    );
    expect(JSON.parse(api.requests.at(-1)!.body)).toEqual({ plan_id: 'P-PRO0000000000000000000' });
  });

  it('is configured only with the client id, the secret and the webhook id', () => {
    const provider = makeProvider();
    expect(provider.configured(settings)).toBe(true);
    expect(provider.configured({ ...settings, paypal_webhook_id: null })).toBe(false);
    expect(provider.configured({ ...settings, paypal_secret: '' })).toBe(false);
    expect(provider.configured(SETTING_DEFAULTS)).toBe(false);
  });
});

describe('PayPal webhook verification', () => {
  it('accepts a good signature with the certificate from a paypal.com host', async () => {
    const { body, headers } = signedWebhook(activated);
    const verified = await makeProvider().verifyWebhook(body, headers, settings);
    expect(verified).toEqual({
      eventId: activated.id,
      type: 'BILLING.SUBSCRIPTION.ACTIVATED',
      occurredAt: '2026-03-02T09:59:58.000Z',
      effect: {
        kind: 'subscription.started',
        userId: 'user_1',
        plan: { providerPlanId: 'P-5ML4271244454362WXNWU5NQ' },
        providerSubscriptionId: 'I-BW452GLLEP1G',
        renewsAt: '2026-04-02T10:00:00Z',
      },
    });
    expect(certs.hits.get('/v1/notifications/certs/CERT-good')).toBe(1);
  });

  it('accepts headers in any case and a certificate without its chain', async () => {
    const { body, headers } = signedWebhook(activated, { certPath: 'CERT-leaf-only' });
    const upper = Object.fromEntries(
      Object.entries(headers).map(([key, value]) => [key.toUpperCase(), value]),
    );
    await expect(makeProvider().verifyWebhook(body, upper, settings)).resolves.toMatchObject({
      eventId: activated.id,
    });
  });

  it('fetches a certificate once for two events', async () => {
    const provider = makeProvider();
    const first = signedWebhook(activated);
    await provider.verifyWebhook(first.body, first.headers, settings);
    clock = new Date(clock.getTime() + 60_000);
    const second = signedWebhook({ ...activated, id: 'WH-second' });
    await provider.verifyWebhook(second.body, second.headers, settings);
    expect(certs.hits.get('/v1/notifications/certs/CERT-good')).toBe(1);
  });

  const refused = async (
    webhook: { body: Buffer; headers: Record<string, string | string[] | undefined> },
    reason: RegExp,
    provider = makeProvider(),
  ) => {
    const error = await rejection(provider.verifyWebhook(webhook.body, webhook.headers, settings));
    expect(error).toBeInstanceOf(WebhookSignatureError);
    expect((error as Error).message).toMatch(reason);
  };

  it('refuses a bad signature', async () => {
    const webhook = signedWebhook(activated, { key: certs.stranger.key });
    await refused(webhook, /bad PayPal signature/);
  });

  it('refuses a signature made for another webhook id', async () => {
    await refused(signedWebhook(activated, { webhookId: 'WH-SOMEONE-ELSES' }), /bad PayPal signature/);
  });

  it('refuses a tampered body (its CRC-32 no longer matches)', async () => {
    const webhook = signedWebhook(activated);
    const tampered = Buffer.from(webhook.body.toString().replace('user_1', 'user_2'));
    await refused({ body: tampered, headers: webhook.headers }, /bad PayPal signature/);
  });

  it('refuses a stale or future transmission before fetching anything', async () => {
    await refused(signedWebhook(activated, { time: new Date(clock.getTime() - 5 * 60_000 - 1000) }), /stale/);
    await refused(signedWebhook(activated, { time: new Date(clock.getTime() + 2 * 60_000) }), /stale/);
    expect(certs.total()).toBe(0);
    // Within the window on the injected clock: accepted.
    const recent = signedWebhook(activated, { time: new Date(clock.getTime() - 4 * 60_000) });
    await expect(makeProvider().verifyWebhook(recent.body, recent.headers, settings)).resolves.toBeDefined();
  });

  it('refuses another algorithm than SHA256withRSA', async () => {
    await refused(signedWebhook(activated, { algo: 'SHA1withRSA' }), /algorithm/);
    expect(certs.total()).toBe(0);
  });

  it('refuses missing or repeated headers and an unconfigured webhook id', async () => {
    const { body, headers } = signedWebhook(activated);
    const { 'paypal-transmission-sig': _dropped, ...withoutSignature } = headers;
    await refused({ body, headers: withoutSignature }, /PAYPAL-TRANSMISSION-SIG/);
    await refused(
      { body, headers: { ...headers, 'paypal-cert-url': [headers['paypal-cert-url']!, 'x'] } },
      /PAYPAL-CERT-URL/,
    );
    const error = await rejection(
      makeProvider().verifyWebhook(body, headers, { ...settings, paypal_webhook_id: null }),
    );
    expect(error).toBeInstanceOf(WebhookSignatureError);
    expect(certs.total()).toBe(0);
  });

  it.each([
    ['another host', 'https://api.example.test/v1/notifications/certs/CERT-good'],
    ['plain http', 'http://api.paypal.com/v1/notifications/certs/CERT-good'],
    ['a lookalike host', 'https://paypal.com.evil.test/v1/notifications/certs/CERT-good'],
    ['a lookalike suffix', 'https://evilpaypal.com/v1/notifications/certs/CERT-good'],
    ['user info before the host', 'https://api.paypal.com@evil.test/v1/notifications/certs/CERT-good'],
    ['user info on a paypal host', 'https://user:pass@api.paypal.com/v1/notifications/certs/CERT-good'],
    ['another port', 'https://api.paypal.com:8443/v1/notifications/certs/CERT-good'],
    ['a trailing dot', 'https://api.paypal.com./v1/notifications/certs/CERT-good'],
    ['not a URL', 'api.paypal.com/v1/notifications/certs/CERT-good'],
  ])('refuses a certificate URL on %s without fetching it', async (_label, certUrl) => {
    await refused(signedWebhook(activated, { certUrl }), /certificate URL/);
    expect(certs.total()).toBe(0);
  });

  it('allows paypal.com and its subdomains on https only', () => {
    expect(allowedCertificateUrl('https://api.paypal.com/v1/notifications/certs/CERT-1').hostname).toBe(
      'api.paypal.com',
    );
    expect(allowedCertificateUrl('https://paypal.com/cert').hostname).toBe('paypal.com');
    expect(allowedCertificateUrl('https://API.PayPal.com:443/cert').hostname).toBe('api.paypal.com');
  });

  it('refuses a certificate expired on the clock', async () => {
    await refused(signedWebhook(activated, { certPath: 'CERT-expired' }), /not valid now/);
  });

  it('refuses a certificate whose clock window has not begun', async () => {
    clock = new Date('2025-12-31T23:59:00.000Z');
    await refused(signedWebhook(activated), /not valid now/);
  });

  it('refuses a chain that does not hold together, an answer that is no certificate, and does not cache them', async () => {
    const provider = makeProvider();
    await refused(signedWebhook(activated, { certPath: 'CERT-broken-chain' }), /chain/, provider);
    await refused(signedWebhook(activated, { certPath: 'CERT-garbage' }), /not a valid X.509/, provider);
    await refused(signedWebhook(activated, { certPath: 'CERT-missing' }), /status 404/, provider);
    await refused(signedWebhook(activated, { certPath: 'CERT-garbage' }), /not a valid X.509/, provider);
    expect(certs.hits.get('/v1/notifications/certs/CERT-garbage')).toBe(2);
  });

  it('stops a certificate download past the size cap, cut short, or past the deadline', async () => {
    await refused(signedWebhook(activated, { certPath: 'CERT-huge' }), /too large/);
    await refused(signedWebhook(activated, { certPath: 'CERT-cut' }), /interrupted/);
    const started = Date.now();
    await refused(
      signedWebhook(activated, { certPath: 'CERT-slow' }),
      /timed out/,
      makeProvider({ certificateTimeoutMs: 300 }),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a peer whose TLS certificate is not trusted', async () => {
    const stray = certs.agent({ trustTestCa: false });
    const untrusted = new PayPalProvider({ baseUrl: apiBase, now, certificateAgent: stray });
    await refused(signedWebhook(activated), /unreachable/, untrusted);
  });
});

describe('PayPal events as billing effects', () => {
  const verify = async (payload: Record<string, unknown>) => {
    const { body, headers } = signedWebhook(payload);
    return (await makeProvider().verifyWebhook(body, headers, settings)).effect;
  };

  it('BILLING.SUBSCRIPTION.CANCELLED: still active to the period end, no longer renewing', async () => {
    expect(
      await verify(
        event('BILLING.SUBSCRIPTION.CANCELLED', {
          id: 'I-BW452GLLEP1G',
          plan_id: 'P-5ML4271244454362WXNWU5NQ',
          status: 'CANCELLED',
          custom_id: 'user_1',
          billing_info: { last_payment: { amount: { value: '19.99', currency_code: 'USD' } } },
        }),
      ),
    ).toEqual({
      kind: 'subscription.changed',
      providerSubscriptionId: 'I-BW452GLLEP1G',
      renewsAt: null,
      cancelAtPeriodEnd: true,
    });
  });

  it('BILLING.SUBSCRIPTION.EXPIRED: ended', async () => {
    expect(
      await verify(event('BILLING.SUBSCRIPTION.EXPIRED', { id: 'I-BW452GLLEP1G', status: 'EXPIRED' })),
    ).toEqual({ kind: 'subscription.ended', providerSubscriptionId: 'I-BW452GLLEP1G' });
  });

  it('BILLING.SUBSCRIPTION.UPDATED: the plan a revision moved it to', async () => {
    expect(
      await verify(
        event('BILLING.SUBSCRIPTION.UPDATED', {
          id: 'I-BW452GLLEP1G',
          plan_id: 'P-PRO0000000000000000000',
          status: 'ACTIVE',
          billing_info: { next_billing_time: '2026-04-02T10:00:00Z' },
        }),
      ),
    ).toEqual({
      kind: 'subscription.changed',
      providerSubscriptionId: 'I-BW452GLLEP1G',
      renewsAt: '2026-04-02T10:00:00Z',
      cancelAtPeriodEnd: false,
      plan: { providerPlanId: 'P-PRO0000000000000000000' },
    });
  });

  it('PAYMENT.SALE.COMPLETED: a subscription payment in minor units', async () => {
    expect(
      await verify(
        event('PAYMENT.SALE.COMPLETED', {
          id: '80021663DE681814L',
          state: 'completed',
          amount: { total: '19.99', currency: 'USD', details: { subtotal: '19.99' } },
          billing_agreement_id: 'I-BW452GLLEP1G',
          custom: 'user_1',
        }),
      ),
    ).toEqual({
      kind: 'payment.succeeded',
      purpose: 'subscription',
      reference: '80021663DE681814L',
      amountMinor: 1999,
      currency: 'USD',
      userId: 'user_1',
      providerSubscriptionId: 'I-BW452GLLEP1G',
    });
  });

  it('PAYMENT.SALE.COMPLETED outside a subscription, or with an unreadable amount: none', async () => {
    const sale = { id: '80021663DE681814L', amount: { total: '19.99', currency: 'USD' } };
    expect(await verify(event('PAYMENT.SALE.COMPLETED', sale))).toEqual({ kind: 'none' });
    expect(
      await verify(
        event('PAYMENT.SALE.COMPLETED', {
          ...sale,
          billing_agreement_id: 'I-1',
          amount: { total: '19.999', currency: 'USD' },
        }),
      ),
    ).toEqual({ kind: 'none' });
  });

  const capture = {
    id: '7TK53561YB803214S',
    status: 'COMPLETED',
    amount: { currency_code: 'EUR', value: '25.50' },
    custom_id: 'user_1',
    invoice_id: 'Ab3dE5gH9k',
    supplementary_data: { related_ids: { order_id: '5O190127TN364715T' } },
  };

  it('PAYMENT.CAPTURE.COMPLETED: a balance top-up under our reference', async () => {
    expect(await verify(event('PAYMENT.CAPTURE.COMPLETED', capture))).toEqual({
      kind: 'payment.succeeded',
      purpose: 'balance',
      reference: 'Ab3dE5gH9k',
      amountMinor: 2550,
      currency: 'EUR',
      userId: 'user_1',
      providerSubscriptionId: null,
    });
  });

  it('PAYMENT.CAPTURE.DENIED: the top-up failed', async () => {
    expect(await verify(event('PAYMENT.CAPTURE.DENIED', { ...capture, status: 'DECLINED' }))).toEqual({
      kind: 'payment.failed',
      reference: 'Ab3dE5gH9k',
      amountMinor: 2550,
      currency: 'EUR',
      userId: 'user_1',
      providerSubscriptionId: null,
    });
  });

  it('a capture not made by our checkout (no reference of ours): none', async () => {
    expect(
      await verify(event('PAYMENT.CAPTURE.COMPLETED', { ...capture, invoice_id: 'INV-2026-0001' })),
    ).toEqual({
      kind: 'none',
    });
    const { custom_id: _custom, ...anonymous } = capture;
    expect(await verify(event('PAYMENT.CAPTURE.COMPLETED', anonymous))).toEqual({ kind: 'none' });
  });

  it('BILLING.SUBSCRIPTION.PAYMENT.FAILED: the failed renewal, keyed by the event', async () => {
    const failed = event('BILLING.SUBSCRIPTION.PAYMENT.FAILED', {
      id: 'I-BW452GLLEP1G',
      plan_id: 'P-5ML4271244454362WXNWU5NQ',
      status: 'ACTIVE',
      custom_id: 'user_1',
      billing_info: {
        outstanding_balance: { value: '19.99', currency_code: 'USD' },
        last_failed_payment: {
          amount: { value: '19.99', currency_code: 'USD' },
          time: '2026-03-02T09:59:00Z',
          reason_code: 'PAYER_ACCOUNT_LOCKED_OR_CLOSED',
        },
        failed_payments_count: 1,
        next_billing_time: '2026-03-07T10:00:00Z',
      },
    });
    expect(await verify(failed)).toEqual({
      kind: 'payment.failed',
      reference: failed.id,
      amountMinor: 1999,
      currency: 'USD',
      userId: 'user_1',
      providerSubscriptionId: 'I-BW452GLLEP1G',
    });
  });

  it('an ACTIVATED event without our user id, and events the ledger does not use: none', async () => {
    const { custom_id: _custom, ...resource } = activatedResource;
    expect(await verify(event('BILLING.SUBSCRIPTION.ACTIVATED', resource))).toEqual({ kind: 'none' });
    expect(await verify(event('CHECKOUT.ORDER.APPROVED', { id: '5O190127TN364715T' }))).toEqual({
      kind: 'none',
    });
    expect(await verify(event('BILLING.PLAN.CREATED', { id: 'P-1' }))).toEqual({ kind: 'none' });
  });

  it('a signed body that is not an event is refused', async () => {
    const body = Buffer.from('not json');
    const transmissionTime = clock.toISOString();
    const message = `id-1|${transmissionTime}|${WEBHOOK_ID}|${crc32(body)}`;
    const headers = {
      'paypal-transmission-id': 'id-1',
      'paypal-transmission-time': transmissionTime,
      'paypal-transmission-sig': sign('sha256', Buffer.from(message), certs.signing.key).toString('base64'),
      'paypal-cert-url': 'https://api.paypal.com/v1/notifications/certs/CERT-good',
      'paypal-auth-algo': 'SHA256withRSA',
    };
    const error = await rejection(makeProvider().verifyWebhook(body, headers, settings));
    expect(error).toBeInstanceOf(WebhookSignatureError);
    expect((error as Error).message).toMatch(/not a PayPal event/);
  });
});
