import {
  AdminPaymentEventList,
  CheckoutAnswer,
  TransactionList,
  type PaymentDriver,
} from '@atelier/contracts';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { applyBillingEventJob } from '../../src/modules/billing/billing.jobs';
import { UNAPPLIED_AFTER_MS } from '../../src/modules/billing/billing-events.service';
import { PayPalProvider } from '../../src/modules/billing/providers/paypal.provider';
import { PaystackProvider } from '../../src/modules/billing/providers/paystack.provider';
import { StripeProvider } from '../../src/modules/billing/providers/stripe.provider';
import { waitFor } from '../jobs/support/wait-for';
import type { TestAgent } from '../support/agent';
import { applyStoredEvents, clearTables, storedEvents } from '../support/billing-events';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import {
  paypalEvent,
  signPayPalEvent,
  startPayPalCertificatePeer,
  type PayPalCertificatePeer,
} from '../support/paypal-certificate-peer';
import { startProviderPeer, type ProviderPeer } from '../support/provider-peer';
import { signPaystackEvent, signStripeEvent, stripeEvent } from '../support/signed-webhooks';
import { createTestApp, type TestApp } from '../support/test-app';

// The money suite. Stripe, PayPal and Paystack are each played by a real local HTTP server
// answering as their APIs do (PayPal's signing certificate by a local HTTPS peer); every webhook is
// signed as the provider signs it and goes through the real route, store, job and ledger. A
// provider's signature proves only that the provider sent it: with an inline form (Paystack), the
// user, amount and currency in it are what the payer's browser chose. So a payment moves money
// only when it matches the checkout this instance stored.
const STRIPE_WEBHOOK_SECRET = 'whsec_money';
const PAYSTACK_SECRET_KEY = 'sk_test_paystack_money';
const PAYPAL_WEBHOOK_ID = '5GP028458E2496506';
const START = new Date('2026-05-04T09:00:00.000Z');
const MONEY_RECORDS = ['billing_events', 'transactions', 'balances', 'checkouts', 'notifications'] as const;
const DRIVERS: PaymentDriver[] = ['stripe', 'paypal', 'paystack'];

/** What a provider reports a payment as: every field may differ from the checkout's. */
interface ReportedPayment {
  reference: string;
  amountMinor: number;
  currency: string;
  userId: string;
  eventId: string;
}

