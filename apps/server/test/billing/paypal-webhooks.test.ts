import { CheckoutAnswer, SubscriptionDetail, TransactionList, UserResource } from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { PlanRegistrationsRepository } from '../../src/modules/billing/plan-registrations.repository';
import { PayPalProvider } from '../../src/modules/billing/providers/paypal.provider';
import { PermanentJobError } from '../../src/jobs/job-definition';
import { GIGABYTE } from '../../src/modules/settings/settings.defaults';
import type { TestAgent } from '../support/agent';
import {
  applyStoredEvents,
  BALANCE_RECORDS,
  clearTables,
  storedEvents,
  SUBSCRIPTION_RECORDS,
  subscriptionStates,
} from '../support/billing-events';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import {
  paypalEvent,
  signPayPalEvent,
  startPayPalCertificatePeer,
  type PayPalCertificatePeer,
} from '../support/paypal-certificate-peer';
import { startProviderPeer, type ProviderPeer } from '../support/provider-peer';
import { createTestApp, type TestApp } from '../support/test-app';

// PayPal is played by two real local peers: an HTTP server for its REST API (`startProviderPeer`)
// and an HTTPS server with a test CA for api.paypal.com serving the webhook signing certificate
// (`startPayPalCertificatePeer`), which the provider reaches through an agent that dials it. The
// webhooks go through POST /api/subscriptions/paypal/webhooks, signed with that certificate's key.
const WEBHOOK_ID = '8PT597110X687430LKGECATA';
const START = new Date('2026-03-02T10:00:00.000Z');
const PAYPAL_PLAN = 'P-5ML4271244454362WXNWU5NQ';
const PAYPAL_SUBSCRIPTION = 'I-BW452GLLEP1G';

