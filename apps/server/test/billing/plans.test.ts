import { AdminPlanList, AdminPlanResource, PlanList, PlanSubscriberList } from '@atelier/contracts';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import type { PlanSubscribers } from '../../src/modules/billing/plan-subscribers';
import { PlansRepository } from '../../src/modules/billing/plans.repository';
import { PlansService } from '../../src/modules/billing/plans.service';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';

const fixedPlan = (overrides: Record<string, unknown> = {}) => ({
  type: 'fixed',
  name: 'Studio',
  description: 'For small teams',
  currency: 'USD',
  amount: '19.99',
  interval: 'month',
  features: { max_storage_amount: 200, max_team_members: -1 },
  ...overrides,
});

const meteredPlan = (overrides: Record<string, unknown> = {}) => ({
  type: 'metered',
  name: 'Pay as you go',
  description: '',
  currency: 'EUR',
  meters: [
    {
      key: 'storage',
      aggregate: 'maximum',
      tiers: [
        { first_unit: 1, last_unit: 10, per_unit: '0.00', flat_fee: '0.00' },
        { first_unit: 11, last_unit: 100, per_unit: '0.10', flat_fee: '1.50' },
        { first_unit: 101, last_unit: null, per_unit: '0.05', flat_fee: '0.00' },
      ],
    },
    {
      key: 'bandwidth',
      aggregate: 'sum',
      tiers: [{ first_unit: 1, last_unit: null, per_unit: '0.01', flat_fee: '0.00' }],
    },
  ],
  ...overrides,
});

