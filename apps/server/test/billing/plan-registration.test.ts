import { AdminPlanResource } from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-queue';
import { billingJobDefinitions } from '../../src/modules/billing/billing.module';
import { registerPlanJob } from '../../src/modules/billing/billing.jobs';
import { PlansRepository } from '../../src/modules/billing/plans.repository';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { startProviderPeer, type PeerAnswer, type ProviderPeer } from '../support/provider-peer';
import { createTestApp, type TestApp } from '../support/test-app';

// Stripe and PayPal are real local HTTP servers playing their APIs (test/support/provider-peer.ts):
// the providers call them over HTTP exactly as they would call Stripe and PayPal. Paystack points at
// a port nobody listens on: a provider that is down.

const PAYMENT_KEYS = {
  stripe_public_key: 'pk_test_public',
  stripe_secret_key: 'sk_test_secret',
  stripe_webhook_secret: 'whsec_test',
  paypal_client_id: 'client-id',
  paypal_secret: 'client-secret',
  paypal_webhook_id: 'WH-1',
};

const fixedPlan = (name: string) => ({
  type: 'fixed',
  name,
  description: 'For small teams',
  currency: 'USD',
  amount: '19.99',
  interval: 'month',
  features: { max_storage_amount: 200, max_team_members: 5 },
});

const meteredPlan = {
  type: 'metered',
  name: 'Pay as you go',
  description: '',
  currency: 'USD',
  meters: [
    {
      key: 'storage',
      aggregate: 'maximum',
      tiers: [{ first_unit: 1, last_unit: null, per_unit: '0.10', flat_fee: '0.00' }],
    },
  ],
};

/** The registration job with a short backoff, so a retry comes within the test. */
const quickDefinitions = billingJobDefinitions.map((definition) =>
  definition.id === registerPlanJob.id
    ? { ...definition, backoff: { type: 'fixed' as const, delayMs: 200 } }
    : definition,
);

/** A port that was just free: nothing answers there. */
async function deadUrl(): Promise<string> {
  const peer = await startProviderPeer();
  await peer.close();
  return peer.url;
}

