import { CheckoutAnswer, SubscriptionDetail, TransactionList } from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import {
  TableNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type RootOperationNode,
} from 'kysely';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import type { TestAgent } from '../support/agent';
import {
  applyStoredEvents,
  clearTables,
  storedEvents,
  SUBSCRIPTION_RECORDS,
} from '../support/billing-events';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { startProviderPeer, type ProviderPeer } from '../support/provider-peer';
import { signPaystackEvent } from '../support/signed-webhooks';
import { createTestApp, type TestApp } from '../support/test-app';

// Paystack is played by a real local HTTP server (`startProviderPeer`) answering as Paystack's API
// does; webhooks are signed as Paystack signs them (HMAC-SHA512 of the body with the secret key)
// and go through the real route, store and ledger.
const SECRET_KEY = 'sk_test_paystack_ledger';
const PLAN_CODE = 'PLN_studio0001';
const SUBSCRIPTION_CODE = 'SUB_vsyqdmlzble3uii';
const START = new Date('2026-03-01T10:00:00.000Z');

/** Refuses the next update of one table before it reaches the database, as a lost connection would. */
class RefusedUpdate implements KyselyPlugin {
  table: string | null = null;

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (
      node.kind === 'UpdateQueryNode' &&
      node.table &&
      TableNode.is(node.table) &&
      node.table.table.identifier.name === this.table
    ) {
      this.table = null;
      throw new Error(`update refused`);
    }
    return node;
  }

  transformResult({ result }: PluginTransformResultArgs) {
    return Promise.resolve(result);
  }
}

