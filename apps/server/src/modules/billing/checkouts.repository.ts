import type { PaymentDriver } from '@atelier/contracts';
import type { Insertable } from 'kysely';
import type { Database } from '../../db/database';
import type { CheckoutRow, CheckoutsTable } from './billing.tables';

/** The checkouts this instance made, by driver and reference. Kysely only. */
export class CheckoutsRepository {
  constructor(private readonly database: Database) {}

  async insert(row: Insertable<CheckoutsTable>): Promise<void> {
    await this.database.db.insertInto('checkouts').values(row).execute();
  }

  /**
   * Marks used, at `at`, the newest checkout of this plan this person made with this provider since
   * `since` and not used yet; false when there is none. Two starts at once cannot both take one: the
   * second finds it used (PostgreSQL re-reads the row it waited for).
   */
  async usePlanCheckout(
    driver: PaymentDriver,
    userId: string,
    planId: string,
    since: string,
    at: string,
  ): Promise<boolean> {
    const { db } = this.database;
    const newestUnused = db
      .selectFrom('checkouts')
      .select('id')
      .where('driver', '=', driver)
      .where('user_id', '=', userId)
      .where('purpose', '=', 'plan')
      .where('plan_id', '=', planId)
      .where('created_at', '>=', since)
      .where('used_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1);
    const used = await db
      .updateTable('checkouts')
      .set({ used_at: at })
      .where('id', 'in', newestUnused)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) > 0;
  }

  async find(driver: PaymentDriver, reference: string): Promise<CheckoutRow | undefined> {
    const row = await this.database.db
      .selectFrom('checkouts')
      .selectAll()
      .where('driver', '=', driver)
      .where('reference', '=', reference)
      .executeTakeFirst();
    return row && { ...row, amount_minor: Number(row.amount_minor) };
  }
}
