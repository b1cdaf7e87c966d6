import type { Insertable, Updateable } from 'kysely';
import type { Database } from '../../db/database';
import type { PlanRow, PlansTable } from './billing.tables';

/** Billing's plans table. Kysely only; rows as stored (money in minor units). */
export class PlansRepository {
  constructor(private readonly database: Database) {}

  insert(plan: Insertable<PlansTable>): Promise<PlanRow> {
    return this.database.db.insertInto('plans').values(plan).returningAll().executeTakeFirstOrThrow();
  }

  find(id: string): Promise<PlanRow | undefined> {
    return this.database.db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async page(page: number, perPage: number): Promise<{ rows: PlanRow[]; total: number }> {
    const db = this.database.db;
    const [rows, count] = await Promise.all([
      db
        .selectFrom('plans')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      db
        .selectFrom('plans')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  /** The plans new subscribers may choose, cheapest first. */
  activeOfType(type: PlansTable['type']): Promise<PlanRow[]> {
    return this.database.db
      .selectFrom('plans')
      .selectAll()
      .where('type', '=', type)
      .where('status', '=', 'active')
      .orderBy('amount_minor')
      .orderBy('created_at')
      .execute();
  }

  update(id: string, changes: Updateable<PlansTable>): Promise<PlanRow | undefined> {
    return this.database.db
      .updateTable('plans')
      .set(changes)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(id: string): Promise<void> {
    await this.database.db.deleteFrom('plans').where('id', '=', id).execute();
  }
}