describeEachDatabase('billing: PayPal through the webhook route', (kind) => {
  let t: TestApp;
  let api: ProviderPeer;
  let certs: PayPalCertificatePeer;
  let now: Date;
  let user: { agent: TestAgent; user: UserRow };
  let planId: string;

  const signed = (event: Record<string, unknown>, options: { certUrl?: string; time?: Date } = {}) =>
    signPayPalEvent(event, { key: certs.signing.key, webhookId: WEBHOOK_ID, time: now, ...options });
  const send = (webhook: { body: Buffer; headers: Record<string, string> }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/paypal/webhooks',
      payload: webhook.body,
      headers: webhook.headers,
    });
  /** What the job does with each stored event, in the order given. */
  const applyStored = (...eventIds: string[]) => applyStoredEvents(t, 'paypal', ...eventIds);
  const detail = async () =>
    SubscriptionDetail.parse((await user.agent.get('/api/subscriptions/detail')).json()).data;

  const activated = (id = 'WH-ACTIVATED') =>
    paypalEvent(
      'BILLING.SUBSCRIPTION.ACTIVATED',
      {
        id: PAYPAL_SUBSCRIPTION,
        plan_id: PAYPAL_PLAN,
        status: 'ACTIVE',
        custom_id: user.user.id,
        billing_info: { next_billing_time: '2026-04-02T10:00:00.000Z', failed_payments_count: 0 },
      },
      { id, createTime: '2026-03-02T09:59:58.000Z' },
    );

  beforeAll(async () => {
    api = await startProviderPeer({
      'POST /v1/oauth2/token': () => [
        200,
        { access_token: 'A21AA-e2e', token_type: 'Bearer', expires_in: 32_400 },
      ],
      'POST /v1/catalogs/products': () => [201, { id: 'PROD-5FD17338DH1290436' }],
      'POST /v1/billing/plans': () => [201, { id: PAYPAL_PLAN, status: 'ACTIVE' }],
      'POST /v1/billing/subscriptions': () => [
        201,
        {
          id: PAYPAL_SUBSCRIPTION,
          status: 'APPROVAL_PENDING',
          links: [
            { href: 'https://www.paypal.com/webapps/billing/subscriptions?ba_token=BA-2M5', rel: 'approve' },
          ],
        },
      ],
      [`POST /v1/billing/subscriptions/${PAYPAL_SUBSCRIPTION}/cancel`]: () => [204, {}],
      // A revision to a new price: the payer approves it at PayPal first.
      [`POST /v1/billing/subscriptions/${PAYPAL_SUBSCRIPTION}/revise`]: () => [
        200,
        {
          plan_id: 'P-AGENCY',
          links: [
            {
              href: 'https://www.paypal.com/webapps/billing/subscriptions/update?ba_token=BA-9',
              rel: 'approve',
            },
          ],
        },
      ],
    });
    certs = await startPayPalCertificatePeer();
    now = START;
    const paypal = new PayPalProvider({ baseUrl: api.url, now: () => now, certificateAgent: certs.agent() });
    t = await createTestApp({
      database: kind,
      clock: () => now,
      paymentProviders: [paypal],
      settings: {
        subscription_type: 'fixed',
        allowed_payment_drivers: ['paypal'],
        paypal_client_id: 'client-id',
        paypal_secret: 'client-secret',
        paypal_webhook_id: WEBHOOK_ID,
      },
    });
    const admin = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user);
    const created = await admin.agent.post('/api/admin/plans', {
      type: 'fixed',
      name: 'Studio',
      currency: 'USD',
      amount: '19.99',
      interval: 'month',
      features: { max_storage_amount: 200, max_team_members: -1 },
    });
    planId = (created.json() as { data: { id: string } }).data.id;
    // What the registration job does: the plan registered at PayPal (the peer), its id kept.
    const plan = await t.deps.database.db
      .selectFrom('plans')
      .selectAll()
      .where('id', '=', planId)
      .executeTakeFirstOrThrow();
    const providerPlanId = await paypal.registerPlan(plan, await t.deps.settings.all());
    await new PlanRegistrationsRepository(t.deps.database).store(
      planId,
      'paypal',
      providerPlanId,
      START.toISOString(),
    );
  });
  afterAll(async () => {
    await t.close();
    await api.close();
    await certs.close();
  });
  beforeEach(async () => {
    now = START;
    api.requests.length = 0;
    certs.hits.clear();
    await clearTables(t, SUBSCRIPTION_RECORDS);
    user = await signedInAgent(t.app);
  });

  it("answers a PayPal checkout with PayPal's approve page for the registered plan", async () => {
    const response = await user.agent.post('/api/subscriptions/checkout', {
      plan_id: planId,
      driver: 'paypal',
    });
    expect(response.statusCode).toBe(200);
    const answer = CheckoutAnswer.parse(response.json()).data;
    expect(answer).toMatchObject({
      driver: 'paypal',
      url: 'https://www.paypal.com/webapps/billing/subscriptions?ba_token=BA-2M5',
    });
    expect(answer.reference).toMatch(/^[A-Za-z0-9]{10}$/);
    const sent = api.requests.find((r) => r.path === '/v1/billing/subscriptions')!;
    expect(sent.json).toMatchObject({ plan_id: PAYPAL_PLAN, custom_id: user.user.id });
    expect(sent.headers.authorization).toBe('Bearer A21AA-e2e');
  });

  it('refuses missing, bad, stale, tampered and off-host signatures with 400, storing nothing', async () => {
    const event = activated();
    const good = signed(event);
    const { 'paypal-transmission-sig': _signature, ...unsigned } = good.headers;
    const answers = await Promise.all([
      send({ body: good.body, headers: unsigned }),
      send(signPayPalEvent(event, { key: certs.stranger.key, webhookId: WEBHOOK_ID, time: now })),
      send(signPayPalEvent(event, { key: certs.signing.key, webhookId: 'WH-OTHER', time: now })),
      send(signed(event, { time: new Date(now.getTime() - 6 * 60_000) })),
      send({
        body: Buffer.from(good.body.toString().replace(user.user.id, 'someone')),
        headers: good.headers,
      }),
      send(signed(event, { certUrl: 'https://paypal.com.evil.test/v1/notifications/certs/CERT-good' })),
      send(signed(event, { certUrl: 'http://api.paypal.com/v1/notifications/certs/CERT-good' })),
    ]);
    for (const answer of answers) expect(answer.statusCode).toBe(400);
    expect(await storedEvents(t)).toHaveLength(0);
    // The certificate is fetched once at most (cached across events), never from another host.
    expect(certs.total()).toBeLessThanOrEqual(1);
  });

  it('starts the subscription from ACTIVATED once, however often it is replayed', async () => {
    const event = activated();
    expect((await send(signed(event))).statusCode).toBe(200);
    expect((await send(signed(event))).statusCode).toBe(200);
    expect(await storedEvents(t)).toHaveLength(1);
    await applyStored(event.id);
    await applyStored(event.id);

    const held = (await detail()).subscription!;
    expect(held).toMatchObject({ status: 'active', driver: 'paypal' });
    expect(held.plan.id).toBe(planId);
    expect(Date.parse(held.renews_at!)).toBe(Date.parse('2026-04-02T10:00:00.000Z'));
  });

  it("records a subscription payment from PAYMENT.SALE.COMPLETED in the user's transactions", async () => {
    const sale = paypalEvent(
      'PAYMENT.SALE.COMPLETED',
      {
        id: '80021663DE681814L',
        state: 'completed',
        amount: { total: '19.99', currency: 'USD' },
        billing_agreement_id: PAYPAL_SUBSCRIPTION,
        custom: user.user.id,
      },
      { id: 'WH-SALE' },
    );
    await send(signed(activated()));
    expect((await send(signed(sale))).statusCode).toBe(200);
    await applyStored('WH-ACTIVATED', 'WH-SALE');

    const list = TransactionList.parse((await user.agent.get('/api/user/transactions')).json()).data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      type: 'charge',
      status: 'completed',
      amount: '19.99',
      currency: 'USD',
      driver: 'paypal',
      reference: '80021663DE681814L',
    });
  });

  it('keeps a CANCELLED subscription to the end of its period, and EXPIRED completes it', async () => {
    await send(signed(activated()));
    await applyStored('WH-ACTIVATED');

    now = new Date('2026-03-10T12:00:00.000Z');
    const cancelled = paypalEvent(
      'BILLING.SUBSCRIPTION.CANCELLED',
      { id: PAYPAL_SUBSCRIPTION, plan_id: PAYPAL_PLAN, status: 'CANCELLED', custom_id: user.user.id },
      { id: 'WH-CANCELLED', createTime: '2026-03-10T11:59:59.000Z' },
    );
    expect((await send(signed(cancelled))).statusCode).toBe(200);
    await applyStored('WH-CANCELLED');
    const after = (await detail()).subscription!;
    expect(after.status).toBe('cancelled');
    expect(Date.parse(after.ends_at!)).toBe(Date.parse('2026-04-02T10:00:00.000Z'));

    now = new Date('2026-04-02T10:00:05.000Z');
    const expired = paypalEvent(
      'BILLING.SUBSCRIPTION.EXPIRED',
      { id: PAYPAL_SUBSCRIPTION, status: 'EXPIRED' },
      { id: 'WH-EXPIRED', createTime: '2026-04-02T10:00:00.000Z' },
    );
    expect((await send(signed(expired))).statusCode).toBe(200);
    await applyStored('WH-EXPIRED');
    const row = await t.deps.database.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('provider_subscription_id', '=', PAYPAL_SUBSCRIPTION)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('completed');
  });

  it('ends a SUSPENDED subscription with its paid period, and runs it again when RE-ACTIVATED', async () => {
    await send(signed(activated()));
    await applyStored('WH-ACTIVATED');
    // Its renewal failed three times: PayPal suspends it.
    now = new Date('2026-04-05T12:00:00.000Z');
    const suspended = paypalEvent(
      'BILLING.SUBSCRIPTION.SUSPENDED',
      { id: PAYPAL_SUBSCRIPTION, plan_id: PAYPAL_PLAN, status: 'SUSPENDED', custom_id: user.user.id },
      { id: 'WH-SUSPENDED', createTime: '2026-04-05T11:59:59.000Z' },
    );
    expect((await send(signed(suspended))).statusCode).toBe(200);
    await applyStored('WH-SUSPENDED');
    // Read from the table: a month on, the test's session has expired.
    const held = () =>
      t.deps.database.db
        .selectFrom('subscriptions')
        .selectAll()
        .where('provider_subscription_id', '=', PAYPAL_SUBSCRIPTION)
        .executeTakeFirstOrThrow();
    const stopped = await held();
    expect(stopped.status).toBe('cancelled');
    expect(Date.parse(stopped.ends_at!)).toBe(Date.parse('2026-04-02T10:00:00.000Z'));

    expect((await send(signed(reactivated()))).statusCode).toBe(200);
    await applyStored('WH-REACTIVATED');
    const running = await held();
    expect(running.status).toBe('active');
    expect(Date.parse(running.renews_at!)).toBe(Date.parse('2026-05-05T10:00:00.000Z'));
  });

  /** SUSPENDED after the renewal failed, and the lapsed-subscription sweep run before RE-ACTIVATED. */
  async function suspendedAndSwept(): Promise<void> {
    await send(signed(activated()));
    await applyStored('WH-ACTIVATED');
    now = new Date('2026-04-05T12:00:00.000Z');
    const suspended = paypalEvent(
      'BILLING.SUBSCRIPTION.SUSPENDED',
      { id: PAYPAL_SUBSCRIPTION, plan_id: PAYPAL_PLAN, status: 'SUSPENDED', custom_id: user.user.id },
      { id: 'WH-SUSPENDED', createTime: '2026-04-05T11:59:59.000Z' },
    );
    await send(signed(suspended));
    await applyStored('WH-SUSPENDED');
    now = new Date('2026-04-05T12:05:00.000Z');
    expect(await t.deps.subscriptionsService.completeEnded(now)).toBe(1);
  }
  const reactivated = () =>
    paypalEvent(
      'BILLING.SUBSCRIPTION.RE-ACTIVATED',
      {
        id: PAYPAL_SUBSCRIPTION,
        plan_id: PAYPAL_PLAN,
        status: 'ACTIVE',
        custom_id: user.user.id,
        billing_info: { next_billing_time: '2026-05-05T10:00:00Z' },
      },
      { id: 'WH-REACTIVATED', createTime: '2026-04-05T12:30:00.000Z' },
    );

  it('runs a SUSPENDED subscription again when RE-ACTIVATED after the sweep completed it, with its limits once paid', async () => {
    await suspendedAndSwept();
    now = new Date('2026-04-05T12:31:00.000Z');
    await send(signed(reactivated()));
    await applyStored('WH-REACTIVATED');
    const sale = paypalEvent(
      'PAYMENT.SALE.COMPLETED',
      {
        id: '6LX01985TS1245512',
        state: 'completed',
        amount: { total: '19.99', currency: 'USD' },
        billing_agreement_id: PAYPAL_SUBSCRIPTION,
        custom: user.user.id,
      },
      { id: 'WH-SALE-AGAIN' },
    );
    await send(signed(sale));
    await applyStored('WH-SALE-AGAIN');

    // A session of now: the one made at the start has lapsed a month on.
    const { agent } = await signedInAgent(t.app, user.user);
    const held = SubscriptionDetail.parse((await agent.get('/api/subscriptions/detail')).json()).data;
    expect(held.subscription).toMatchObject({ status: 'active', plan: { id: planId }, ends_at: null });
    expect(Date.parse(held.subscription!.renews_at!)).toBe(Date.parse('2026-05-05T10:00:00.000Z'));
    const resource = UserResource.parse((await agent.get('/api/user')).json());
    expect(resource.meta.usages.capacity).toBe(200 * GIGABYTE);
  });

  it('keeps a RE-ACTIVATED subscription completed and its event for review when the user subscribed again meanwhile', async () => {
    await suspendedAndSwept();
    await t.deps.database.db
      .insertInto('subscriptions')
      .values({
        id: randomUUID(),
        user_id: user.user.id,
        plan_id: planId,
        status: 'active',
        driver: 'paypal',
        provider_subscription_id: 'I-NEWER',
        renews_at: '2026-05-05T12:10:00.000Z',
        ends_at: null,
        provider_updated_at: '2026-04-05T12:10:00.000Z',
        created_at: '2026-04-05T12:10:00.000Z',
        updated_at: '2026-04-05T12:10:00.000Z',
      })
      .execute();
    await send(signed(reactivated()));
    await applyStored('WH-REACTIVATED');
    expect(await subscriptionStates(t)).toEqual([
      { provider_subscription_id: PAYPAL_SUBSCRIPTION, status: 'completed' },
      { provider_subscription_id: 'I-NEWER', status: 'active' },
    ]);
    const event = (await storedEvents(t)).find((row) => row.event_id === 'WH-REACTIVATED')!;
    expect(event).toMatchObject({ status: 'review', error: 'other_subscription' });
  });

  it('cancels at PayPal when the user cancels, staying active to the paid end', async () => {
    await send(signed(activated()));
    await applyStored('WH-ACTIVATED');
    const response = await user.agent.post('/api/subscriptions/cancel', {});
    expect(response.statusCode).toBe(204);
    expect(api.requests.map((r) => r.path)).toContain(
      `/v1/billing/subscriptions/${PAYPAL_SUBSCRIPTION}/cancel`,
    );
    const after = (await detail()).subscription!;
    expect(after.status).toBe('cancelled');
    expect(Date.parse(after.ends_at!)).toBe(Date.parse('2026-04-02T10:00:00.000Z'));
  });

  it('swaps once the payer approved the new price at PayPal: the answer names the approval page', async () => {
    await send(signed(activated()));
    await applyStored('WH-ACTIVATED');
    const admin = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user);
    const agency = (
      (
        await admin.agent.post('/api/admin/plans', {
          type: 'fixed',
          name: 'Agency',
          currency: 'USD',
          amount: '49.00',
          interval: 'month',
          features: { max_storage_amount: 1000, max_team_members: 50 },
        })
      ).json() as { data: { id: string } }
    ).data.id;
    await new PlanRegistrationsRepository(t.deps.database).store(
      agency,
      'paypal',
      'P-AGENCY',
      START.toISOString(),
    );

    const response = await user.agent.post('/api/subscriptions/swap', { plan_id: agency });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      data: { plan: { id: planId } }, // unchanged until PayPal says the payer approved
      meta: { approve_url: 'https://www.paypal.com/webapps/billing/subscriptions/update?ba_token=BA-9' },
    });
    expect((await detail()).subscription!.plan.id).toBe(planId);

    await send(
      signed(
        paypalEvent(
          'BILLING.SUBSCRIPTION.UPDATED',
          { id: PAYPAL_SUBSCRIPTION, plan_id: 'P-AGENCY', status: 'ACTIVE', custom_id: user.user.id },
          { id: 'WH-UPDATED', createTime: '2026-03-02T10:00:30.000Z' },
        ),
      ),
    );
    await applyStored('WH-UPDATED');
    expect((await detail()).subscription!.plan.id).toBe(agency);
  });

  it('turns a failed renewal into a failed charge and a payment alert', async () => {
    await send(signed(activated()));
    await applyStored('WH-ACTIVATED');
    const failed = paypalEvent(
      'BILLING.SUBSCRIPTION.PAYMENT.FAILED',
      {
        id: PAYPAL_SUBSCRIPTION,
        plan_id: PAYPAL_PLAN,
        status: 'ACTIVE',
        custom_id: user.user.id,
        billing_info: {
          outstanding_balance: { value: '19.99', currency_code: 'USD' },
          last_failed_payment: {
            amount: { value: '19.99', currency_code: 'USD' },
            time: '2026-03-02T09:59:00Z',
          },
        },
      },
      { id: 'WH-FAILED' },
    );
    expect((await send(signed(failed))).statusCode).toBe(200);
    await applyStored('WH-FAILED');
    const list = TransactionList.parse((await user.agent.get('/api/user/transactions')).json()).data;
    expect(list[0]).toMatchObject({ status: 'failed', amount: '19.99', reference: 'WH-FAILED' });
    const alerts = await t.deps.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', user.user.id)
      .execute();
    expect(alerts.map((n) => n.category)).toContain('payment-alert');
  });
});