describeEachDatabase('billing: Paystack checkout and webhooks end to end', (kind) => {
  let t: TestApp;
  let now = START;
  const refused = new RefusedUpdate();
  let peer: ProviderPeer;
  let user: { agent: TestAgent; user: UserRow };
  let planId: string;
  let otherPlanId: string;

  const send = (
    event: string,
    data: Record<string, unknown>,
    sign = signPaystackEvent({ event, data }, SECRET_KEY),
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/paystack/webhooks',
      payload: sign.body,
      headers: sign.headers,
    });

  /** What the job does, for each stored event in order (the worker path is tested with Stripe's). */
  const applyStored = (...eventIds: string[]) => applyStoredEvents(t, 'paystack', ...eventIds);

  const detail = async () =>
    SubscriptionDetail.parse((await user.agent.get('/api/subscriptions/detail')).json()).data;

  /** The provider ids of the user's active subscriptions. */
  const activeOf = async (userId: string) =>
    (
      await t.deps.database.db
        .selectFrom('subscriptions')
        .select('provider_subscription_id')
        .where('user_id', '=', userId)
        .where('status', '=', 'active')
        .execute()
    ).map((row) => row.provider_subscription_id);

  /** A fixed plan stored directly (not through the admin route, whose registration job would call the peer). */
  async function insertPlan(name: string, amountMinor: number): Promise<string> {
    const id = randomUUID();
    await t.deps.database.db
      .insertInto('plans')
      .values({
        id,
        type: 'fixed',
        name,
        description: '',
        currency: 'NGN',
        status: 'active',
        amount_minor: amountMinor,
        interval: 'month',
        max_storage_amount: 200,
        max_team_members: -1,
        meters: null,
        created_at: START.toISOString(),
        updated_at: START.toISOString(),
      })
      .execute();
    return id;
  }

  const chargeSuccess = (reference: string) => ({
    id: 302961,
    status: 'success',
    reference,
    amount: 500_000,
    currency: 'NGN',
    paid_at: '2026-03-01T10:00:05.000Z',
    metadata: { user_id: user.user.id, plan_id: planId },
    customer: { email: user.user.email, customer_code: 'CUS_1', metadata: null },
    plan: { plan_code: PLAN_CODE },
  });
  const subscriptionCreate = () => ({
    status: 'active',
    subscription_code: SUBSCRIPTION_CODE,
    email_token: 'd7gofp6yppn3qz7',
    amount: 500_000,
    next_payment_date: '2026-04-01T10:00:00.000Z',
    // Paystack makes the subscription right after the charge that pays its first period.
    createdAt: new Date(now.getTime() + 6_000).toISOString(),
    plan: { plan_code: PLAN_CODE, interval: 'monthly', currency: 'NGN' },
    // As Paystack sends it: the customer by e-mail, without the checkout's metadata.
    customer: { email: user.user.email, customer_code: 'CUS_1', metadata: {} },
  });

  /** Checkout, the charge and the subscription's start, as the inline form and Paystack make them. */
  async function subscribe(): Promise<string> {
    const answer = CheckoutAnswer.parse(
      (await user.agent.post('/api/subscriptions/checkout', { plan_id: planId, driver: 'paystack' })).json(),
    ).data;
    expect((await send('charge.success', chargeSuccess(answer.reference))).statusCode).toBe(200);
    expect((await send('subscription.create', subscriptionCreate())).statusCode).toBe(200);
    await applyStored(`subscription.create:${SUBSCRIPTION_CODE}`, `charge.success:${answer.reference}`);
    return answer.reference;
  }

  beforeAll(async () => {
    peer = await startProviderPeer({
      'POST /plan': () => [
        201,
        { status: true, message: 'Plan created', data: { plan_code: 'PLN_from_job' } },
      ],
      [`GET /subscription/${SUBSCRIPTION_CODE}`]: () => [
        200,
        {
          status: true,
          message: 'Subscription retrieved',
          data: { subscription_code: SUBSCRIPTION_CODE, email_token: 'd7gofp6yppn3qz7', status: 'active' },
        },
      ],
      'POST /subscription/disable': () => [
        200,
        { status: true, message: 'Subscription disabled successfully' },
      ],
    });
    t = await createTestApp({
      database: kind,
      clock: () => now,
      plugins: [refused],
      env: { PAYSTACK_API_URL: peer.url },
      settings: {
        subscription_type: 'fixed',
        currency: 'NGN',
        allowed_payment_drivers: ['paystack'],
        paystack_public_key: 'pk_test_paystack_ledger',
        paystack_secret_key: SECRET_KEY,
      },
    });
    planId = await insertPlan('Studio', 500_000);
    otherPlanId = await insertPlan('Agency', 2_000_000);
    await t.deps.database.db
      .insertInto('plan_registrations')
      .values([
        { plan_id: planId, driver: 'paystack', provider_plan_id: PLAN_CODE, created_at: START.toISOString() },
        {
          plan_id: otherPlanId,
          driver: 'paystack',
          provider_plan_id: 'PLN_agency0001',
          created_at: START.toISOString(),
        },
      ])
      .execute();
  });
  afterAll(async () => {
    await t.close();
    await peer.close();
  });
  beforeEach(async () => {
    now = START;
    peer.requests.length = 0;
    await clearTables(t, SUBSCRIPTION_RECORDS);
    user = await signedInAgent(t.app);
  });

  it("answers the inline form's fields with a 10-character reference and sends nothing to Paystack", async () => {
    const response = await user.agent.post('/api/subscriptions/checkout', {
      plan_id: planId,
      driver: 'paystack',
    });
    expect(response.statusCode).toBe(200);
    const answer = CheckoutAnswer.parse(response.json()).data;
    expect(answer).toEqual({
      driver: 'paystack',
      reference: expect.stringMatching(/^[A-Za-z0-9]{10}$/),
      public_key: 'pk_test_paystack_ledger',
      email: user.user.email,
      amount: '5000.00',
      amount_subunit: 500_000,
      currency: 'NGN',
      plan: PLAN_CODE,
    });
    expect(peer.requests).toHaveLength(0);
  });

  it('refuses missing, wrong-length, non-hex, wrong and tampered signatures with 400 and stores nothing', async () => {
    const good = signPaystackEvent(
      { event: 'charge.success', data: chargeSuccess('Ab12Cd34Ef') },
      SECRET_KEY,
    );
    const signature = good.headers['x-paystack-signature']!;
    const candidates: Array<Record<string, string>> = [
      { 'content-type': 'application/json' },
      { 'content-type': 'application/json', 'x-paystack-signature': signature.slice(0, 64) },
      { 'content-type': 'application/json', 'x-paystack-signature': `${signature.slice(0, 126)}zz` },
      { 'content-type': 'application/json', 'x-paystack-signature': 'a'.repeat(128) },
    ];
    for (const headers of candidates) {
      const answer = await send('charge.success', {}, { body: good.body, headers });
      expect(answer.statusCode).toBe(400);
    }
    const tampered = await send(
      'charge.success',
      {},
      {
        body: good.body.replace('500000', '5000000'),
        headers: good.headers,
      },
    );
    expect(tampered.statusCode).toBe(400);
    expect(await storedEvents(t)).toHaveLength(0);
  });

  it('subscribes through signed charge.success and subscription.create, each stored and applied once', async () => {
    const reference = await subscribe();
    // Paystack sends again what it did not see answered: stored once, applied once.
    await send('subscription.create', subscriptionCreate());
    await send('charge.success', chargeSuccess(reference));
    expect(await storedEvents(t)).toHaveLength(2);
    await applyStored(`subscription.create:${SUBSCRIPTION_CODE}`, `charge.success:${reference}`);

    const held = await detail();
    expect(held.subscription).toMatchObject({
      status: 'active',
      driver: 'paystack',
      renews_at: '2026-04-01T10:00:00.000Z',
      plan: { id: planId },
    });
    const payments = TransactionList.parse((await user.agent.get('/api/user/transactions')).json()).data;
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      reference,
      status: 'completed',
      type: 'charge',
      amount: '5000.00',
      currency: 'NGN',
      driver: 'paystack',
    });
  });

  it('starts no subscription for an account a payer named that never checked the plan out', async () => {
    // The inline form's customer is whoever the payer's browser said: here, another account.
    const other = await signedInAgent(t.app);
    const forged = { ...subscriptionCreate(), customer: { email: other.user.email, customer_code: 'CUS_2' } };
    expect((await send('subscription.create', forged)).statusCode).toBe(200);
    await applyStored(`subscription.create:${SUBSCRIPTION_CODE}`);
    expect(await storedEvents(t)).toEqual([
      expect.objectContaining({ status: 'review', error: 'no_checkout' }),
    ]);
    const held = SubscriptionDetail.parse((await other.agent.get('/api/subscriptions/detail')).json()).data;
    expect(held.subscription).toBeNull();
  });

  it('starts no subscription a payer named from a checkout already used, or one long abandoned', async () => {
    /** subscription.create as a payer who gave someone else's address in the inline form makes it. */
    const forged = (code: string, email: string) => ({
      ...subscriptionCreate(),
      subscription_code: code,
      customer: { email, customer_code: 'CUS_forged', metadata: {} },
    });
    const heldBy = async (agent: TestAgent) =>
      SubscriptionDetail.parse((await agent.get('/api/subscriptions/detail')).json()).data.subscription;

    // One person subscribed through their own checkout of the plan: it starts no other subscription,
    // which would end theirs (and leave them on one a stranger pays for, and may cancel).
    const subscriber = user;
    await subscribe();
    now = new Date(START.getTime() + 60 * 60_000);
    await send('subscription.create', forged('SUB_forged_used', subscriber.user.email));
    await applyStored('subscription.create:SUB_forged_used');
    expect(await heldBy(subscriber.agent)).toMatchObject({ status: 'active', plan: { id: planId } });
    expect(await activeOf(subscriber.user.id)).toEqual([SUBSCRIPTION_CODE]);

    // Another opened the plan's inline form days ago and never paid: that starts none either.
    const hesitant = await signedInAgent(t.app);
    const opened = await hesitant.agent.post('/api/subscriptions/checkout', {
      plan_id: planId,
      driver: 'paystack',
    });
    expect(opened.statusCode).toBe(200);
    now = new Date(START.getTime() + 3 * 24 * 60 * 60_000);
    await send('subscription.create', forged('SUB_forged_late', hesitant.user.email));
    await applyStored('subscription.create:SUB_forged_late');
    expect(await heldBy(hesitant.agent)).toBeNull();

    const events = await storedEvents(t);
    for (const id of ['subscription.create:SUB_forged_used', 'subscription.create:SUB_forged_late'])
      expect(events.find((event) => event.event_id === id)).toMatchObject({
        status: 'review',
        error: 'no_checkout',
      });
  });

  it('starts the subscription of a checkout paid hours later, and of a new checkout of the same plan', async () => {
    // The person opens the inline form and pays the next morning: Paystack's subscription follows.
    const answer = CheckoutAnswer.parse(
      (await user.agent.post('/api/subscriptions/checkout', { plan_id: planId, driver: 'paystack' })).json(),
    ).data;
    now = new Date(START.getTime() + 20 * 60 * 60_000);
    expect((await send('charge.success', chargeSuccess(answer.reference))).statusCode).toBe(200);
    expect((await send('subscription.create', subscriptionCreate())).statusCode).toBe(200);
    await applyStored(`charge.success:${answer.reference}`, `subscription.create:${SUBSCRIPTION_CODE}`);
    expect((await detail()).subscription).toMatchObject({ status: 'active', plan: { id: planId } });

    // Cancelled, then taken again with a new checkout of the same plan: the new one starts.
    expect((await user.agent.post('/api/subscriptions/cancel')).statusCode).toBe(204);
    await send('subscription.disable', {
      subscription_code: SUBSCRIPTION_CODE,
      status: 'non-renewing',
      next_payment_date: '2026-04-01T10:00:00.000Z',
    });
    await applyStored(`subscription.disable:${SUBSCRIPTION_CODE}`);
    expect((await detail()).subscription).toMatchObject({ status: 'cancelled' });
    const again = await user.agent.post('/api/subscriptions/checkout', {
      plan_id: planId,
      driver: 'paystack',
    });
    expect(again.statusCode).toBe(200);
    await send('subscription.create', { ...subscriptionCreate(), subscription_code: 'SUB_again' });
    await applyStored('subscription.create:SUB_again');
    expect(await activeOf(user.user.id)).toEqual(['SUB_again']);
  });

  it('cancels through the e-mail token; the disable event keeps it until the paid period ends', async () => {
    await subscribe();
    expect((await user.agent.post('/api/subscriptions/cancel')).statusCode).toBe(204);
    expect(peer.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /subscription/${SUBSCRIPTION_CODE}`,
      'POST /subscription/disable',
    ]);
    expect(peer.requests[1]!.json).toEqual({ code: SUBSCRIPTION_CODE, token: 'd7gofp6yppn3qz7' });

    await send('subscription.disable', {
      subscription_code: SUBSCRIPTION_CODE,
      status: 'non-renewing',
      next_payment_date: '2026-04-01T10:00:00.000Z',
    });
    await applyStored(`subscription.disable:${SUBSCRIPTION_CODE}`);
    expect((await detail()).subscription).toMatchObject({
      status: 'cancelled',
      ends_at: '2026-04-01T10:00:00.000Z',
    });
  });

  it('keeps a cancelled subscription to the end of its paid period when the disable names no date', async () => {
    await subscribe();
    expect((await user.agent.post('/api/subscriptions/cancel')).statusCode).toBe(204);
    const cancelled = (await detail()).subscription;
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    // A day on, Paystack's word on the subscription it disabled at once: cancelled, no next payment.
    now = new Date(START.getTime() + 24 * 60 * 60_000);
    await send('subscription.disable', {
      subscription_code: SUBSCRIPTION_CODE,
      status: 'cancelled',
      next_payment_date: null,
    });
    await applyStored(`subscription.disable:${SUBSCRIPTION_CODE}`);
    expect((await detail()).subscription).toMatchObject({ status: 'cancelled', ends_at: cancelled!.ends_at });
  });

  it('refuses a swap with 422 before any call to Paystack, and the plan stays', async () => {
    await subscribe();
    const response = await user.agent.post('/api/subscriptions/swap', { plan_id: otherPlanId });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toHaveProperty('plan_id');
    expect(peer.requests).toHaveLength(0);
    expect((await detail()).subscription).toMatchObject({ status: 'active', plan: { id: planId } });
  });

  it('records a failed renewal from invoice.payment_failed with a payment alert', async () => {
    await subscribe();
    await send('invoice.payment_failed', {
      invoice_code: 'INV_1',
      amount: 500_000,
      status: 'failed',
      paid: false,
      subscription: { subscription_code: SUBSCRIPTION_CODE },
      customer: { email: user.user.email, metadata: {} },
      transaction: { reference: 'T_failed_1', amount: 500_000, currency: 'NGN' },
    });
    await applyStored('invoice.payment_failed:INV_1:T_failed_1');
    const payments = TransactionList.parse((await user.agent.get('/api/user/transactions')).json()).data;
    expect(payments.find((p) => p.reference === 'T_failed_1')).toMatchObject({ status: 'failed' });
    const alerts = await t.deps.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', user.user.id)
      .execute();
    expect(alerts.map((n) => n.category)).toContain('payment-alert');
  });

  it("takes the next renewal date from Paystack's invoice, where a month's addition would drift", async () => {
    await subscribe();
    now = new Date('2026-04-01T10:01:00.000Z');
    // The dates Paystack will charge on, as its invoice names them (here its schedule moved to the
    // month's end). A month added to the last date instead kept the period apart from the charges,
    // and after a short month lost the day for good (31 January, 28 February, 28 March).
    for (const [invoice, next] of [
      ['INV_10', '2026-04-30T10:00:00.000Z'],
      ['INV_11', '2026-05-31T10:00:00.000Z'],
    ] as const) {
      const renewal = {
        invoice_code: invoice,
        amount: 500_000,
        status: 'success',
        paid: true,
        paid_at: now.toISOString(),
        subscription: { subscription_code: SUBSCRIPTION_CODE, status: 'active', next_payment_date: next },
        customer: { email: user.user.email, metadata: {} },
        transaction: { reference: `T_${invoice}`, status: 'success', amount: 500_000, currency: 'NGN' },
      };
      expect((await send('invoice.update', renewal)).statusCode).toBe(200);
      await applyStored(`invoice.update:${invoice}:T_${invoice}`);
      const stored = await t.deps.database.db.selectFrom('subscriptions').select('renews_at').execute();
      expect(stored).toEqual([{ renews_at: next }]);
      now = new Date(next);
    }
  });

  it('moves the renewal date with the charge that pays it, even when the first attempt fails between them', async () => {
    await subscribe();
    now = new Date('2026-04-01T10:01:00.000Z');
    const renewal = {
      invoice_code: 'INV_2',
      amount: 500_000,
      status: 'success',
      paid: true,
      paid_at: now.toISOString(),
      subscription: { subscription_code: SUBSCRIPTION_CODE, status: 'active' },
      customer: { email: user.user.email, metadata: {} },
      transaction: { reference: 'T_renewal_1', status: 'success', amount: 500_000, currency: 'NGN' },
    };
    expect((await send('invoice.update', renewal)).statusCode).toBe(200);
    // The job's first attempt records the charge, then cannot move the date (a lost connection).
    refused.table = 'subscriptions';
    await expect(applyStored('invoice.update:INV_2:T_renewal_1')).rejects.toThrow('update refused');
    await applyStored('invoice.update:INV_2:T_renewal_1');

    // Read from the tables: a month on, the test's session has expired.
    const db = t.deps.database.db;
    expect(await db.selectFrom('subscriptions').select(['status', 'renews_at']).execute()).toEqual([
      { status: 'active', renews_at: '2026-05-01T10:00:00.000Z' },
    ]);
    const charges = await db
      .selectFrom('transactions')
      .select('id')
      .where('reference', '=', 'T_renewal_1')
      .execute();
    expect(charges).toHaveLength(1);
    expect(await storedEvents(t)).toContainEqual(
      expect.objectContaining({ event_id: 'invoice.update:INV_2:T_renewal_1', status: 'applied' }),
    );
  });
});
