import type { PaymentDriver, SubscriptionStatus } from '@atelier/contracts';
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Database } from '../../db/database';
import { containsPattern } from '../../lib/like-pattern';
import { accountCards } from '../users/account-queries';
import type { PlanRow, SubscriptionRow, SubscriptionsTable } from './billing.tables';

export interface SubscriptionWithNames extends SubscriptionRow {
  user_name: string;
  user_email: string;
  plan_name: string;
  plan_type: PlanRow['type'];
}

/** Billing's subscriptions table. Kysely only. */
export class SubscriptionsRepository {
  constructor(private readonly database: Database) {}

  insert(row: Insertable<SubscriptionsTable>): Promise<SubscriptionRow> {
    return this.database.db.insertInto('subscriptions').values(row).returningAll().executeTakeFirstOrThrow();
  }

  find(id: string): Promise<SubscriptionRow | undefined> {
    return this.database.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The user's subscription that is not completed (at most one, by the partial unique index). */
  open(userId: string): Promise<SubscriptionRow | undefined> {
    return this.database.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', '<>', 'completed')
      .executeTakeFirst();
  }

  /**
   * The limits of the fixed plan whose subscription is in effect at `at` (active, or cancelled with
   * paid time left), in one statement: the quota of every upload chunk reads it.
   */
  async fixedPlanInEffect(
    userId: string,
    at: string,
  ): Promise<{ max_storage_amount: number; max_team_members: number } | undefined> {
    const row = await this.database.db
      .selectFrom('subscriptions')
      .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
      .select(['plans.max_storage_amount', 'plans.max_team_members'])
      .where('subscriptions.user_id', '=', userId)
      .where('subscriptions.status', '<>', 'completed')
      .where('plans.type', '=', 'fixed')
      .where((eb) =>
        eb.or([
          eb('subscriptions.status', '<>', 'cancelled'),
          eb('subscriptions.ends_at', 'is', null),
          eb('subscriptions.ends_at', '>', at),
        ]),
      )
      .executeTakeFirst();
    return row && { max_storage_amount: row.max_storage_amount!, max_team_members: row.max_team_members! };
  }

  byProvider(driver: PaymentDriver, providerSubscriptionId: string): Promise<SubscriptionRow | undefined> {
    return this.database.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('driver', '=', driver)
      .where('provider_subscription_id', '=', providerSubscriptionId)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  update(id: string, changes: Updateable<SubscriptionsTable>): Promise<SubscriptionRow | undefined> {
    return this.database.db
      .updateTable('subscriptions')
      .set(changes)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** Cancelled subscriptions whose paid period is over become completed; answers their users. */
  async completeEnded(at: string): Promise<string[]> {
    const rows = await this.database.db
      .updateTable('subscriptions')
      .set({ status: 'completed', updated_at: at })
      .where('status', '=', 'cancelled')
      .where('ends_at', '<=', at)
      .returning('user_id')
      .execute();
    return rows.map((row) => row.user_id);
  }

  /** The storage (GB) of the fixed plans these users hold in effect at `at`, by user. */
  async planStorage(userIds: string[], at: string): Promise<Map<string, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.database.db
      .selectFrom('subscriptions')
      .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
      .select(['subscriptions.user_id', 'plans.max_storage_amount'])
      .where('subscriptions.user_id', 'in', userIds)
      .where('plans.type', '=', 'fixed')
      .where((eb) =>
        eb.or([
          eb('subscriptions.status', '=', 'active'),
          eb.and([eb('subscriptions.status', '=', 'cancelled'), eb('subscriptions.ends_at', '>', at)]),
        ]),
      )
      .execute();
    return new Map(rows.map((row) => [row.user_id, row.max_storage_amount!]));
  }

  async countsByPlan(planIds: string[]): Promise<Map<string, number>> {
    if (planIds.length === 0) return new Map();
    const rows = await this.database.db
      .selectFrom('subscriptions')
      .select(['plan_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where('plan_id', 'in', planIds)
      .groupBy('plan_id')
      .execute();
    return new Map(rows.map((row) => [row.plan_id, Number(row.count)]));
  }

  /** Newest first, with the person's and the plan's names; filters for the admin's list. */
  async page(
    filter: { planId?: string; status?: SubscriptionStatus; search?: string },
    page: number,
    perPage: number,
  ): Promise<{ rows: SubscriptionWithNames[]; total: number }> {
    const pattern = filter.search ? containsPattern(filter.search.toLowerCase()) : null;
    const base = this.database.db
      .selectFrom('subscriptions')
      .innerJoin(accountCards(this.database.db).as('account'), 'account.id', 'subscriptions.user_id')
      .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
      .$if(filter.planId !== undefined, (qb) => qb.where('subscriptions.plan_id', '=', filter.planId!))
      .$if(filter.status !== undefined, (qb) => qb.where('subscriptions.status', '=', filter.status!))
      .$if(pattern !== null, (qb) =>
        qb.where(
          sql<boolean>`(lower(account.name) like ${pattern} escape '\\' or account.email like ${pattern} escape '\\' or lower(plans.name) like ${pattern} escape '\\')`,
        ),
      );
    const [rows, count] = await Promise.all([
      base
        .selectAll('subscriptions')
        .select([
          'account.name as user_name',
          'account.email as user_email',
          'plans.name as plan_name',
          'plans.type as plan_type',
        ])
        .orderBy('subscriptions.created_at', 'desc')
        .orderBy('subscriptions.id')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }
}
