import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { bigInteger, timestamp } from './column-types';

/**
 * Metered billing. `bandwidth_usage`: bytes a user's files sent and received per UTC day (one upsert
 * per download or finished upload). `usage_records`: each metered subscription's use per day and
 * meter, unique, so recording a day again overwrites it; `period_start` names the period it counts
 * in. `metered_settlements`: one per subscription and ended period (unique, so two runs at once
 * settle it once), with its dunning state (reminders sent, when the account was restricted).
 * `metered_alerts`: a user's alert threshold and the period it was last sent for.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  const big = bigInteger(dialect);

  await db.schema
    .createTable('bandwidth_usage')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** `YYYY-MM-DD`, UTC. */
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('bytes', big, (c) => c.notNull())
    .addPrimaryKeyConstraint('bandwidth_usage_pkey', ['user_id', 'day'])
    .execute();

  await db.schema
    .createTable('usage_records')
    .addColumn('subscription_id', 'text', (c) =>
      c.notNull().references('subscriptions.id').onDelete('cascade'),
    )
    .addColumn('day', 'text', (c) => c.notNull())
    /** storage, bandwidth, members or flat_fee. */
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('quantity', big, (c) => c.notNull())
    .addColumn('period_start', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_records_pkey', ['subscription_id', 'day', 'key'])
    .execute();
  await db.schema
    .createIndex('usage_records_period_index')
    .on('usage_records')
    .columns(['subscription_id', 'period_start'])
    .execute();

  await db.schema
    .createTable('metered_settlements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscription_id', 'text', (c) =>
      c.notNull().references('subscriptions.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('period_start', ts, (c) => c.notNull())
    .addColumn('period_end', ts, (c) => c.notNull())
    .addColumn('amount_minor', big, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    /** `paying` (claimed by one run), `unpaid` or `paid`. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reminders', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notified_at', ts)
    .addColumn('restricted_at', ts)
    .addColumn('transaction_id', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('metered_settlements_period_unique', ['subscription_id', 'period_start'])
    .execute();
  await db.schema
    .createIndex('metered_settlements_open_index')
    .on('metered_settlements')
    .columns(['user_id', 'status'])
    .where(sql.ref('status'), '<>', 'paid')
    .execute();

  await db.schema
    .createTable('metered_alerts')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('amount_minor', big, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    /** The period start the alert was last sent for: once per period. */
    .addColumn('notified_period', ts)
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
}