describeEachDatabase('billing: plans', (kind) => {
  let t: TestApp;
  let admin: { agent: TestAgent; user: UserRow };
  let user: { agent: TestAgent; user: UserRow };

  beforeAll(async () => {
    t = await createTestApp({ database: kind, settings: { subscription_type: 'fixed' } });
    admin = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user);
    user = await signedInAgent(t.app);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.deps.database.db.deleteFrom('plans').execute();
    await t.deps.settings.set({
      subscription_type: 'fixed',
      allowed_payment_drivers: [],
      stripe_secret_key: null,
      stripe_webhook_secret: null,
    });
  });

  const create = async (body: Record<string, unknown>) => {
    const answer = await admin.agent.post('/api/admin/plans', body);
    expect(answer.statusCode, answer.body).toBe(201);
    return AdminPlanResource.parse(answer.json()).data;
  };
  const storedPlans = () => t.deps.database.db.selectFrom('plans').selectAll().execute();

  it('creates, reads, edits and deletes a fixed plan, its price exact to the cent', async () => {
    const plan = await create(fixedPlan());
    expect(plan.attributes).toMatchObject({
      type: 'fixed',
      name: 'Studio',
      currency: 'USD',
      amount: '19.99',
      interval: 'month',
      status: 'active',
      features: { max_storage_amount: 200, max_team_members: -1 },
    });
    expect(plan.meta.subscribers).toBe(0);
    const [row] = await storedPlans();
    expect(row!.amount_minor).toBe(1999);

    const read = AdminPlanResource.parse((await admin.agent.get(`/api/admin/plans/${plan.id}`)).json());
    expect(read.data.attributes).toEqual(plan.attributes);

    const edited = await admin.agent.patch(`/api/admin/plans/${plan.id}`, {
      name: 'Studio Plus',
      features: { max_storage_amount: 500, max_team_members: 10 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(AdminPlanResource.parse(edited.json()).data.attributes).toMatchObject({
      name: 'Studio Plus',
      description: 'For small teams',
      amount: '19.99',
      features: { max_storage_amount: 500, max_team_members: 10 },
    });

    // The description's method marker reaches the same rules.
    const renamed = await admin.agent.post(`/api/admin/plans/${plan.id}`, {
      _method: 'patch',
      name: 'Studio Pro',
    });
    expect(AdminPlanResource.parse(renamed.json()).data.attributes.name).toBe('Studio Pro');

    const list = AdminPlanList.parse((await admin.agent.get('/api/admin/plans')).json());
    expect(list.data.map((p) => p.id)).toEqual([plan.id]);
    expect(list.meta.paginate.total).toBe(1);

    const subscribers = PlanSubscriberList.parse(
      (await admin.agent.get(`/api/admin/plans/${plan.id}/subscribers`)).json(),
    );
    expect(subscribers.data).toEqual([]);

    // Nobody holds it, so it is deleted, not archived.
    expect((await admin.agent.delete(`/api/admin/plans/${plan.id}`)).statusCode).toBe(204);
    expect(await storedPlans()).toEqual([]);
    expect((await admin.agent.get(`/api/admin/plans/${plan.id}`)).statusCode).toBe(404);
    expect((await admin.agent.delete(`/api/admin/plans/${plan.id}`)).statusCode).toBe(404);
  });

  it('keeps every amount exactly as typed, in each currency’s minor units', async () => {
    for (const [currency, amount, minor] of [
      ['USD', '19.99', 1999],
      ['USD', '0.10', 10],
      ['JPY', '500', 500],
      ['KWD', '1.250', 1250],
      ['EUR', '1000000.01', 100000001],
    ] as const) {
      const plan = await create(fixedPlan({ currency, amount }));
      expect(plan.attributes.type === 'fixed' && plan.attributes.amount).toBe(amount);
      const row = (await storedPlans()).find((r) => r.id === plan.id);
      expect(row!.amount_minor, `${amount} ${currency}`).toBe(minor);
    }
    // Trailing decimals are filled in to the currency's digits.
    const short = await create(fixedPlan({ amount: '7.5' }));
    expect(short.attributes.type === 'fixed' && short.attributes.amount).toBe('7.50');
  });

  it('creates a metered plan whose every tier keeps its prices', async () => {
    const plan = await create(meteredPlan());
    expect(plan.attributes).toMatchObject({ type: 'metered', currency: 'EUR', status: 'active' });
    expect(plan.attributes.type === 'metered' && plan.attributes.meters).toEqual(meteredPlan().meters);
    const [row] = await storedPlans();
    expect(JSON.parse(row!.meters!)[0].tiers[1]).toEqual({
      first_unit: 11,
      last_unit: 100,
      per_unit: 10,
      flat_fee: 150,
    });

    const renamed = await admin.agent.patch(`/api/admin/plans/${plan.id}`, {
      description: 'Only what you use',
    });
    expect(AdminPlanResource.parse(renamed.json()).data.attributes.description).toBe('Only what you use');
    // A metered plan has no features to set.
    const features = await admin.agent.patch(`/api/admin/plans/${plan.id}`, {
      features: { max_storage_amount: 1, max_team_members: 1 },
    });
    expect(features.statusCode).toBe(422);
    expect(features.json().errors).toHaveProperty('features');
    expect((await admin.agent.delete(`/api/admin/plans/${plan.id}`)).statusCode).toBe(204);
  });

  it('refuses bad money and bad tiers with 422 on the field, storing nothing', async () => {
    const tiers = (list: unknown[]) =>
      meteredPlan({ meters: [{ key: 'storage', aggregate: 'maximum', tiers: list }] });
    const tier = (first_unit: number, last_unit: number | null, per_unit = '1', flat_fee = '0') => ({
      first_unit,
      last_unit,
      per_unit,
      flat_fee,
    });
    for (const [body, field] of [
      [fixedPlan({ amount: '19.999' }), 'amount'],
      [fixedPlan({ amount: '19,99' }), 'amount'],
      [fixedPlan({ amount: 19.99 }), 'amount'],
      [fixedPlan({ amount: '0' }), 'amount'],
      [fixedPlan({ currency: 'JPY', amount: '500.5' }), 'amount'],
      [fixedPlan({ currency: 'XXY' }), 'currency'],
      [fixedPlan({ interval: 'week' }), 'interval'],
      [fixedPlan({ name: '  ' }), 'name'],
      [
        fixedPlan({ features: { max_storage_amount: 0, max_team_members: 1 } }),
        'features.max_storage_amount',
      ],
      [fixedPlan({ features: { max_storage_amount: 1, max_team_members: -2 } }), 'features.max_team_members'],
      [tiers([]), 'meters.0.tiers'],
      [tiers([tier(0, null)]), 'meters.0.tiers.0.first_unit'],
      [tiers([tier(1, 10), tier(12, null)]), 'meters.0.tiers.1.first_unit'],
      [tiers([tier(1, 10), tier(5, null)]), 'meters.0.tiers.1.first_unit'],
      [tiers([tier(1, null), tier(2, null)]), 'meters.0.tiers.0.last_unit'],
      [tiers([tier(1, 10), tier(11, 20)]), 'meters.0.tiers.1.last_unit'],
      [tiers([tier(5, 2)]), 'meters.0.tiers.0.first_unit'],
      [tiers([tier(1, 10), tier(11, null, '')]), 'meters.0.tiers.1.per_unit'],
      [tiers([tier(1, null, '1', '0.001')]), 'meters.0.tiers.0.flat_fee'],
      [tiers([{ first_unit: 1, last_unit: null, per_unit: '1' }]), 'meters.0.tiers.0.flat_fee'],
      [meteredPlan({ meters: [] }), 'meters'],
      [
        meteredPlan({
          meters: [meteredPlan().meters[1], meteredPlan().meters[1]],
        }),
        'meters.1.key',
      ],
    ] as const) {
      const refused = await admin.agent.post('/api/admin/plans', body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(refused.json().errors), JSON.stringify(body)).toContain(field);
    }
    expect(await storedPlans()).toEqual([]);
  });

  it('answers 403 to a user on every admin plan call and changes nothing', async () => {
    const plan = await create(fixedPlan());
    for (const [method, url, body] of [
      ['GET', '/api/admin/plans', undefined],
      ['POST', '/api/admin/plans', fixedPlan({ name: 'Sneaky' })],
      ['GET', `/api/admin/plans/${plan.id}`, undefined],
      ['PATCH', `/api/admin/plans/${plan.id}`, { name: 'Sneaky' }],
      ['DELETE', `/api/admin/plans/${plan.id}`, undefined],
      ['GET', `/api/admin/plans/${plan.id}/subscribers`, undefined],
    ] as const) {
      expect((await user.agent.request(method, url, body)).statusCode, `${method} ${url}`).toBe(403);
    }
    const rows = await storedPlans();
    expect(rows.map((r) => r.name)).toEqual(['Studio']);
  });

  it('shows a user only the active plans of the instance’s subscription type, cheapest first, and fixed ones only once they can be paid', async () => {
    const pro = await create(fixedPlan({ name: 'Pro', amount: '49.00' }));
    const basic = await create(fixedPlan({ name: 'Basic', amount: '4.99' }));
    const metered = await create(meteredPlan());
    await t.deps.database.db
      .updateTable('plans')
      .set({ status: 'archived' })
      .where('name', '=', 'Basic')
      .execute();
    const cheap = await create(fixedPlan({ name: 'Starter', amount: '1.00' }));

    // No provider can take the money yet: no fixed plan is offered.
    expect(PlanList.parse((await user.agent.get('/api/subscriptions/plans')).json()).data).toEqual([]);
    await t.deps.settings.set({
      allowed_payment_drivers: ['stripe'],
      stripe_secret_key: 'sk_test_plans',
      stripe_webhook_secret: 'whsec_plans',
    });
    const fixed = PlanList.parse((await user.agent.get('/api/subscriptions/plans')).json());
    expect(fixed.data.map((p) => p.id)).toEqual([cheap.id, pro.id]);
    expect(fixed.data[0]).not.toHaveProperty('meta');
    expect(fixed.data.map((p) => p.id)).not.toContain(basic.id);

    await t.deps.settings.set({ subscription_type: 'metered' });
    const meteredList = PlanList.parse((await user.agent.get('/api/subscriptions/plans')).json());
    expect(meteredList.data.map((p) => p.id)).toEqual([metered.id]);

    await t.deps.settings.set({ subscription_type: 'none' });
    expect(PlanList.parse((await user.agent.get('/api/subscriptions/plans')).json()).data).toEqual([]);
  });

  it('archives instead of deleting a plan somebody holds, through the subscribers seam', async () => {
    const held = await create(fixedPlan({ name: 'Held' }));
    const free = await create(fixedPlan({ name: 'Free of subscribers' }));
    // What subscriptions will plug in: one person holds `held`.
    const subscribers: PlanSubscribers = {
      counts: async (ids) => new Map(ids.filter((id) => id === held.id).map((id) => [id, 1])),
      page: async () => ({ rows: [], total: 1 }),
    };
    const plans = new PlansService({
      plans: new PlansRepository(t.deps.database),
      subscribers,
      settings: t.deps.settings,
      providers: { usable: () => [] },
      now: () => new Date('2026-01-02T03:04:05.000Z'),
    });

    const archived = await plans.remove(held.id);
    expect(archived).toMatchObject({ attributes: { status: 'archived' }, meta: { subscribers: 1 } });
    expect(await plans.remove(free.id)).toBeNull();
    expect((await storedPlans()).map((r) => [r.name, r.status])).toEqual([['Held', 'archived']]);
    // Hidden from new subscribers, still there for the admin.
    expect((await plans.available()).data).toEqual([]);
    expect((await plans.list(1, 50)).data[0]!.meta.subscribers).toBe(1);
  });
});