describeEachDatabase('billing: PayPal balance top-ups through the webhook route', (kind) => {
  let t: TestApp;
  let api: ProviderPeer;
  let certs: PayPalCertificatePeer;
  let user: { agent: TestAgent; user: UserRow };
  let now = START;

  const send = (event: Record<string, unknown>) => {
    const webhook = signPayPalEvent(event, { key: certs.signing.key, webhookId: WEBHOOK_ID, time: now });
    return t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/paypal/webhooks',
      payload: webhook.body,
      headers: webhook.headers,
    });
  };
  const balance = () =>
    t.deps.database.db
      .selectFrom('balances')
      .select(['amount_minor', 'currency'])
      .where('user_id', '=', user.user.id)
      .executeTakeFirst();

  beforeAll(async () => {
    api = await startProviderPeer({
      'POST /v1/oauth2/token': () => [
        200,
        { access_token: 'A21AA-e2e', token_type: 'Bearer', expires_in: 32_400 },
      ],
      'POST /v2/checkout/orders': () => [
        200,
        {
          id: '5O190127TN364715T',
          status: 'PAYER_ACTION_REQUIRED',
          links: [
            { href: 'https://www.paypal.com/checkoutnow?token=5O190127TN364715T', rel: 'payer-action' },
          ],
        },
      ],
      'POST /v2/checkout/orders/5O190127TN364715T/capture': () => [
        201,
        { id: '5O190127TN364715T', status: 'COMPLETED' },
      ],
      // An approved order whose card PayPal then declines, and one asked while PayPal is down.
      'POST /v2/checkout/orders/8DECLINED0000000/capture': () => [
        422,
        {
          name: 'UNPROCESSABLE_ENTITY',
          details: [{ issue: 'INSTRUMENT_DECLINED' }],
          debug_id: 'f2e6b1c7a9d3e',
        },
      ],
      'POST /v2/checkout/orders/9OUTAGE000000000/capture': () => [503, { name: 'SERVICE_UNAVAILABLE' }],
    });
    certs = await startPayPalCertificatePeer();
    t = await createTestApp({
      database: kind,
      clock: () => now,
      paymentProviders: [
        new PayPalProvider({ baseUrl: api.url, now: () => now, certificateAgent: certs.agent() }),
      ],
      settings: {
        subscription_type: 'metered',
        currency: 'USD',
        allowed_payment_drivers: ['paypal'],
        paypal_client_id: 'client-id',
        paypal_secret: 'client-secret',
        paypal_webhook_id: WEBHOOK_ID,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await api.close();
    await certs.close();
  });
  beforeEach(async () => {
    now = START;
    api.requests.length = 0;
    await clearTables(t, BALANCE_RECORDS);
    user = await signedInAgent(t.app);
  });

  it('tops up with an order under our reference; the signed capture credits the balance once', async () => {
    const response = await user.agent.post('/api/subscriptions/balance/checkout', {
      amount: '25.00',
      driver: 'paypal',
    });
    expect(response.statusCode).toBe(200);
    const answer = CheckoutAnswer.parse(response.json()).data;
    expect(answer).toMatchObject({
      driver: 'paypal',
      url: 'https://www.paypal.com/checkoutnow?token=5O190127TN364715T',
    });
    const order = api.requests.find((r) => r.path === '/v2/checkout/orders')!;
    expect(order.json).toMatchObject({
      intent: 'CAPTURE',
      purchase_units: [
        {
          invoice_id: answer.reference,
          custom_id: user.user.id,
          amount: { currency_code: 'USD', value: '25.00' },
        },
      ],
    });

    // The payer approved: PayPal says so, and the job takes the money by capturing the order.
    const approved = paypalEvent(
      'CHECKOUT.ORDER.APPROVED',
      {
        id: '5O190127TN364715T',
        intent: 'CAPTURE',
        status: 'APPROVED',
        purchase_units: [{ invoice_id: answer.reference, custom_id: user.user.id }],
      },
      { id: 'WH-APPROVED' },
    );
    expect((await send(approved)).statusCode).toBe(200);
    const approval = await t.deps.database.db
      .selectFrom('billing_events')
      .select('id')
      .where('event_id', '=', 'WH-APPROVED')
      .executeTakeFirstOrThrow();
    await t.deps.billingEvents.apply(approval.id);
    const captures = api.requests.filter((r) => r.path === '/v2/checkout/orders/5O190127TN364715T/capture');
    expect(captures).toHaveLength(1);
    expect(captures[0]!.headers['paypal-request-id']).toBe('atelier-capture-5O190127TN364715T');
    expect(await balance()).toBeUndefined(); // credited by the capture's own event only

    // Once the order was captured, PayPal reports the capture.
    const captured = paypalEvent(
      'PAYMENT.CAPTURE.COMPLETED',
      {
        id: '7TK53561YB803214S',
        status: 'COMPLETED',
        amount: { currency_code: 'USD', value: '25.00' },
        custom_id: user.user.id,
        invoice_id: answer.reference,
        supplementary_data: { related_ids: { order_id: '5O190127TN364715T' } },
      },
      { id: 'WH-CAPTURED' },
    );
    expect((await send(captured)).statusCode).toBe(200);
    expect((await send(captured)).statusCode).toBe(200);
    const row = await t.deps.database.db
      .selectFrom('billing_events')
      .select('id')
      .where('event_id', '=', 'WH-CAPTURED')
      .executeTakeFirstOrThrow();
    await t.deps.billingEvents.apply(row.id);
    await t.deps.billingEvents.apply(row.id);

    expect(await balance()).toEqual({ amount_minor: 2500, currency: 'USD' });
    const credits = TransactionList.parse((await user.agent.get('/api/user/transactions')).json()).data;
    expect(credits).toEqual([
      expect.objectContaining({
        type: 'credit',
        reference: answer.reference,
        amount: '25.00',
        driver: 'paypal',
      }),
    ]);
  });

  it('settles an approved order PayPal will never capture as failed, once; an outage is retried', async () => {
    const approvedOrder = (orderId: string, eventId: string) =>
      paypalEvent(
        'CHECKOUT.ORDER.APPROVED',
        {
          id: orderId,
          intent: 'CAPTURE',
          status: 'APPROVED',
          purchase_units: [{ invoice_id: orderId.slice(0, 10), custom_id: user.user.id }],
        },
        { id: eventId },
      );
    expect((await send(approvedOrder('8DECLINED0000000', 'WH-DECLINED'))).statusCode).toBe(200);
    expect((await send(approvedOrder('9OUTAGE000000000', 'WH-OUTAGE'))).statusCode).toBe(200);
    await expect(applyStoredEvents(t, 'paypal', 'WH-DECLINED')).rejects.toThrow(PermanentJobError);
    await expect(applyStoredEvents(t, 'paypal', 'WH-OUTAGE')).rejects.toThrow(/503/);
    const states = Object.fromEntries(
      (await storedEvents(t)).map((e) => [e.event_id, { status: e.status, error: e.error }]),
    );
    expect(states['WH-DECLINED']).toEqual({
      status: 'failed',
      error: expect.stringContaining('INSTRUMENT_DECLINED'),
    });
    expect(states['WH-OUTAGE']).toEqual({ status: 'received', error: null });
    // The sweep of lost events takes the outage's again, never the declined one.
    now = new Date(now.getTime() + 11 * 60_000);
    expect(await t.deps.billingEvents.sweep()).toBe(1);
    const failed = await t.deps.billingEvents.list('failed', 1, 10);
    expect(failed.data.map((e) => e.event_id)).toEqual(['WH-DECLINED']);
    const asked = api.requests.filter((r) => r.path === '/v2/checkout/orders/8DECLINED0000000/capture');
    expect(asked).toHaveLength(1);
    expect(await balance()).toBeUndefined();
  });
});
