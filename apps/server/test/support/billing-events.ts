import type { PaymentDriver } from '@atelier/contracts';
import type { DB } from '../../src/db/schema';
import type { TestApp } from './test-app';

/** Every row of billing_events, as the webhook route stored them. */
export const storedEvents = (t: TestApp) =>
  t.deps.database.db.selectFrom('billing_events').selectAll().execute();

/** Each subscription's provider id and status, by provider id. */
export const subscriptionStates = (t: TestApp) =>
  t.deps.database.db
    .selectFrom('subscriptions')
    .select(['provider_subscription_id', 'status'])
    .orderBy('provider_subscription_id')
    .execute();

/**
 * What the billing job does with each stored event, in the order given: the row is looked up by its
 * provider's event id (and by driver when one is given) and applied.
 */
export async function applyStoredEvents(
  t: TestApp,
  driver: PaymentDriver | null,
  ...eventIds: string[]
): Promise<void> {
  for (const eventId of eventIds) {
    let lookup = t.deps.database.db.selectFrom('billing_events').select('id').where('event_id', '=', eventId);
    if (driver) lookup = lookup.where('driver', '=', driver);
    const row = await lookup.executeTakeFirstOrThrow();
    await t.deps.billingEvents.apply(row.id);
  }
}

/** What a subscription test leaves behind, emptied in an order the foreign keys allow. */
export const SUBSCRIPTION_RECORDS = [
  'billing_events',
  'transactions',
  'subscriptions',
  'notifications',
] as const;
/** What a balance top-up test leaves behind. */
export const BALANCE_RECORDS = ['billing_events', 'transactions', 'balances'] as const;

/** Empties the given tables, one after the other, between tests that share one app. */
export async function clearTables(t: TestApp, tables: readonly (keyof DB)[]): Promise<void> {
  for (const table of tables) await t.deps.database.db.deleteFrom(table).execute();
}
