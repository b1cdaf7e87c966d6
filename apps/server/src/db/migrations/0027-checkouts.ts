import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { bigInteger, timestamp } from './column-types';

/**
 * `checkouts`: every checkout this instance made, with what it was for and how much, so a payment
 * reported by a provider is applied only when it matches one (reference, user, purpose, amount and
 * currency), never as the payer's browser described it. Unique per driver and reference. Events
 * that match nothing are kept in `billing_events` with status `review` (a text column: no change).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .createTable('checkouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('driver', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** `plan` or `balance`. */
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text')
    .addColumn('amount_minor', bigInteger(dialect), (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addUniqueConstraint('checkouts_driver_reference_unique', ['driver', 'reference'])
    .execute();
  // A person's checkouts: the plan check of a subscription started in a browser, and the cascade when
  // the account is deleted.
  await db.schema
    .createIndex('checkouts_user_index')
    .on('checkouts')
    .columns(['user_id', 'purpose'])
    .execute();
  await db.schema
    .createIndex('billing_events_status_index')
    .on('billing_events')
    .columns(['status', 'received_at'])
    .execute();
}
