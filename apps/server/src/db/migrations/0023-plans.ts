import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * Billing's plans. Money is integer minor units of the plan's currency (`amount_minor`, and the
 * tier prices inside `meters`), never a float. A fixed plan has amount, interval and features; a
 * metered plan has its meters (JSON text: always read and written whole with the plan).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** `fixed` or `metered`. */
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    /** `active` or `archived` (kept for its subscribers, hidden from new ones). */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'integer')
    .addColumn('interval', 'text')
    .addColumn('max_storage_amount', 'integer')
    .addColumn('max_team_members', 'integer')
    .addColumn('meters', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('plans_type_status_index').on('plans').columns(['type', 'status']).execute();
}
