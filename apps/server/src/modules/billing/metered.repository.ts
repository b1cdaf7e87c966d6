import type { MeterKey } from '@atelier/contracts';
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Database } from '../../db/database';
import { accountCards } from '../users/account-queries';
import type { PlanRow, SubscriptionRow } from './billing.tables';
import type { MeteredSettlementRow, MeteredSettlementsTable, UsageRecordRow } from './metered.tables';

/** A claimed settlement that a crashed run never finished is tried again after this long. */
const STALE_CLAIM_MS = 10 * 60_000;

/** Metered billing's tables: daily bandwidth, usage records, settlements and alerts. Kysely only. */
export class MeteredRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** Adds bytes to the user's day (created at the first transfer of the day). */
  async addBandwidth(userId: string, day: string, bytes: number): Promise<void> {
    await this.db
      .insertInto('bandwidth_usage')
      .values({ user_id: userId, day, bytes })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'day'])
          .doUpdateSet((eb) => ({ bytes: eb('bandwidth_usage.bytes', '+', bytes) })),
      )
      .execute();
  }

  async bandwidthOn(userId: string, day: string): Promise<number> {
    const row = await this.db
      .selectFrom('bandwidth_usage')
      .select('bytes')
      .where('user_id', '=', userId)
      .where('day', '=', day)
      .executeTakeFirst();
    return row ? Number(row.bytes) : 0;
  }

  /** The first active metered plan (the one new subscriptions get). */
  firstMeteredPlan(): Promise<PlanRow | undefined> {
    return this.db
      .selectFrom('plans')
      .selectAll()
      .where('type', '=', 'metered')
      .where('status', '=', 'active')
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
  }

  /** Users without a subscription that is not completed. */
  async usersWithoutSubscription(): Promise<string[]> {
    const rows = await this.db
      .selectFrom(accountCards(this.db).as('account'))
      .select('account.id')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('subscriptions')
              .select('subscriptions.id')
              .whereRef('subscriptions.user_id', '=', 'account.id')
              .where('subscriptions.status', '<>', 'completed'),
          ),
        ),
      )
      .execute();
    return rows.map((row) => row.id);
  }

  /** The user's open subscription with its plan, when the plan is metered. */
  async openMetered(userId: string): Promise<{ subscription: SubscriptionRow; plan: PlanRow } | undefined> {
    const rows = await this.openMeteredWhere(userId);
    return rows[0];
  }

  /** Every active metered subscription with its plan. */
  allOpenMetered(): Promise<{ subscription: SubscriptionRow; plan: PlanRow }[]> {
    return this.openMeteredWhere(null);
  }

  private async openMeteredWhere(userId: string | null) {
    const rows = await this.db
      .selectFrom('subscriptions')
      .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
      .selectAll('subscriptions')
      .select([
        'plans.id as p_id',
        'plans.type as p_type',
        'plans.name as p_name',
        'plans.description as p_description',
        'plans.currency as p_currency',
        'plans.status as p_status',
        'plans.amount_minor as p_amount_minor',
        'plans.interval as p_interval',
        'plans.max_storage_amount as p_max_storage_amount',
        'plans.max_team_members as p_max_team_members',
        'plans.meters as p_meters',
        'plans.created_at as p_created_at',
        'plans.updated_at as p_updated_at',
      ])
      .$if(userId !== null, (qb) => qb.where('subscriptions.user_id', '=', userId!))
      .where('subscriptions.status', '=', 'active')
      .where('plans.type', '=', 'metered')
      .execute();
    return rows.map((row) => {
      const plan: PlanRow = {
        id: row.p_id,
        type: row.p_type,
        name: row.p_name,
        description: row.p_description,
        currency: row.p_currency,
        status: row.p_status,
        amount_minor: row.p_amount_minor,
        interval: row.p_interval,
        max_storage_amount: row.p_max_storage_amount,
        max_team_members: row.p_max_team_members,
        meters: row.p_meters,
        created_at: row.p_created_at,
        updated_at: row.p_updated_at,
      };
      const subscription: SubscriptionRow = {
        id: row.id,
        user_id: row.user_id,
        plan_id: row.plan_id,
        status: row.status,
        driver: row.driver,
        provider_subscription_id: row.provider_subscription_id,
        renews_at: row.renews_at,
        ends_at: row.ends_at,
        provider_updated_at: row.provider_updated_at,
        created_at: row.created_at,
        updated_at: row.updated_at,
      };
      return { subscription, plan };
    });
  }

  planOfSubscription(subscriptionId: string): Promise<PlanRow | undefined> {
    return this.db
      .selectFrom('plans')
      .selectAll('plans')
      .innerJoin('subscriptions', 'subscriptions.plan_id', 'plans.id')
      .where('subscriptions.id', '=', subscriptionId)
      .executeTakeFirst();
  }

  /** Moves the period on, unless another run already did (answers whether this call did). */
  async advancePeriod(subscriptionId: string, from: string, to: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('subscriptions')
      .set({ renews_at: to, updated_at: at })
      .where('id', '=', subscriptionId)
      .where('renews_at', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Stores one meter's use of one day; recording the same day again overwrites it. */
  async recordUsage(
    subscriptionId: string,
    day: string,
    key: MeterKey,
    quantity: number,
    periodStart: string,
    at: string,
  ): Promise<void> {
    await this.db
      .insertInto('usage_records')
      .values({
        subscription_id: subscriptionId,
        day,
        key,
        quantity,
        period_start: periodStart,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc
          .columns(['subscription_id', 'day', 'key'])
          .doUpdateSet({ quantity, period_start: periodStart, updated_at: at }),
      )
      .execute();
  }

  usageOn(subscriptionId: string, day: string): Promise<UsageRecordRow[]> {
    return this.db
      .selectFrom('usage_records')
      .selectAll()
      .where('subscription_id', '=', subscriptionId)
      .where('day', '=', day)
      .execute();
  }

  async usageOfPeriod(
    subscriptionId: string,
    periodStart: string,
  ): Promise<{ key: MeterKey; quantity: number }[]> {
    const rows = await this.db
      .selectFrom('usage_records')
      .select(['key', 'quantity'])
      .where('subscription_id', '=', subscriptionId)
      .where('period_start', '=', periodStart)
      .execute();
    return rows.map((row) => ({ key: row.key, quantity: Number(row.quantity) }));
  }

  /** Stores a settlement unless the period has one already (answers undefined then). */
  async insertSettlement(
    row: Insertable<MeteredSettlementsTable>,
  ): Promise<MeteredSettlementRow | undefined> {
    return this.db
      .insertInto('metered_settlements')
      .values(row)
      .onConflict((oc) => oc.columns(['subscription_id', 'period_start']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  updateSettlement(id: string, changes: Updateable<MeteredSettlementsTable>): Promise<void> {
    return this.db
      .updateTable('metered_settlements')
      .set(changes)
      .where('id', '=', id)
      .execute()
      .then(() => undefined);
  }

  /** Takes an unpaid settlement (or one a crashed run left claimed) for one payment attempt. */
  async claim(id: string, at: Date): Promise<boolean> {
    const stale = new Date(at.getTime() - STALE_CLAIM_MS).toISOString();
    const result = await this.db
      .updateTable('metered_settlements')
      .set({ status: 'paying', updated_at: at.toISOString() })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'unpaid'),
          eb.and([eb('status', '=', 'paying'), eb('updated_at', '<', stale)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Sends one reminder's worth of state, unless another run already did (answers whether this call did). */
  async markReminded(row: MeteredSettlementRow, at: string, restrict: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('metered_settlements')
      .set({
        reminders: row.reminders + 1,
        notified_at: at,
        updated_at: at,
        ...(restrict ? { restricted_at: at } : {}),
      })
      .where('id', '=', row.id)
      .where('status', '=', 'unpaid')
      .where('reminders', '=', row.reminders)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The user's settlements not paid yet, oldest first. */
  unpaidOf(userId: string): Promise<MeteredSettlementRow[]> {
    return this.db
      .selectFrom('metered_settlements')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', '<>', 'paid')
      .orderBy('period_start')
      .execute();
  }

  /** Every settlement not paid yet. */
  allUnpaid(): Promise<MeteredSettlementRow[]> {
    return this.db
      .selectFrom('metered_settlements')
      .selectAll()
      .where('status', '<>', 'paid')
      .orderBy('period_start')
      .execute();
  }

  /** The sum the user's restricting settlements leave unpaid, or null when nothing restricts them. */
  async restrictedAmount(userId: string): Promise<{ amount_minor: number; currency: string } | null> {
    const row = await this.db
      .selectFrom('metered_settlements')
      .select(['currency', sql<number>`sum(amount_minor)`.as('amount_minor')])
      .where('user_id', '=', userId)
      .where('status', '<>', 'paid')
      .where('restricted_at', 'is not', null)
      .groupBy('currency')
      .executeTakeFirst();
    return row ? { amount_minor: Number(row.amount_minor), currency: row.currency } : null;
  }

  alertOf(userId: string) {
    return this.db.selectFrom('metered_alerts').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async setAlert(userId: string, alert: { amount_minor: number; currency: string } | null, at: string) {
    if (!alert) {
      await this.db.deleteFrom('metered_alerts').where('user_id', '=', userId).execute();
      return;
    }
    await this.db
      .insertInto('metered_alerts')
      .values({ user_id: userId, ...alert, notified_period: null, updated_at: at })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ ...alert, notified_period: null, updated_at: at }),
      )
      .execute();
  }

  /** Marks the alert sent for the period, unless it was already (answers whether this call did). */
  async markAlerted(userId: string, periodStart: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('metered_alerts')
      .set({ notified_period: periodStart, updated_at: at })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('notified_period', 'is', null), eb('notified_period', '<>', periodStart)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
