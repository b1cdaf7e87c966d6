import type { Insertable } from 'kysely';
import type { Database } from '../../db/database';
import type { BillingEventRow, BillingEventsTable } from './billing.tables';

/** Verified provider events, unique per driver and event id. Kysely only. */
export class BillingEventsRepository {
  constructor(private readonly database: Database) {}

  /** Stores the event unless that provider's event id is already stored; undefined for a replay. */
  insertOnce(row: Insertable<BillingEventsTable>): Promise<BillingEventRow | undefined> {
    return this.database.db
      .insertInto('billing_events')
      .values(row)
      .onConflict((oc) => oc.columns(['driver', 'event_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  find(id: string): Promise<BillingEventRow | undefined> {
    return this.database.db.selectFrom('billing_events').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async settle(
    id: string,
    status: 'applied' | 'ignored' | 'failed',
    at: string,
    error?: string,
  ): Promise<void> {
    await this.database.db
      .updateTable('billing_events')
      .set({ status, applied_at: at, error: error ?? null })
      .where('id', '=', id)
      .execute();
  }
}
