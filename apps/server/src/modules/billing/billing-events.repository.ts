import type { PaymentDriver } from '@atelier/contracts';
import type { Insertable } from 'kysely';
import type { Database } from '../../db/database';
import type { BillingEventRow, BillingEventStatus, BillingEventsTable } from './billing.tables';

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

  byEventId(driver: PaymentDriver, eventId: string): Promise<BillingEventRow | undefined> {
    return this.database.db
      .selectFrom('billing_events')
      .selectAll()
      .where('driver', '=', driver)
      .where('event_id', '=', eventId)
      .executeTakeFirst();
  }

  /** Ids of events still `received` that were stored before `before`, oldest first. */
  async unapplied(before: string, limit: number): Promise<string[]> {
    const rows = await this.database.db
      .selectFrom('billing_events')
      .select('id')
      .where('status', '=', 'received')
      .where('received_at', '<', before)
      .orderBy('received_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  async page(
    status: BillingEventStatus,
    page: number,
    perPage: number,
  ): Promise<{ rows: BillingEventRow[]; total: number }> {
    const base = this.database.db.selectFrom('billing_events').where('status', '=', status);
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy('received_at', 'desc')
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  async settle(
    id: string,
    status: Exclude<BillingEventStatus, 'received'>,
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
