import { CheckoutAnswer, SubscriptionDetail, TransactionList, UserResource } from '@atelier/contracts';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { Scheduler } from '../../src/jobs/scheduler';
import { billingJobDefinitions } from '../../src/modules/billing/billing.module';
import { billingTasks } from '../../src/modules/billing/billing.tasks';
import { EventOutOfOrder } from '../../src/modules/billing/billing-ledger.service';
import { GIGABYTE } from '../../src/modules/settings/settings.defaults';
import type { TestAgent } from '../support/agent';
import {
  applyStoredEvents,
  clearTables,
  SUBSCRIPTION_RECORDS,
  subscriptionStates,
} from '../support/billing-events';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { startProviderPeer, type ProviderPeer } from '../support/provider-peer';
import { signStripeEvent, stripeEvent } from '../support/signed-webhooks';
import { createTestApp, type TestApp } from '../support/test-app';

// Stripe is played by a real local HTTP server (`startProviderPeer`): no payment provider can be
// reached from here. Webhooks are signed as Stripe signs them, with the secret set below.
const WEBHOOK_SECRET = 'whsec_ledger_test';
const START = new Date('2026-03-01T10:00:00.000Z');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

describeEachDatabase('billing: subscriptions from provider events', (kind) => {
  let t: TestApp;
  let peer: ProviderPeer;
  let now: Date;
  let admin: { agent: TestAgent; user: UserRow };
  let user: { agent: TestAgent; user: UserRow };
  let planId: string;
  let biggerPlanId: string;
  /** Stripe answering its subscription calls with a server error. */
  let stripeDown = false;

  const send = (
    event: Record<string, unknown>,
    sign = signStripeEvent(event, WEBHOOK_SECRET, seconds(now)),
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/stripe/webhooks',
      payload: sign.body,
      headers: sign.headers,
    });

  /** What the job does, for each stored event in the order given (the worker's order is tested apart). */
  const applyStored = (...eventIds: string[]) => applyStoredEvents(t, null, ...eventIds);

  const started = (id: string, subscription: string, created = seconds(now)) =>
    stripeEvent(
      'checkout.session.completed',
      {
        id: `cs_${id}`,
        object: 'checkout.session',
        mode: 'subscription',
        payment_status: 'paid',
        client_reference_id: user.user.id,
        subscription,
        metadata: { plan_id: planId, user_id: user.user.id },
      },
      { id, created },
    );
  const updated = (
    id: string,
    subscription: string,
    fields: Record<string, unknown>,
    created = seconds(now),
  ) =>
    stripeEvent(
      'customer.subscription.updated',
      { id: subscription, object: 'subscription', metadata: { plan_id: planId }, ...fields },
      { id, created },
    );
  const resource = async () => UserResource.parse((await user.agent.get('/api/user')).json());
  const detail = async () =>
    SubscriptionDetail.parse((await user.agent.get('/api/subscriptions/detail')).json()).data;

  beforeAll(async () => {
    peer = await startProviderPeer({
      'POST /v1/checkout/sessions': () => [
        200,
        { id: 'cs_new', object: 'checkout.session', url: 'https://checkout.stripe.com/c/pay/cs_new' },
      ],
      'POST /v1/subscriptions/sub_1': () =>
        stripeDown
          ? [500, { error: { type: 'api_error', message: 'Something went wrong on our end' } }]
          : [200, { id: 'sub_1', object: 'subscription' }],
      'GET /v1/subscriptions/sub_1': () => [
        200,
        {
          id: 'sub_1',
          object: 'subscription',
          items: { object: 'list', data: [{ id: 'si_1', object: 'subscription_item' }] },
        },
      ],
    });
    now = START;
    t = await createTestApp({
      database: kind,
      clock: () => now,
      // The clock moves over months here; the sessions would lapse on the way (sessions have their own tests).
      env: { STRIPE_API_URL: peer.url, SESSION_TTL_DAYS: '365' },
      settings: {
        subscription_type: 'fixed',
        storage_limitation: true,
        default_storage_gb: 5,
        default_team_members: 3,
        allowed_payment_drivers: ['stripe'],
        stripe_secret_key: 'sk_test_ledger',
        stripe_webhook_secret: WEBHOOK_SECRET,
      },
    });
    admin = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user);
    const plan = (features: Record<string, number>, amount: string, name: string) =>
      admin.agent
        .post('/api/admin/plans', {
          type: 'fixed',
          name,
          currency: 'USD',
          amount,
          interval: 'month',
          features,
        })
        .then((r) => (r.json() as { data: { id: string } }).data.id);
    planId = await plan({ max_storage_amount: 200, max_team_members: -1 }, '19.99', 'Studio');
    biggerPlanId = await plan({ max_storage_amount: 1000, max_team_members: 50 }, '49.00', 'Agency');
  });
  afterAll(async () => {
    await t.close();
    await peer.close();
  });
  beforeEach(async () => {
    now = START;
    stripeDown = false;
    peer.requests.length = 0;
    await clearTables(t, SUBSCRIPTION_RECORDS);
    user = await signedInAgent(t.app);
  });

  it('answers a Stripe checkout with the provider page, naming the user and the plan', async () => {
    const response = await user.agent.post('/api/subscriptions/checkout', {
      plan_id: planId,
      driver: 'stripe',
    });
    expect(response.statusCode).toBe(200);
    const answer = CheckoutAnswer.parse(response.json()).data;
    expect(answer).toMatchObject({ driver: 'stripe', url: 'https://checkout.stripe.com/c/pay/cs_new' });
    expect(answer.reference).toMatch(/^[A-Za-z0-9]{10}$/);
    const sent = peer.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(sent.form.get('client_reference_id')).toBe(user.user.id);
    expect(sent.form.get('metadata[plan_id]')).toBe(planId);
    expect(sent.headers.authorization).toBe('Bearer sk_test_ledger');
  });

  it('refuses a driver the admin did not allow and a plan that cannot be chosen, calling no provider', async () => {
    const paypal = await user.agent.post('/api/subscriptions/checkout', {
      plan_id: planId,
      driver: 'paypal',
    });
    expect(paypal.statusCode).toBe(422);
    expect(paypal.json().errors).toHaveProperty('driver');
    const unknown = await user.agent.post('/api/subscriptions/checkout', {
      plan_id: 'nope',
      driver: 'stripe',
    });
    expect(unknown.statusCode).toBe(422);
    expect(peer.requests).toHaveLength(0);
  });

  it('refuses missing, bad and stale signatures with 400 and stores nothing', async () => {
    const event = started('evt_sig', 'sub_1');
    const good = signStripeEvent(event, WEBHOOK_SECRET, seconds(now));
    const missing = await send(event, { body: good.body, headers: { 'content-type': 'application/json' } });
    const wrongSecret = await send(event, signStripeEvent(event, 'whsec_other', seconds(now)));
    const stale = await send(event, signStripeEvent(event, WEBHOOK_SECRET, seconds(now) - 301));
    const tampered = await send(event, { body: good.body.replace('sub_1', 'sub_2'), headers: good.headers });
    for (const answer of [missing, wrongSecret, stale, tampered]) expect(answer.statusCode).toBe(400);
    expect(await t.deps.database.db.selectFrom('billing_events').selectAll().execute()).toHaveLength(0);
    // Cookies a client happens to send give a webhook nothing, and do not make it need an XSRF token.
    const withCookies = signStripeEvent(started('evt_cookie', 'sub_9'), WEBHOOK_SECRET, seconds(now));
    const cookied = await send(event, {
      body: withCookies.body,
      headers: { ...withCookies.headers, cookie: 'atelier_session=whatever; XSRF-TOKEN=stale' },
    });
    expect(cookied.statusCode).toBe(200);
    await t.deps.database.db.deleteFrom('billing_events').execute();
    const unknownDriver = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/adyen/webhooks',
      payload: '{}',
    });
    expect(unknownDriver.statusCode).toBe(404);
  });

  it('starts the subscription once, however often the event is replayed, and the plan sets the limits', async () => {
    const before = await resource();
    expect(before.meta.usages.capacity).toBe(5 * GIGABYTE);
    expect(before.meta.limitations.max_team_members.total).toBe(3);

    const event = started('evt_start', 'sub_1');
    expect((await send(event)).statusCode).toBe(200);
    expect((await send(event)).statusCode).toBe(200); // a replay: answered the same
    expect(await t.deps.database.db.selectFrom('billing_events').selectAll().execute()).toHaveLength(1);
    await applyStored('evt_start');
    await applyStored('evt_start'); // the job run twice

    const held = await detail();
    expect(held.subscription).toMatchObject({ status: 'active', driver: 'stripe', plan: { id: planId } });
    expect(held.subscription!.renews_at).toBe('2026-04-01T10:00:00.000Z');
    const after = await resource();
    expect(after.meta.usages.capacity).toBe(200 * GIGABYTE);
    expect(after.meta.limitations.max_team_members.total).toBe(-1);
    const listed = (
      await admin.agent.get(`/api/admin/users?search=${encodeURIComponent(user.user.email)}`)
    ).json();
    expect(listed.data[0].meta.usages.capacity).toBe(200 * GIGABYTE);
    const notes = await t.deps.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', user.user.id)
      .execute();
    expect(notes.map((n) => n.category)).toEqual(['subscription-created']);
    expect(await t.deps.database.db.selectFrom('subscriptions').selectAll().execute()).toHaveLength(1);
  });

  it('records a paid invoice once as a completed charge with an invoice, and a failed one with a payment alert', async () => {
    await send(started('evt_s', 'sub_1'));
    await applyStored('evt_s');
    const paid = stripeEvent(
      'invoice.paid',
      {
        id: 'in_1',
        object: 'invoice',
        amount_paid: 1999,
        currency: 'usd',
        subscription: 'sub_1',
        customer_email: user.user.email,
      },
      { id: 'evt_paid' },
    );
    await send(paid);
    await send(
      stripeEvent('invoice.paid', (paid.data as { object: object }).object as Record<string, unknown>, {
        id: 'evt_paid_again',
      }),
    );
    await applyStored('evt_paid', 'evt_paid_again');
    const failed = stripeEvent(
      'invoice.payment_failed',
      { id: 'in_2', object: 'invoice', amount_due: 1999, currency: 'usd', subscription: 'sub_1' },
      { id: 'evt_failed' },
    );
    await send(failed);
    await applyStored('evt_failed');

    const list = TransactionList.parse((await user.agent.get('/api/user/transactions')).json()).data;
    expect(list.map((x) => [x.type, x.status, x.amount, x.currency, x.reference, x.invoice])).toEqual([
      ['charge', 'failed', '19.99', 'USD', 'in_2', false],
      ['charge', 'completed', '19.99', 'USD', 'in_1', true],
    ]);
    expect(list[1]!.note).toContain('Studio');
    const categories = (
      await t.deps.database.db
        .selectFrom('notifications')
        .select('category')
        .where('user_id', '=', user.user.id)
        .execute()
    ).map((n) => n.category);
    expect(categories.sort()).toEqual(['payment-alert', 'subscription-created']);

    const other = await signedInAgent(t.app);
    const theirs = TransactionList.parse((await other.agent.get('/api/user/transactions')).json());
    expect(theirs.data).toHaveLength(0);
    const revenue = (await admin.agent.get('/api/admin/dashboard')).json().revenue;
    expect(revenue).toMatchObject({ currency: 'USD', last_30_days: '19.99' });
    const adminList = (await admin.agent.get('/api/admin/transactions?status=completed')).json();
    expect(adminList.data).toHaveLength(1);
    expect(adminList.data[0].user).toMatchObject({ id: user.user.id, email: user.user.email });
  });

  it('completes a renewal that failed and was then paid on retry, with its invoice and next period', async () => {
    await send(started('evt_s', 'sub_1'));
    await applyStored('evt_s');
    now = new Date('2026-04-01T10:05:00.000Z');
    const invoice = { id: 'in_retry', object: 'invoice', currency: 'usd', subscription: 'sub_1' };
    await send(stripeEvent('invoice.payment_failed', { ...invoice, amount_due: 1999 }, { id: 'evt_failed' }));
    await applyStored('evt_failed');
    expect((await detail()).subscription!.renews_at).toBe('2026-04-01T10:00:00.000Z');
    // Stripe retries the same invoice, which then is paid.
    now = new Date('2026-04-03T10:00:00.000Z');
    await send(stripeEvent('invoice.paid', { ...invoice, amount_paid: 1999 }, { id: 'evt_paid' }));
    await applyStored('evt_paid');

    const list = TransactionList.parse((await user.agent.get('/api/user/transactions')).json()).data;
    expect(list.map((x) => [x.type, x.status, x.amount, x.reference, x.invoice])).toEqual([
      ['charge', 'completed', '19.99', 'in_retry', true],
    ]);
    expect((await detail()).subscription!.renews_at).toBe('2026-05-01T10:00:00.000Z');
  });

  it('starts the next period when the renewal is paid, and only then', async () => {
    await send(started('evt_s', 'sub_1'));
    await applyStored('evt_s');
    const invoice = (id: string) =>
      stripeEvent(
        'invoice.paid',
        { id, object: 'invoice', amount_paid: 1999, currency: 'usd', subscription: 'sub_1' },
        { id: `evt_${id}` },
      );
    await send(invoice('in_first'));
    await applyStored('evt_in_first'); // the first payment, at the start
    expect((await detail()).subscription!.renews_at).toBe('2026-04-01T10:00:00.000Z');
    now = new Date('2026-04-01T10:05:00.000Z');
    await send(invoice('in_renewal'));
    await applyStored('evt_in_renewal');
    expect((await detail()).subscription!.renews_at).toBe('2026-05-01T10:00:00.000Z');
  });

  it('renews a subscription started on the 31st at the end of the next month, not in the month after', async () => {
    now = new Date('2026-01-31T10:00:00.000Z');
    await send(started('evt_s', 'sub_1'));
    await applyStored('evt_s');
    expect((await detail()).subscription!.renews_at).toBe('2026-02-28T10:00:00.000Z');
  });

  it('waits for the subscription when its change arrives first, and ignores a change older than the one applied', async () => {
    const periodEnd = seconds(new Date('2026-04-01T10:00:00.000Z'));
    await send(
      updated(
        'evt_cancel',
        'sub_1',
        { cancel_at_period_end: true, current_period_end: periodEnd },
        seconds(now) + 20,
      ),
    );
    await send(started('evt_first', 'sub_1', seconds(now)));
    await expect(applyStored('evt_cancel')).rejects.toBeInstanceOf(EventOutOfOrder);
    await applyStored('evt_first', 'evt_cancel'); // the retry, once the start is applied
    expect((await detail()).subscription).toMatchObject({
      status: 'cancelled',
      ends_at: '2026-04-01T10:00:00.000Z',
    });

    // An earlier "renewing" state delivered late changes nothing.
    await send(
      updated(
        'evt_late',
        'sub_1',
        { cancel_at_period_end: false, current_period_end: periodEnd },
        seconds(now) + 10,
      ),
    );
    await applyStored('evt_late');
    expect((await detail()).subscription!.status).toBe('cancelled');
  });

  it('ignores an end older than the change applied: an unpaid state delivered after the active one that followed it', async () => {
    const periodEnd = seconds(new Date('2026-04-01T10:00:00.000Z'));
    await send(started('evt_s', 'sub_1', seconds(now)));
    await applyStored('evt_s');
    await send(
      updated(
        'evt_active',
        'sub_1',
        { status: 'active', cancel_at_period_end: false, current_period_end: periodEnd },
        seconds(now) + 20,
      ),
    );
    await applyStored('evt_active');
    await send(updated('evt_unpaid', 'sub_1', { status: 'unpaid' }, seconds(now) + 10));
    await applyStored('evt_unpaid');
    expect((await detail()).subscription).toMatchObject({ status: 'active' });
    expect((await resource()).meta.usages.capacity).toBe(200 * GIGABYTE);
  });

  it('cancels at the period end: limits stay until then, return to the defaults after, and the deletion completes it', async () => {
    await send(started('evt_s', 'sub_1'));
    await applyStored('evt_s');
    expect((await user.agent.post('/api/subscriptions/cancel')).statusCode).toBe(204);
    const call = peer.requests.find((r) => r.method === 'POST' && r.path === '/v1/subscriptions/sub_1')!;
    expect(call.form.get('cancel_at_period_end')).toBe('true');
    expect((await detail()).subscription).toMatchObject({
      status: 'cancelled',
      ends_at: '2026-04-01T10:00:00.000Z',
      renews_at: null,
    });
    expect((await resource()).meta.usages.capacity).toBe(200 * GIGABYTE);
    expect((await user.agent.post('/api/subscriptions/cancel')).statusCode).toBe(422);

    now = new Date('2026-04-01T10:00:01.000Z');
    expect((await detail()).subscription).toBeNull();
    expect((await resource()).meta.usages.capacity).toBe(5 * GIGABYTE);
    await send(
      stripeEvent(
        'customer.subscription.deleted',
        { id: 'sub_1', object: 'subscription' },
        { id: 'evt_end' },
      ),
    );
    await applyStored('evt_end');
    const row = await t.deps.database.db.selectFrom('subscriptions').selectAll().executeTakeFirstOrThrow();
    expect(row.status).toBe('completed');
  });

  it('stops the renewals at Stripe before an admin deletes the account, and keeps the account while Stripe cannot be told', async () => {
    await send(started('evt_s', 'sub_1'));
    await applyStored('evt_s');
    const renewalStops = () =>
      peer.requests.filter(
        (r) =>
          r.method === 'POST' &&
          r.path === '/v1/subscriptions/sub_1' &&
          r.form.get('cancel_at_period_end') === 'true',
      ).length;
    const remove = () => admin.agent.delete(`/api/admin/users/${user.user.id}`, { name: user.user.name });

    stripeDown = true;
    expect((await remove()).statusCode).toBe(502);
    expect(renewalStops()).toBeGreaterThan(0); // the provider's client retries a server error
    expect((await detail()).subscription!.status).toBe('active');

    stripeDown = false;
    peer.requests.length = 0;
    expect((await remove()).statusCode).toBe(204);
    expect(renewalStops()).toBe(1);
    const left = await t.deps.database.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', user.user.id)
      .executeTakeFirst();
    expect(left).toBeUndefined();
  });

  it('ends the subscription and its limits when Stripe gives up on its unpaid renewal', async () => {
    await send(started('evt_s', 'sub_1'));
    await applyStored('evt_s');
    now = new Date('2026-04-08T10:00:00.000Z');
    await send(
      updated('evt_unpaid', 'sub_1', {
        status: 'unpaid',
        cancel_at_period_end: false,
        current_period_end: seconds(new Date('2026-05-01T10:00:00.000Z')),
      }),
    );
    await applyStored('evt_unpaid');
    const row = await t.deps.database.db.selectFrom('subscriptions').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'completed', renews_at: null });
    expect((await detail()).subscription).toBeNull();
    expect((await resource()).meta.usages.capacity).toBe(5 * GIGABYTE);
  });

  it('starts nothing from a checkout completed unpaid, and starts it when the delayed payment succeeds', async () => {
    const session = (type: string, id: string, payment_status: string) =>
      stripeEvent(
        type,
        {
          id: 'cs_delayed',
          object: 'checkout.session',
          mode: 'subscription',
          payment_status,
          client_reference_id: user.user.id,
          subscription: 'sub_1',
          metadata: { plan_id: planId, user_id: user.user.id },
        },
        { id },
      );
    await send(session('checkout.session.completed', 'evt_unpaid', 'unpaid'));
    await applyStored('evt_unpaid');
    expect((await detail()).subscription).toBeNull();
    await send(session('checkout.session.async_payment_succeeded', 'evt_paid', 'paid'));
    await applyStored('evt_paid');
    expect((await detail()).subscription).toMatchObject({ status: 'active', plan: { id: planId } });
  });

  it('completes a cancelled subscription on the scheduler once its period is over, without word from the provider', async () => {
    await send(started('evt_s', 'sub_1'));
    await applyStored('evt_s');
    expect((await user.agent.post('/api/subscriptions/cancel')).statusCode).toBe(204);
    const scheduler = new Scheduler({ database: t.deps.database, now: () => now, logger: t.deps.logger });
    scheduler.start(billingTasks(t.deps).filter((task) => task.name === 'billing.lapsed-subscriptions'));
    const status = async () =>
      (await t.deps.database.db.selectFrom('subscriptions').select('status').executeTakeFirstOrThrow())
        .status;
    try {
      await scheduler.tick();
      expect(await status()).toBe('cancelled');
      expect((await resource()).meta.usages.capacity).toBe(200 * GIGABYTE);

      now = new Date('2026-04-01T10:05:00.000Z');
      await scheduler.tick();
      expect(await status()).toBe('completed');
      expect((await detail()).subscription).toBeNull();
      expect((await resource()).meta.usages.capacity).toBe(5 * GIGABYTE);
      expect((await resource()).meta.limitations.max_team_members.total).toBe(3);
    } finally {
      await scheduler.stop();
    }
  });

  it('swaps to another plan at the provider, and the new limits apply', async () => {
    await send(started('evt_s', 'sub_1'));
    await applyStored('evt_s');
    const unregistered = await user.agent.post('/api/subscriptions/swap', { plan_id: biggerPlanId });
    expect(unregistered.statusCode).toBe(422); // the price is not registered with Stripe yet
    await t.deps.database.db
      .insertInto('plan_registrations')
      .values({
        plan_id: biggerPlanId,
        driver: 'stripe',
        provider_plan_id: 'price_agency',
        created_at: now.toISOString(),
      })
      .execute();
    const swapped = await user.agent.post('/api/subscriptions/swap', { plan_id: biggerPlanId });
    expect(swapped.statusCode).toBe(200);
    const call = peer.requests.filter((r) => r.path === '/v1/subscriptions/sub_1').at(-1)!;
    expect(call.form.get('items[0][price]')).toBe('price_agency');
    expect((await resource()).meta.usages.capacity).toBe(1000 * GIGABYTE);
    expect((await user.agent.post('/api/subscriptions/swap', { plan_id: biggerPlanId })).statusCode).toBe(
      422,
    );
  });

  it('lets an account left on the metered plan by a switch to fixed plans check one out, never swap to it for free', async () => {
    const instance = (subscription_type: string) =>
      admin.agent.post('/api/admin/settings', { settings: { subscription_type } });
    const { db } = t.deps.database;
    expect((await instance('metered')).statusCode).toBe(204);
    const metered = await admin.agent.post('/api/admin/plans', {
      type: 'metered',
      name: 'Pay as you go',
      currency: 'USD',
      meters: [
        {
          key: 'flat_fee',
          aggregate: 'maximum',
          tiers: [{ first_unit: 1, last_unit: null, per_unit: '2.00', flat_fee: '0.00' }],
        },
      ],
    });
    expect(metered.statusCode, metered.body).toBe(201);
    const meteredId = (metered.json() as { data: { id: string } }).data.id;
    try {
      expect((await detail()).subscription).toMatchObject({ driver: null, plan: { id: meteredId } });
      expect((await instance('fixed')).statusCode).toBe(204);

      const swap = await user.agent.post('/api/subscriptions/swap', { plan_id: planId });
      expect(swap.statusCode).toBe(422);
      expect(swap.json().errors).toHaveProperty('plan_id');
      expect((await detail()).subscription!.plan.id).toBe(meteredId);
      expect((await resource()).meta.usages.capacity).toBe(5 * GIGABYTE);

      const checkout = await user.agent.post('/api/subscriptions/checkout', {
        plan_id: planId,
        driver: 'stripe',
      });
      expect(checkout.statusCode, checkout.body).toBe(200);
      await send(started('evt_s', 'sub_1'));
      await applyStored('evt_s');
      expect((await detail()).subscription).toMatchObject({
        status: 'active',
        driver: 'stripe',
        plan: { id: planId },
      });
      expect((await resource()).meta.usages.capacity).toBe(200 * GIGABYTE);
    } finally {
      await instance('fixed');
      await db.deleteFrom('subscriptions').where('plan_id', '=', meteredId).execute();
      await db.deleteFrom('plans').where('id', '=', meteredId).execute();
    }
  });

  it('stops the renewals at Stripe of a subscription a second paid checkout replaced', async () => {
    await send(started('evt_first', 'sub_1'));
    await send(started('evt_second', 'sub_2'));
    await applyStored('evt_first', 'evt_second');
    expect(await subscriptionStates(t)).toEqual([
      { provider_subscription_id: 'sub_1', status: 'completed' },
      { provider_subscription_id: 'sub_2', status: 'active' },
    ]);
    const stops = (subscription: string) =>
      peer.requests.filter(
        (r) =>
          r.method === 'POST' &&
          r.path === `/v1/subscriptions/${subscription}` &&
          r.form.get('cancel_at_period_end') === 'true',
      ).length;
    const worker = t.deps.jobs.startWorker({ definitions: billingJobDefinitions, services: t.deps });
    try {
      await expect.poll(() => stops('sub_1'), { timeout: 10_000 }).toBe(1);
    } finally {
      await worker.close();
    }
    expect(stops('sub_2')).toBe(0);
    expect((await detail()).subscription).toMatchObject({
      status: 'active',
      renews_at: '2026-04-01T10:00:00.000Z',
    });
  });

  it('applies a stored event through the job queue', async () => {
    const worker = t.deps.jobs.startWorker({ definitions: billingJobDefinitions, services: t.deps });
    try {
      await send(started('evt_job', 'sub_1'));
      await expect
        .poll(async () => (await detail()).subscription?.status, { timeout: 10_000 })
        .toBe('active');
    } finally {
      await worker.close();
    }
    const admins = (await admin.agent.get('/api/admin/subscriptions?status=active')).json();
    expect(admins.data[0]).toMatchObject({
      user: { id: user.user.id },
      plan: { id: planId, name: 'Studio' },
      driver: 'stripe',
    });
    const subscribers = (await admin.agent.get(`/api/admin/plans/${planId}/subscribers`)).json();
    expect(subscribers.data).toHaveLength(1);
    expect((await admin.agent.delete(`/api/admin/plans/${planId}`)).json().data.attributes.status).toBe(
      'archived',
    );
    await t.deps.database.db
      .updateTable('plans')
      .set({ status: 'active' })
      .where('id', '=', planId)
      .execute();
  });
});
