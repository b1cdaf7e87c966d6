import { SubscriptionDetail, UserResource, type NewNotification } from '@atelier/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import type { BillingLedger } from '../../src/modules/billing/billing-ledger.service';
import type { StoredMeter } from '../../src/modules/billing/billing.tables';
import { billingTasks } from '../../src/modules/billing/billing.tasks';
import { Scheduler } from '../../src/jobs/scheduler';
import { addMonths } from '../../src/modules/billing/billing-periods';
import {
  gigabytesStarted,
  periodQuantity,
  priceMeter,
  pricePeriod,
} from '../../src/modules/billing/metered-pricing';
import { formatMoneyIn } from '../../src/modules/billing/metered.service';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { uploadFile, uploaded } from '../files/files-harness';

const tier = (first_unit: number, last_unit: number | null, per_unit: number, flat_fee: number) => ({
  first_unit,
  last_unit,
  per_unit,
  flat_fee,
});

describe('metered pricing', () => {
  // 1–10 at 0.50, 11–100 at 0.25 plus 5.00 once, 101+ at 0.10 plus 1.00 once (minor units).
  const threeTiers = { tiers: [tier(1, 10, 50, 0), tier(11, 100, 25, 500), tier(101, null, 10, 100)] };

  it('prices nothing for no use', () => {
    expect(priceMeter(threeTiers, 0)).toBe(0);
  });

  it('prices units inside the first tier only', () => {
    expect(priceMeter(threeTiers, 1)).toBe(50);
    expect(priceMeter(threeTiers, 10)).toBe(500);
  });

  it('prices every tier a quantity reaches, each with its flat fee once', () => {
    // 10 × 0.50 + (1 × 0.25 + 5.00)
    expect(priceMeter(threeTiers, 11)).toBe(500 + 25 + 500);
    // 10 × 0.50 + (90 × 0.25 + 5.00)
    expect(priceMeter(threeTiers, 100)).toBe(500 + 2250 + 500);
    // 10 × 0.50 + (90 × 0.25 + 5.00) + (1 × 0.10 + 1.00)
    expect(priceMeter(threeTiers, 101)).toBe(500 + 2750 + 110);
    // ... + (150 × 0.10 + 1.00)
    expect(priceMeter(threeTiers, 250)).toBe(500 + 2750 + 1500 + 100);
  });

  it('charges a tier flat fee alone when its unit price is zero, and only once units reach it', () => {
    const freeFirst = { tiers: [tier(1, 5, 0, 0), tier(6, null, 0, 999)] };
    expect(priceMeter(freeFirst, 5)).toBe(0);
    expect(priceMeter(freeFirst, 6)).toBe(999);
    expect(priceMeter(freeFirst, 600)).toBe(999);
  });

  it('prices a single open tier linearly, in integers', () => {
    expect(priceMeter({ tiers: [tier(1, null, 7, 0)] }, 3)).toBe(21);
    expect(Number.isInteger(priceMeter({ tiers: [tier(1, null, 3, 1)] }, 1_000_000))).toBe(true);
  });

  it('aggregates daily values by maximum or sum; a flat fee counts one per period', () => {
    expect(periodQuantity({ key: 'storage', aggregate: 'maximum' }, [3, 9, 4])).toBe(9);
    expect(periodQuantity({ key: 'bandwidth', aggregate: 'sum' }, [3, 9, 4])).toBe(16);
    expect(periodQuantity({ key: 'storage', aggregate: 'maximum' }, [])).toBe(0);
    expect(periodQuantity({ key: 'flat_fee', aggregate: 'sum' }, [1, 1, 1])).toBe(1);
    const meters: StoredMeter[] = [
      { key: 'storage', aggregate: 'maximum', ...threeTiers },
      { key: 'flat_fee', aggregate: 'maximum', tiers: [tier(1, null, 200, 0)] },
    ];
    const priced = pricePeriod(meters, [
      { key: 'storage', quantity: 11 },
      { key: 'storage', quantity: 2 },
    ]);
    expect(priced.items).toEqual([
      { key: 'storage', quantity: 11, amountMinor: 1025 },
      { key: 'flat_fee', quantity: 1, amountMinor: 200 },
    ]);
    expect(priced.totalMinor).toBe(1225);
  });

  it('counts a started GB as a unit, and months from the anchor without drifting', () => {
    expect(gigabytesStarted(0)).toBe(0);
    expect(gigabytesStarted(1)).toBe(1);
    expect(gigabytesStarted(1e9)).toBe(1);
    expect(gigabytesStarted(1e9 + 1)).toBe(2);
    const anchor = new Date('2026-01-31T10:00:00.000Z');
    expect(addMonths(anchor, 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths(anchor, 2).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(addMonths(anchor, 13).toISOString()).toBe('2027-02-28T10:00:00.000Z');
  });
});

const T0 = new Date('2026-01-10T12:00:00.000Z');
const DAY = 24 * 60 * 60_000;
/** The first period ends one calendar month after registration. */
const PERIOD_END = new Date('2026-02-10T12:00:00.000Z');

const meteredPlan = {
  type: 'metered',
  name: 'Pay as you go',
  description: '',
  currency: 'EUR',
  meters: [
    {
      key: 'storage',
      aggregate: 'maximum',
      tiers: [
        { first_unit: 1, last_unit: 1, per_unit: '0.50', flat_fee: '0.00' },
        { first_unit: 2, last_unit: null, per_unit: '0.25', flat_fee: '0.00' },
      ],
    },
    {
      key: 'bandwidth',
      aggregate: 'sum',
      tiers: [{ first_unit: 1, last_unit: null, per_unit: '0.10', flat_fee: '0.00' }],
    },
    {
      key: 'members',
      aggregate: 'maximum',
      tiers: [{ first_unit: 1, last_unit: null, per_unit: '1.00', flat_fee: '0.00' }],
    },
    {
      key: 'flat_fee',
      aggregate: 'sum',
      tiers: [{ first_unit: 1, last_unit: null, per_unit: '2.00', flat_fee: '0.00' }],
    },
  ],
};

describe('money in a notification', () => {
  it("reads as the billing page shows it, in the reader's language", () => {
    expect(formatMoneyIn('en', { amount_minor: 1000, currency: 'EUR' })).toBe('€10.00');
    expect(formatMoneyIn('de', { amount_minor: 1250, currency: 'EUR' })).toBe('12,50\u00a0€');
    expect(formatMoneyIn('en', { amount_minor: 500, currency: 'JPY' })).toBe('¥500');
    // A tag Intl refuses reads as English rather than failing the credit.
    expect(formatMoneyIn('not a tag', { amount_minor: 1000, currency: 'USD' })).toBe('$10.00');
  });
});

describeEachDatabase('billing: metered', (kind) => {
  let now = T0;
  let t: TestApp;
  let admin: { agent: TestAgent; user: UserRow };

  beforeAll(async () => {
    t = await createTestApp({
      database: kind,
      clock: () => now,
      // The clock moves over months here; the sessions would lapse on the way (sessions have their own tests).
      env: { SESSION_TTL_DAYS: '365' },
      settings: { subscription_type: 'metered', currency: 'EUR' },
    });
    admin = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user);
    const created = await admin.agent.post('/api/admin/plans', meteredPlan);
    expect(created.statusCode).toBe(201);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    now = T0;
    const { db } = t.deps.database;
    // Subscriptions take their usage and settlements with them; everyone is subscribed again lazily.
    await db.deleteFrom('subscriptions').execute();
    await db.deleteFrom('transactions').execute();
    await db.deleteFrom('balances').execute();
    await db.deleteFrom('bandwidth_usage').execute();
    await db.deleteFrom('metered_alerts').execute();
  });

  /** A new account, registered at the current clock, with a 1-byte file (1 GB stored, 1 GB uploaded). */
  async function meteredUser(withFile = true) {
    const signedIn = await signedInAgent(t.app);
    if (withFile) await uploaded(signedIn.agent, Buffer.from('x'), { name: 'a.txt' });
    return signedIn;
  }

  const run = (at: Date) => {
    now = at;
    return t.deps.metered.runDaily(at);
  };
  const userResource = async (agent: TestAgent) => UserResource.parse((await agent.get('/api/user')).json());
  const balanceOf = async (userId: string) => {
    const row = await t.deps.database.db
      .selectFrom('balances')
      .select('amount_minor')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.amount_minor ?? 0);
  };
  const transactionsOf = (userId: string) =>
    t.deps.database.db
      .selectFrom('transactions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
  const notificationsOf = (userId: string, category: NewNotification['category']) =>
    t.deps.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .where('category', '=', category)
      .execute();
  const credit = (userId: string, amount: string) =>
    admin.agent.post(`/api/admin/users/${userId}/credit`, { amount, note: 'Test credit' });

  it('subscribes an account to the metered plan at registration, for one calendar month', async () => {
    const { user } = await meteredUser(false);
    const subscription = await t.deps.subscriptionsService.current(user.id);
    expect(subscription).toMatchObject({
      status: 'active',
      driver: null,
      renews_at: PERIOD_END.toISOString(),
    });
  });

  it('subscribes an existing account lazily, through its detail or the daily run', async () => {
    const a = await meteredUser(false);
    const b = await meteredUser(false);
    await t.deps.database.db.deleteFrom('subscriptions').execute();
    const detail = SubscriptionDetail.parse((await a.agent.get('/api/subscriptions/detail')).json());
    expect(detail.data.subscription).toMatchObject({
      status: 'active',
      driver: null,
      plan: { attributes: { name: 'Pay as you go' } },
    });
    expect(detail.data.balance).toEqual({ amount: '0.00', currency: 'EUR' });
    // Use is billed from the balance: there is no renewal to stop.
    const cancel = await a.agent.post('/api/subscriptions/cancel');
    expect(cancel.statusCode).toBe(422);
    expect((await t.deps.subscriptionsService.current(a.user.id))?.status).toBe('active');
    expect(await t.deps.subscriptionsService.current(b.user.id)).toBeUndefined();
    const report = await run(T0);
    expect(report.subscribed).toBeGreaterThanOrEqual(1);
    expect(await t.deps.subscriptionsService.current(b.user.id)).toMatchObject({ status: 'active' });
  });

  it('records the day once per meter; running the same day again overwrites, never adds', async () => {
    const { agent, user } = await meteredUser();
    const item = await uploaded(agent, Buffer.from('more'), { name: 'b.txt' });
    expect((await agent.get(`/file/${item.id}`)).statusCode).toBe(200);
    // Both uploads (1 + 4 bytes) and the download (4 bytes) counted on the owner's day.
    const counted = await t.deps.database.db
      .selectFrom('bandwidth_usage')
      .select(['day', 'bytes'])
      .where('user_id', '=', user.id)
      .execute();
    expect(counted.map((row) => [row.day, Number(row.bytes)])).toEqual([['2026-01-10', 9]]);
    const subscription = (await t.deps.subscriptionsService.current(user.id))!;
    const records = () =>
      t.deps.database.db
        .selectFrom('usage_records')
        .select(['day', 'key', 'quantity'])
        .where('subscription_id', '=', subscription.id)
        .orderBy('key')
        .execute();
    await run(T0);
    const first = await records();
    await run(new Date(T0.getTime() + 60_000));
    await run(new Date(T0.getTime() + 120_000));
    expect(await records()).toEqual(first);
    expect(first.map((r) => [r.key, Number(r.quantity)])).toEqual([
      ['bandwidth', 1],
      ['flat_fee', 1],
      ['members', 0],
      ['storage', 1],
    ]);
    const detail = SubscriptionDetail.parse((await agent.get('/api/subscriptions/detail')).json());
    expect(detail.data.usage).toMatchObject({
      currency: 'EUR',
      period_start: T0.toISOString(),
      period_end: PERIOD_END.toISOString(),
      total: '2.60',
    });
    expect(detail.data.usage!.items).toEqual([
      { key: 'storage', quantity: 1, amount: '0.50' },
      { key: 'bandwidth', quantity: 1, amount: '0.10' },
      { key: 'members', quantity: 0, amount: '0.00' },
      { key: 'flat_fee', quantity: 1, amount: '2.00' },
    ]);
    // A second day adds its own bandwidth to the period's sum.
    await t.deps.database.db
      .insertInto('bandwidth_usage')
      .values({ user_id: user.id, day: '2026-01-11', bytes: 2_500_000_000 })
      .execute();
    await run(new Date(T0.getTime() + DAY));
    const usage = SubscriptionDetail.parse((await agent.get('/api/subscriptions/detail')).json()).data.usage!;
    expect(usage.items.find((i) => i.key === 'bandwidth')).toEqual({
      key: 'bandwidth',
      quantity: 4,
      amount: '0.40',
    });
  });

  it('puts the period cost so far in the user resource', async () => {
    const { agent } = await meteredUser();
    await run(T0);
    const resource = await userResource(agent);
    expect(resource.meta.usages.costEstimate).toBe('2.60');
    expect(resource.meta.restrictions.canUpload).toBe(true);
  });

  it("tells the user of an admin's credit with a gift notification that says how much and why", async () => {
    const { user } = await meteredUser();
    expect((await credit(user.id, '12.50')).statusCode).toBe(201);
    const gifts = await notificationsOf(user.id, 'gift');
    expect(gifts).toHaveLength(1);
    expect(gifts[0]).toMatchObject({
      title: 'You received €12.50',
      description: '€12.50 was added to your balance: \u201cTest credit\u201d.',
    });
    expect(JSON.parse(gifts[0]!.action!)).toEqual({ type: 'route', params: { route: 'Billing' } });
  });

  it('settles an ended period from the balance and starts the next one', async () => {
    const { user } = await meteredUser();
    await run(T0);
    expect((await credit(user.id, '10.00')).statusCode).toBe(201);
    await run(new Date(PERIOD_END.getTime() + 60 * 60_000));
    expect(await balanceOf(user.id)).toBe(740);
    const charges = (await transactionsOf(user.id)).filter((row) => row.type === 'charge');
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ status: 'completed', driver: 'balance', currency: 'EUR' });
    expect(Number(charges[0]!.amount_minor)).toBe(260);
    expect(charges[0]!.reference).toMatch(/^[A-Za-z0-9]{10}$/);
    const subscription = await t.deps.subscriptionsService.current(user.id);
    expect(subscription!.renews_at).toBe('2026-03-10T12:00:00.000Z');
    // Running again the same day settles nothing more.
    await run(new Date(PERIOD_END.getTime() + 2 * 60 * 60_000));
    expect(await balanceOf(user.id)).toBe(740);
    expect(await notificationsOf(user.id, 'insufficient-balance')).toHaveLength(0);
  });

  it('counts the day a period ends on in one period only, whichever side of the renewal it is recorded from', async () => {
    const { user } = await meteredUser();
    await run(T0);
    expect((await credit(user.id, '10.00')).statusCode).toBe(201);
    // 3 GB moved on the renewal's day, recorded by the hourly run before the renewal and after it.
    await t.deps.database.db
      .insertInto('bandwidth_usage')
      .values({ user_id: user.id, day: '2026-02-10', bytes: 3e9 })
      .execute();
    await run(new Date(PERIOD_END.getTime() - 60 * 60_000));
    await run(new Date(PERIOD_END.getTime() + 60 * 60_000));
    // The first period is billed for its whole days (10 January): 0.50 + 0.10 + 2.00.
    const charges = (await transactionsOf(user.id)).filter((row) => row.type === 'charge');
    expect(charges.map((row) => Number(row.amount_minor))).toEqual([260]);
    expect(await balanceOf(user.id)).toBe(740);
    // The renewal's day counts in the next period, once.
    await run(new Date(PERIOD_END.getTime() + 10 * 60 * 60_000));
    const usage = await t.deps.metered.estimate((await t.deps.metered.subscribe(user.id))!);
    expect(usage.period_start).toBe(PERIOD_END.toISOString());
    expect(usage.items.find((item) => item.key === 'bandwidth')).toMatchObject({ quantity: 3 });
  });

  it(
    'fails a settlement the balance cannot cover, reminds every two days, restricts after the third, and a credit lifts it',
    { timeout: 120_000 },
    async () => {
      const { agent, user } = await meteredUser();
      await run(T0);
      await credit(user.id, '1.00');
      const end = PERIOD_END.getTime() + 60_000;
      await run(new Date(end));
      const failed = (await transactionsOf(user.id)).filter((row) => row.type === 'charge');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ status: 'failed', driver: 'balance' });
      expect(Number(failed[0]!.amount_minor)).toBe(260);
      expect(await balanceOf(user.id)).toBe(100);
      expect(await notificationsOf(user.id, 'insufficient-balance')).toHaveLength(1);

      await run(new Date(end + DAY));
      expect(await notificationsOf(user.id, 'insufficient-balance')).toHaveLength(1);
      for (const [days, count] of [
        [2, 2],
        [4, 3],
      ] as const) {
        await run(new Date(end + days * DAY));
        await run(new Date(end + days * DAY + 60_000));
        expect(await notificationsOf(user.id, 'insufficient-balance')).toHaveLength(count);
        expect((await userResource(agent)).meta.restrictions.canUpload).toBe(true);
      }
      await run(new Date(end + 6 * DAY));
      expect(await notificationsOf(user.id, 'insufficient-balance')).toHaveLength(4);
      const restricted = (await userResource(agent)).meta.restrictions;
      expect(restricted).toMatchObject({
        canUpload: false,
        canDownload: false,
        canCreateFolder: false,
        canCreateTeamFolder: false,
        reason: 'Your balance does not cover last period\u2019s use of 2.60 EUR. Top up to continue.',
      });
      const refused = await uploadFile(agent, Buffer.from('y'), { name: 'refused.txt' });
      expect(refused.at(-1)!.statusCode).toBeGreaterThanOrEqual(400);
      // Nor does anything leave: a download is refused in billing's words, until the restriction lifts.
      const kept = await t.deps.database.db
        .selectFrom('items')
        .select('id')
        .where('user_id', '=', user.id)
        .where('name', '=', 'a.txt')
        .executeTakeFirstOrThrow();
      const blocked = await agent.get(`/file/${kept.id}`);
      expect(blocked.statusCode).toBe(403);
      expect(blocked.body).toContain('Top up to continue.');
      // No more reminders once restricted.
      await run(new Date(end + 8 * DAY));
      expect(await notificationsOf(user.id, 'insufficient-balance')).toHaveLength(4);

      expect((await credit(user.id, '5.00')).statusCode).toBe(201);
      const lifted = (await userResource(agent)).meta.restrictions;
      expect(lifted).toMatchObject({ canUpload: true, canDownload: true, reason: null });
      expect((await agent.get(`/file/${kept.id}`)).statusCode).toBe(200);
      expect(await balanceOf(user.id)).toBe(600 - 260);
      const charges = (await transactionsOf(user.id)).filter((row) => row.type === 'charge');
      expect(charges.map((row) => row.status).sort()).toEqual(['completed', 'failed']);
    },
  );

  it('lifts the restriction when a top-up arrives through a provider', async () => {
    const { agent, user } = await meteredUser();
    await run(T0);
    const end = PERIOD_END.getTime() + 60_000;
    for (const days of [0, 2, 4, 6]) await run(new Date(end + days * DAY));
    expect((await userResource(agent)).meta.restrictions.canDownload).toBe(false);
    // The person's checkout, as the checkout route stores it; then the ledger applies the verified
    // top-up that matches it, the way a provider's webhook job does.
    await t.deps.database.db
      .insertInto('checkouts')
      .values({
        id: 'checkout-topup-1',
        driver: 'stripe',
        reference: 'cs_topup_1',
        user_id: user.id,
        purpose: 'balance',
        plan_id: null,
        amount_minor: 500,
        currency: 'EUR',
        created_at: now.toISOString(),
      })
      .execute();
    const { ledger } = (t.deps.billingEvents as unknown as { deps: { ledger: BillingLedger } }).deps;
    await ledger.apply(
      'stripe',
      {
        kind: 'payment.succeeded',
        purpose: 'balance',
        userId: user.id,
        providerSubscriptionId: null,
        amountMinor: 500,
        currency: 'EUR',
        reference: 'cs_topup_1',
      },
      now.toISOString(),
    );
    expect((await userResource(agent)).meta.restrictions.canDownload).toBe(true);
    expect(await balanceOf(user.id)).toBe(240);
  });

  it('charges once when two settlements run at once', async () => {
    const { user } = await meteredUser();
    await run(T0);
    await credit(user.id, '2.60');
    now = new Date(PERIOD_END.getTime() + 60_000);
    await Promise.all([t.deps.metered.runDaily(now), t.deps.metered.runDaily(now)]);
    expect(await balanceOf(user.id)).toBe(0);
    const charges = (await transactionsOf(user.id)).filter((row) => row.type === 'charge');
    expect(charges.map((row) => row.status)).toEqual(['completed']);

    // An unpaid settlement retried by two credits at once is also paid once.
    const other = await meteredUser();
    now = T0;
    await t.deps.database.db
      .updateTable('subscriptions')
      .set({ created_at: T0.toISOString(), renews_at: PERIOD_END.toISOString() })
      .where('user_id', '=', other.user.id)
      .execute();
    await run(T0);
    await run(new Date(PERIOD_END.getTime() + 60_000));
    await t.deps.database.db
      .updateTable('balances')
      .set({ amount_minor: 1000, currency: 'EUR' })
      .where('user_id', '=', other.user.id)
      .execute();
    await t.deps.database.db
      .insertInto('balances')
      .values({ user_id: other.user.id, amount_minor: 1000, currency: 'EUR', updated_at: now.toISOString() })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    await Promise.all([
      t.deps.metered.onBalanceCredited(other.user.id),
      t.deps.metered.onBalanceCredited(other.user.id),
      t.deps.metered.runDaily(now),
    ]);
    // Its file was uploaded after the recorded day: storage 0.50 and the flat 2.00, no bandwidth.
    expect(await balanceOf(other.user.id)).toBe(1000 - 250);
    const paid = (await transactionsOf(other.user.id)).filter(
      (row) => row.type === 'charge' && row.status === 'completed',
    );
    expect(paid).toHaveLength(1);
  });

  it('is enqueued by the scheduler at once and then every hour', async () => {
    const waiting = async () => (await t.deps.jobs.counts(['billing.metered-daily'])).waiting;
    const before = await waiting();
    const scheduler = new Scheduler({ database: t.deps.database, now: () => now, logger: t.deps.logger });
    scheduler.start(billingTasks(t.deps).filter((task) => task.name === 'billing.metered-daily'));
    await scheduler.tick();
    expect(await waiting()).toBe(before + 1);
    now = new Date(T0.getTime() + 59 * 60_000);
    await scheduler.tick();
    expect(await waiting()).toBe(before + 1);
    now = new Date(T0.getTime() + 60 * 60_000);
    await scheduler.tick();
    await scheduler.stop();
    expect(await waiting()).toBe(before + 2);
  });

  it('sends the billing alert once per period when the estimate reaches it', async () => {
    const { agent, user } = await meteredUser();
    const set = await agent.patch('/api/subscriptions/alert', { amount: '2.50' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ data: { alert: { amount: '2.50', currency: 'EUR' } } });
    expect(await notificationsOf(user.id, 'billing-alert')).toHaveLength(0);
    await run(T0);
    await run(new Date(T0.getTime() + DAY));
    await run(new Date(T0.getTime() + 2 * DAY));
    expect(await notificationsOf(user.id, 'billing-alert')).toHaveLength(1);
    const detail = SubscriptionDetail.parse((await agent.get('/api/subscriptions/detail')).json());
    expect(detail.data.alert).toEqual({ amount: '2.50', currency: 'EUR' });
    // The next period may send it again.
    await credit(user.id, '50.00');
    await run(new Date(PERIOD_END.getTime() + DAY));
    expect(await notificationsOf(user.id, 'billing-alert')).toHaveLength(2);
    // Cleared: nothing more, and the detail says so.
    expect((await agent.patch('/api/subscriptions/alert', { amount: null })).json()).toEqual({
      data: { alert: null },
    });
    expect(
      SubscriptionDetail.parse((await agent.get('/api/subscriptions/detail')).json()).data.alert,
    ).toBeNull();
    expect((await agent.patch('/api/subscriptions/alert', { amount: '1.234' })).statusCode).toBe(422);
  });
});
