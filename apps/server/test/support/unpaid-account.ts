import { randomUUID } from 'node:crypto';
import type { TestApp } from './test-app';

/**
 * Leaves the account as metered billing leaves one with an unpaid period: restricted (no upload, no
 * download, no new folder) until it pays. Answers the undoing, which puts the instance back.
 */
export async function restrictAsUnpaid(t: TestApp, userId: string): Promise<() => Promise<void>> {
  const db = t.deps.database.db;
  const at = new Date().toISOString();
  const plan = randomUUID();
  const subscription = randomUUID();
  await t.deps.settings.set({ subscription_type: 'metered' });
  await db
    .insertInto('plans')
    .values({
      id: plan,
      type: 'metered',
      name: 'Metered',
      description: '',
      currency: 'EUR',
      status: 'active',
      amount_minor: 0,
      interval: 'month',
      max_storage_amount: null,
      max_team_members: -1,
      meters: '[]',
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db
    .insertInto('subscriptions')
    .values({
      id: subscription,
      user_id: userId,
      plan_id: plan,
      status: 'active',
      driver: null,
      provider_subscription_id: null,
      renews_at: null,
      ends_at: null,
      provider_updated_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db
    .insertInto('metered_settlements')
    .values({
      id: randomUUID(),
      subscription_id: subscription,
      user_id: userId,
      period_start: at,
      period_end: at,
      amount_minor: 260,
      currency: 'EUR',
      status: 'unpaid',
      reminders: 3,
      notified_at: at,
      restricted_at: at,
      transaction_id: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return async () => {
    await db.deleteFrom('subscriptions').where('id', '=', subscription).execute();
    await db.deleteFrom('plans').where('id', '=', plan).execute();
    await t.deps.settings.set({ subscription_type: 'none' });
  };
}