describeEachDatabase('billing: registering plans with the providers', (kind) => {
  let t: TestApp;
  let admin: TestAgent;
  let stripe: ProviderPeer;
  let paypal: ProviderPeer;
  let paypalPlansUp = false;
  let worker: JobWorker | null = null;

  const registrations = (planId: string) =>
    t.deps.database.db
      .selectFrom('plan_registrations')
      .select(['driver', 'provider_plan_id'])
      .where('plan_id', '=', planId)
      .orderBy('driver')
      .execute();
  const calls = (peer: ProviderPeer, path: string) =>
    peer.requests.filter((request) => request.method === 'POST' && request.path === path).length;
  const waitingJobs = async () => (await t.deps.jobs.counts([registerPlanJob.id])).waiting;
  const startWorker = () => {
    worker = t.deps.jobs.startWorker({ definitions: quickDefinitions, services: t.deps });
  };
  const createPlan = async (body: Record<string, unknown>) => {
    const answer = await admin.post('/api/admin/plans', body);
    expect(answer.statusCode, answer.body).toBe(201);
    return AdminPlanResource.parse(answer.json()).data;
  };

  beforeAll(async () => {
    stripe = await startProviderPeer({
      'POST /v1/products': (request) => [
        200,
        { id: `prod_${calls(stripe, '/v1/products')}`, object: 'product', name: request.form.get('name') },
      ],
      'POST /v1/prices': () => [200, { id: `price_${calls(stripe, '/v1/prices')}`, object: 'price' }],
    });
    const paypalDown: PeerAnswer = [503, { name: 'SERVICE_UNAVAILABLE', debug_id: 'd1' }];
    paypal = await startProviderPeer({
      'POST /v1/oauth2/token': () => [
        200,
        { access_token: 'A21AA-token', token_type: 'Bearer', expires_in: 32_400, nonce: 'n' },
      ],
      'POST /v1/catalogs/products': () => [201, { id: 'PROD-1' }],
      'POST /v1/billing/plans': () =>
        paypalPlansUp
          ? [201, { id: `P-${calls(paypal, '/v1/billing/plans')}`, status: 'ACTIVE' }]
          : paypalDown,
    });
    t = await createTestApp({
      database: kind,
      settings: { subscription_type: 'fixed', allowed_payment_drivers: ['stripe', 'paypal', 'paystack'] },
      env: { STRIPE_API_URL: stripe.url, PAYPAL_API_URL: paypal.url, PAYSTACK_API_URL: await deadUrl() },
    });
    admin = (await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user)).agent;
  });
  afterEach(async () => {
    await worker?.close();
    worker = null;
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
    await paypal.close();
  });

  it('stores a plan before any provider knows it; the job registers it once the admin sets a provider up', async () => {
    // No provider is set up: the plan is stored and the job has nobody to ask.
    const plan = await createPlan(fixedPlan('Early'));
    expect(stripe.requests).toHaveLength(0);
    startWorker();
    await expect.poll(waitingJobs, { timeout: 10_000 }).toBe(0);
    expect(await registrations(plan.id)).toEqual([]);
    await worker!.close();

    // The admin saves Stripe's keys: the plans are queued again, and registered.
    const saved = await admin.post('/api/admin/settings', {
      settings: {
        stripe_public_key: PAYMENT_KEYS.stripe_public_key,
        stripe_secret_key: PAYMENT_KEYS.stripe_secret_key,
        stripe_webhook_secret: PAYMENT_KEYS.stripe_webhook_secret,
      },
    });
    expect(saved.statusCode, saved.body).toBeLessThan(300);
    expect(await waitingJobs()).toBeGreaterThan(0);
    startWorker();
    await expect
      .poll(() => registrations(plan.id), { timeout: 15_000 })
      .toEqual([{ driver: 'stripe', provider_plan_id: expect.stringMatching(/^price_/) }]);
    expect(calls(stripe, '/v1/prices')).toBe(1);
  });

  it('answers 201 at once while a provider is down; the job retries it and never registers one twice', async () => {
    await t.deps.settings.set({
      ...PAYMENT_KEYS,
      paystack_public_key: 'pk_test_paystack',
      paystack_secret_key: 'sk_test_paystack',
    });
    const stripeBefore = calls(stripe, '/v1/prices');

    const started = Date.now();
    const plan = await createPlan(fixedPlan('Studio'));
    expect(Date.now() - started).toBeLessThan(2_000);
    // Nothing was asked of any provider during the request.
    expect(calls(stripe, '/v1/prices')).toBe(stripeBefore);
    expect(calls(paypal, '/v1/billing/plans')).toBe(0);

    // A metered plan is paid from the balance: never registered, nothing queued.
    const waiting = await waitingJobs();
    await createPlan(meteredPlan);
    expect(await waitingJobs()).toBe(waiting);

    startWorker();
    // Stripe takes it; PayPal answers 503 and Paystack does not answer: the job fails and is retried.
    await expect
      .poll(() => calls(paypal, '/v1/billing/plans'), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(2);
    expect(await registrations(plan.id)).toEqual([
      { driver: 'stripe', provider_plan_id: expect.stringMatching(/^price_/) },
    ]);
    expect(calls(stripe, '/v1/prices')).toBe(stripeBefore + 1);

    // PayPal comes back: the next retry registers the plan there, and Stripe is not asked again.
    paypalPlansUp = true;
    await expect
      .poll(() => registrations(plan.id), { timeout: 15_000 })
      .toEqual([
        { driver: 'paypal', provider_plan_id: expect.stringMatching(/^P-/) },
        { driver: 'stripe', provider_plan_id: expect.stringMatching(/^price_/) },
      ]);
    const paypalPlans = calls(paypal, '/v1/billing/plans');
    // Paystack is still down: more retries come, and ask neither Stripe nor PayPal again.
    const attempts = async () => {
      const rows = await t.deps.database.db
        .selectFrom('jobs')
        .select('attempts')
        .where('name', '=', registerPlanJob.id)
        .execute();
      return Math.max(...rows.map((row) => Number(row.attempts)));
    };
    const before = await attempts();
    await expect.poll(attempts, { timeout: 15_000 }).toBeGreaterThan(before);
    expect(calls(paypal, '/v1/billing/plans')).toBe(paypalPlans);
    expect(calls(stripe, '/v1/prices')).toBe(stripeBefore + 1);
  });

  it('queues the registration again when a checkout finds none for the provider', async () => {
    paypalPlansUp = false;
    // The earlier test's job, still retrying for Paystack, is put aside.
    await t.deps.database.db.deleteFrom('jobs').where('name', '=', registerPlanJob.id).execute();
    // A plan stored without a registration job (made before this job existed): only a checkout finds it.
    const at = new Date().toISOString();
    const plan = await new PlansRepository(t.deps.database).insert({
      id: randomUUID(),
      type: 'fixed',
      name: 'Late',
      description: '',
      currency: 'USD',
      status: 'active',
      amount_minor: 999,
      interval: 'month',
      max_storage_amount: 50,
      max_team_members: 2,
      created_at: at,
      updated_at: at,
    });
    const user = (await signedInAgent(t.app)).agent;
    const refused = await user.post('/api/subscriptions/checkout', { plan_id: plan.id, driver: 'paypal' });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().errors.plan_id).toBeDefined();
    expect(await waitingJobs()).toBe(1);
    // A second click within the minute queues nothing more.
    await user.post('/api/subscriptions/checkout', { plan_id: plan.id, driver: 'paypal' });
    expect(await waitingJobs()).toBe(1);

    paypalPlansUp = true;
    startWorker();
    await expect
      .poll(async () => (await registrations(plan.id)).map((row) => row.driver), { timeout: 15_000 })
      .toEqual(['paypal', 'stripe']);
  });
});
