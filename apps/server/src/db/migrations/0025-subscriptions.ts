import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { bigInteger, timestamp } from './column-types';

/**
 * Billing's ledger. `subscriptions`: who holds which plan through which provider; at most one that
 * is not `completed` per user (a partial unique index, so two webhooks at once cannot make two).
 * `transactions`: every credit, charge and withdrawal in integer minor units; a provider reference
 * is unique per driver, so a payment reported twice is recorded once. `billing_events`: each
 * verified webhook as received, unique per driver and provider event id (the replay guard), applied
 * by a job. `plan_registrations`: a plan's id at each provider, filled by a retrying job.
 * `balances`: a metered user's prepaid amount.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  const money = bigInteger(dialect);
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('plan_id', 'text', (c) => c.notNull().references('plans.id'))
    /** `active`, `cancelled` (runs to ends_at) or `completed`. */
    .addColumn('status', 'text', (c) => c.notNull())
    /** `stripe`, `paypal`, `paystack`; null for a metered plan settled from the balance. */
    .addColumn('driver', 'text')
    .addColumn('provider_subscription_id', 'text')
    .addColumn('renews_at', ts)
    .addColumn('ends_at', ts)
    /** The provider's time of the last state applied, so an older event arriving late is ignored. */
    .addColumn('provider_updated_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('subscriptions_one_open_per_user')
    .on('subscriptions')
    .column('user_id')
    .unique()
    .where(sql.ref('status'), '<>', 'completed')
    .execute();
  await db.schema
    .createIndex('subscriptions_provider_index')
    .on('subscriptions')
    .columns(['driver', 'provider_subscription_id'])
    .execute();
  await db.schema.createIndex('subscriptions_plan_index').on('subscriptions').column('plan_id').execute();

  await db.schema
    .createTable('transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Kept when the account goes (the instance's books), with the name copied in.
    .addColumn('user_id', 'text')
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('user_email', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text')
    .addColumn('subscription_id', 'text')
    /** `credit`, `charge` or `withdrawal`. */
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount_minor', money, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    /** The provider, or `balance` / `admin` for what never left the instance. */
    .addColumn('driver', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('transactions_driver_reference_unique', ['driver', 'reference'])
    .execute();
  await db.schema
    .createIndex('transactions_user_index')
    .on('transactions')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('transactions_created_at_index')
    .on('transactions')
    .column('created_at')
    .execute();

  await db.schema
    .createTable('billing_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('driver', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    /** The verified body as received (card data never reaches a webhook; the body is never logged). */
    .addColumn('payload', 'text', (c) => c.notNull())
    /** JSON of what the event means to the ledger, read at verification; the job applies it. */
    .addColumn('effect', 'text', (c) => c.notNull())
    .addColumn('occurred_at', ts, (c) => c.notNull())
    /** `received`, `applied`, `ignored` or `failed`. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('received_at', ts, (c) => c.notNull())
    .addColumn('applied_at', ts)
    .addUniqueConstraint('billing_events_driver_event_unique', ['driver', 'event_id'])
    .execute();

  await db.schema
    .createTable('plan_registrations')
    .addColumn('plan_id', 'text', (c) => c.notNull().references('plans.id').onDelete('cascade'))
    .addColumn('driver', 'text', (c) => c.notNull())
    .addColumn('provider_plan_id', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('plan_registrations_pkey', ['plan_id', 'driver'])
    .execute();
  await db.schema
    .createIndex('plan_registrations_provider_index')
    .on('plan_registrations')
    .columns(['driver', 'provider_plan_id'])
    .execute();

  await db.schema
    .createTable('balances')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('amount_minor', money, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
}