describeEachDatabase('billing: money — a payment applies only as its checkout said', (kind) => {
  let t: TestApp;
  let stripe: ProviderPeer;
  let paystack: ProviderPeer;
  let paypal: ProviderPeer;
  let certs: PayPalCertificatePeer;
  let now: Date;
  let payer: { agent: TestAgent; user: UserRow };
  let victim: { agent: TestAgent; user: UserRow };
  let admin: TestAgent;
  let eventCount = 0;

  /**
   * The provider's own signed event for this payment, as its webhook sends it; `capture`: how
   * PayPal's capture of it went.
   */
  const signedPayment = (
    driver: PaymentDriver,
    payment: ReportedPayment,
    capture: 'COMPLETED' | 'DENIED' = 'COMPLETED',
  ) => {
    const seconds = Math.floor(now.getTime() / 1000);
    if (driver === 'stripe') {
      const event = stripeEvent(
        'checkout.session.completed',
        {
          id: `cs_${payment.reference}`,
          object: 'checkout.session',
          mode: 'payment',
          payment_status: 'paid',
          client_reference_id: payment.userId,
          amount_total: payment.amountMinor,
          currency: payment.currency.toLowerCase(),
          metadata: { type: 'balance', user_id: payment.userId, reference: payment.reference },
        },
        { id: payment.eventId, created: seconds },
      );
      return signStripeEvent(event, STRIPE_WEBHOOK_SECRET, seconds);
    }
    if (driver === 'paypal') {
      const event = paypalEvent(
        `PAYMENT.CAPTURE.${capture}`,
        {
          id: `CAP-${payment.eventId}`,
          status: capture === 'COMPLETED' ? 'COMPLETED' : 'DECLINED',
          amount: { currency_code: payment.currency, value: (payment.amountMinor / 100).toFixed(2) },
          custom_id: payment.userId,
          invoice_id: payment.reference,
        },
        { id: payment.eventId, createTime: now.toISOString() },
      );
      return signPayPalEvent(event, { key: certs.signing.key, webhookId: PAYPAL_WEBHOOK_ID, time: now });
    }
    const event = {
      event: 'charge.success',
      data: {
        id: 4_099_260_516,
        status: 'success',
        reference: payment.reference,
        amount: payment.amountMinor,
        currency: payment.currency,
        paid_at: now.toISOString(),
        metadata: { user_id: payment.userId, type: 'balance' },
      },
    };
    return signPaystackEvent(event, PAYSTACK_SECRET_KEY);
  };
  /** The id our store keys the event by (Paystack's events carry none of their own). */
  const storedEventId = (driver: PaymentDriver, payment: ReportedPayment) =>
    driver === 'paystack' ? `charge.success:${payment.reference}` : payment.eventId;

  const send = (driver: PaymentDriver, signed: { body: string | Buffer; headers: Record<string, string> }) =>
    t.app.inject({
      method: 'POST',
      url: `/api/subscriptions/${driver}/webhooks`,
      payload: signed.body,
      headers: signed.headers,
    });
  /** Posts the payment's event and applies it as the job does; answers the stored event. */
  const report = async (driver: PaymentDriver, payment: ReportedPayment) => {
    expect((await send(driver, signedPayment(driver, payment))).statusCode).toBe(200);
    await applyStoredEvents(t, driver, storedEventId(driver, payment));
    return (await storedEvents(t)).find((event) => event.event_id === storedEventId(driver, payment))!;
  };

  const topUp = async (driver: PaymentDriver, amount = '25.00') => {
    const response = await payer.agent.post('/api/subscriptions/balance/checkout', { amount, driver });
    expect(response.statusCode, response.body).toBe(200);
    return CheckoutAnswer.parse(response.json()).data;
  };
  /** The payment exactly as the checkout asked for it. */
  const matching = (reference: string): ReportedPayment => ({
    reference,
    amountMinor: 2500,
    currency: 'USD',
    userId: payer.user.id,
    eventId: `EV-${++eventCount}`,
  });

  const balanceOf = (userId: string) =>
    t.deps.database.db
      .selectFrom('balances')
      .select(['amount_minor', 'currency'])
      .where('user_id', '=', userId)
      .executeTakeFirst()
      .then((row) => row && { amount_minor: Number(row.amount_minor), currency: row.currency });
  const historyOf = async (agent: TestAgent) =>
    TransactionList.parse((await agent.get('/api/user/transactions')).json()).data;
  const reviewList = async () => {
    const response = await admin.get('/api/admin/payment-events');
    expect(response.statusCode).toBe(200);
    return AdminPaymentEventList.parse(response.json()).data;
  };

  /**
   * The payment exactly as the checkout of `reference` asked for it, reported twice (the provider
   * sends it again, the job runs again): one credit of 25.00 USD, nothing for the admin.
   */
  const creditedOnce = async (driver: PaymentDriver, reference: string) => {
    const payment = matching(reference);
    expect((await report(driver, payment)).status).toBe('applied');
    expect((await report(driver, payment)).status).toBe('applied');
    expect(await balanceOf(payer.user.id)).toEqual({ amount_minor: 2500, currency: 'USD' });
    expect(await historyOf(payer.agent)).toEqual([
      expect.objectContaining({ type: 'credit', amount: '25.00', currency: 'USD', reference }),
    ]);
    expect(await reviewList()).toEqual([]);
  };

  const statuses = async () => (await storedEvents(t)).map((event) => event.status).sort();
  /**
   * Sends a webhook while the queue refuses to take the job that applies it (the queue is down at
   * that moment; any other job still goes in), and checks the answer's status.
   */
  const failingApplyEnqueue = async (call: () => Promise<{ statusCode: number }>, status: number) => {
    const enqueue = t.deps.jobs.enqueue.bind(t.deps.jobs);
    const spy = vi
      .spyOn(t.deps.jobs, 'enqueue')
      .mockImplementation((definition, payload, options) =>
        definition.id === applyBillingEventJob.id
          ? Promise.reject(new Error('queue down'))
          : enqueue(definition, payload, options),
      );
    try {
      expect((await call()).statusCode).toBe(status);
    } finally {
      spy.mockRestore();
    }
  };

  beforeAll(async () => {
    stripe = await startProviderPeer({
      'POST /v1/checkout/sessions': () => [
        200,
        { id: 'cs_money', object: 'checkout.session', url: 'https://checkout.stripe.com/c/pay/cs_money' },
      ],
    });
    paystack = await startProviderPeer();
    paypal = await startProviderPeer({
      'POST /v1/oauth2/token': () => [
        200,
        { access_token: 'A21AA-money', token_type: 'Bearer', expires_in: 32_400 },
      ],
      'POST /v2/checkout/orders': () => [
        200,
        {
          id: '8MC585209K746392H',
          status: 'PAYER_ACTION_REQUIRED',
          links: [
            { href: 'https://www.paypal.com/checkoutnow?token=8MC585209K746392H', rel: 'payer-action' },
          ],
        },
      ],
    });
    certs = await startPayPalCertificatePeer();
    now = START;
    const clock = () => now;
    t = await createTestApp({
      database: kind,
      clock,
      paymentProviders: [
        new StripeProvider({ baseUrl: stripe.url, now: clock }),
        new PayPalProvider({ baseUrl: paypal.url, now: clock, certificateAgent: certs.agent() }),
        new PaystackProvider({ baseUrl: paystack.url, now: clock }),
      ],
      settings: {
        subscription_type: 'metered',
        currency: 'USD',
        allowed_payment_drivers: DRIVERS,
        stripe_secret_key: 'sk_test_money',
        stripe_webhook_secret: STRIPE_WEBHOOK_SECRET,
        paypal_client_id: 'client-id',
        paypal_secret: 'client-secret',
        paypal_webhook_id: PAYPAL_WEBHOOK_ID,
        paystack_public_key: 'pk_test_paystack_money',
        paystack_secret_key: PAYSTACK_SECRET_KEY,
      },
    });
    admin = (await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user)).agent;
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([stripe.close(), paystack.close(), paypal.close(), certs.close()]);
  });
  beforeEach(async () => {
    now = START;
    await clearTables(t, MONEY_RECORDS);
    payer = await signedInAgent(t.app);
    victim = await signedInAgent(t.app);
  });

  for (const driver of DRIVERS) {
    it(`${driver}: stores the checkout; the matching payment credits once, however often it is reported`, async () => {
      const answer = await topUp(driver);
      const checkout = await t.deps.database.db
        .selectFrom('checkouts')
        .selectAll()
        .where('reference', '=', answer.reference)
        .executeTakeFirstOrThrow();
      expect(checkout).toMatchObject({ driver, user_id: payer.user.id, purpose: 'balance', currency: 'USD' });
      expect(Number(checkout.amount_minor)).toBe(2500);

      await creditedOnce(driver, answer.reference);
    });

    it(`${driver}: a payment that matches no checkout changes no balance and is kept for the admin`, async () => {
      const event = await report(driver, { ...matching('NoCheckout'), amountMinor: 100_000 });
      expect(event).toMatchObject({ status: 'review', error: 'no_checkout' });
      expect(await balanceOf(payer.user.id)).toBeUndefined();
      expect(await historyOf(payer.agent)).toEqual([]);
      expect(await reviewList()).toEqual([
        expect.objectContaining({
          driver,
          status: 'review',
          reason: 'no_checkout',
          payment: { reference: 'NoCheckout', amount: '1000.00', currency: 'USD', user_id: payer.user.id },
        }),
      ]);
    });

    it(`${driver}: a payment of another amount than its checkout credits nothing`, async () => {
      const answer = await topUp(driver);
      const event = await report(driver, { ...matching(answer.reference), amountMinor: 250_000 });
      expect(event).toMatchObject({ status: 'review', error: 'amount' });
      expect(await balanceOf(payer.user.id)).toBeUndefined();
      expect(await historyOf(payer.agent)).toEqual([]);
    });

    it(`${driver}: a payment in another currency than its checkout credits nothing`, async () => {
      const answer = await topUp(driver);
      const event = await report(driver, { ...matching(answer.reference), currency: 'EUR' });
      expect(event).toMatchObject({ status: 'review', error: 'currency' });
      expect(await balanceOf(payer.user.id)).toBeUndefined();
    });

    it(`${driver}: a payment naming another account writes nothing into either account`, async () => {
      const answer = await topUp(driver);
      const event = await report(driver, { ...matching(answer.reference), userId: victim.user.id });
      expect(event).toMatchObject({ status: 'review', error: 'other_user' });
      expect(await balanceOf(victim.user.id)).toBeUndefined();
      expect(await balanceOf(payer.user.id)).toBeUndefined();
      expect(await historyOf(victim.agent)).toEqual([]);
      expect(await historyOf(payer.agent)).toEqual([]);
    });
    it(`${driver}: stores nothing when the apply job cannot be enqueued, and the provider's retry applies it once`, async () => {
      const answer = await topUp(driver);
      const payment = matching(answer.reference);
      // The event and its job are one unit of work: the enqueue fails, nothing is kept, and the
      // provider is told (500) to send the event again.
      await failingApplyEnqueue(() => send(driver, signedPayment(driver, payment)), 500);
      expect(await statuses()).toEqual([]);
      const worker = t.deps.jobs.startWorker({ definitions: [applyBillingEventJob], services: t.deps });
      try {
        expect((await send(driver, signedPayment(driver, payment))).statusCode).toBe(200);
        await waitFor('the retried event to be applied', async () => (await statuses()).join() === 'applied');
      } finally {
        await worker.close();
      }
      expect(await balanceOf(payer.user.id)).toEqual({ amount_minor: 2500, currency: 'USD' });
      expect(await historyOf(payer.agent)).toHaveLength(1);
    });

    it(`${driver}: the sweep enqueues an event whose job is gone for good, once it has waited long enough`, async () => {
      const answer = await topUp(driver);
      expect((await send(driver, signedPayment(driver, matching(answer.reference)))).statusCode).toBe(200);
      // Its job lost (a queue wiped, a job failed for good): the event waits as received.
      await t.deps.database.db.deleteFrom('jobs').where('name', '=', applyBillingEventJob.id).execute();
      expect(await statuses()).toEqual(['received']);
      const worker = t.deps.jobs.startWorker({ definitions: [applyBillingEventJob], services: t.deps });
      try {
        expect(await t.deps.billingEvents.sweep()).toBe(0);
        now = new Date(START.getTime() + UNAPPLIED_AFTER_MS + 1000);
        expect(await t.deps.billingEvents.sweep()).toBe(1);
        await waitFor('the swept event to be applied', async () => (await statuses()).join() === 'applied');
      } finally {
        await worker.close();
      }
      expect(await balanceOf(payer.user.id)).toEqual({ amount_minor: 2500, currency: 'USD' });
    });
  }

  it('paypal: a top-up whose capture was reported denied, then completed, credits once', async () => {
    const answer = await topUp('paypal');
    const denied = { ...matching(answer.reference), eventId: 'EV-denied' };
    expect((await send('paypal', signedPayment('paypal', denied, 'DENIED'))).statusCode).toBe(200);
    await applyStoredEvents(t, 'paypal', 'EV-denied');
    expect(await balanceOf(payer.user.id)).toBeUndefined();
    await creditedOnce('paypal', answer.reference);
  });

  it("paystack: the inline form's NGN 1,000 charge leaves a USD balance of 1.00 as it is", async () => {
    const credit = await admin.post(`/api/admin/users/${payer.user.id}/credit`, {
      amount: '1.00',
      note: 'Welcome',
    });
    expect(credit.statusCode).toBe(201);
    const answer = await topUp('paystack', '1000.00');
    // The payer's browser changes the currency of the form: Paystack charges NGN 1,000 and signs it.
    const event = await report('paystack', {
      ...matching(answer.reference),
      amountMinor: 100_000,
      currency: 'NGN',
    });
    expect(event).toMatchObject({ status: 'review', error: 'currency' });
    expect(await balanceOf(payer.user.id)).toEqual({ amount_minor: 100, currency: 'USD' });
    // Every admin hears of it, in plain words.
    const notifications = await t.deps.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '!=', payer.user.id)
      .execute();
    expect(notifications).toEqual([
      expect.objectContaining({ category: 'payment-alert', title: 'A payment needs a look' }),
    ]);
    expect(notifications[0]!.description).toContain('its currency differs from its checkout');
  });

  it('never moves a balance kept in another currency, even by a matching payment', async () => {
    const answer = await topUp('stripe');
    // The instance's currency was EUR when this balance was opened.
    await t.deps.database.db
      .insertInto('balances')
      .values({ user_id: payer.user.id, amount_minor: 700, currency: 'EUR', updated_at: START.toISOString() })
      .execute();
    const event = await report('stripe', matching(answer.reference));
    expect(event).toMatchObject({ status: 'review', error: 'balance_currency' });
    expect(await balanceOf(payer.user.id)).toEqual({ amount_minor: 700, currency: 'EUR' });
    expect(await historyOf(payer.agent)).toEqual([]);
    // The admin's credit is made in the balance's own currency, never the instance's beside it.
    const credit = await admin.post(`/api/admin/users/${payer.user.id}/credit`, {
      amount: '5.00',
      note: 'Sorry',
    });
    expect(credit.statusCode).toBe(201);
    expect(credit.json().data).toMatchObject({ amount: '5.00', currency: 'EUR' });
    expect(await balanceOf(payer.user.id)).toEqual({ amount_minor: 1200, currency: 'EUR' });
  });

  it("paystack: a plan's first charge naming another account leaves both histories empty", async () => {
    // No plan checkout was made under this reference: a charge claiming one is a claim only.
    const event = {
      event: 'charge.success',
      data: {
        reference: 'ForgedPlan',
        amount: 1999,
        currency: 'USD',
        paid_at: now.toISOString(),
        metadata: { user_id: victim.user.id, plan_id: 'any-plan' },
      },
    };
    expect((await send('paystack', signPaystackEvent(event, PAYSTACK_SECRET_KEY))).statusCode).toBe(200);
    await applyStoredEvents(t, 'paystack', 'charge.success:ForgedPlan');
    expect((await storedEvents(t))[0]).toMatchObject({ status: 'review', error: 'no_checkout' });
    expect(await historyOf(victim.agent)).toEqual([]);
  });
});
