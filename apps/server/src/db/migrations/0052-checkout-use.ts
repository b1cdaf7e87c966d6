import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * `checkouts.used_at`: when a checkout of a plan started the subscription it paid for. A provider
 * whose subscription event names its subscriber as the payer's browser said (Paystack) starts one
 * only from a recent checkout of that plan by that account not used yet, so an old checkout, or
 * one that started the account's own subscription, cannot start another a stranger pays for.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('checkouts').addColumn('used_at', timestamp(dialect)).execute();
}
