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

  /** Whether this person checked this plan out with this provider. */
  async hasPlanCheckout(driver: PaymentDriver, userId: string, planId: string): Promise<boolean> {
    const row = await this.database.db
      .selectFrom('checkouts')
      .select('id')
      .where('driver', '=', driver)
      .where('user_id', '=', userId)
      .where('purpose', '=', 'plan')
      .where('plan_id', '=', planId)
      .executeTakeFirst();
    return row !== undefined;
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
