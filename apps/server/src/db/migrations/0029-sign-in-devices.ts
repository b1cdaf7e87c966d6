import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * Browsers known to an account: each successful sign-in (or reset by an e-mailed link) leaves a
 * long-lived cookie whose SHA-256 is `token_hash` (one browser may be known to several accounts).
 * While guesses from elsewhere fill the account's sign-in window, such a browser may still sign in,
 * so an attacker cannot lock the person out.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .createTable('sign_in_devices')
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('last_used_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('sign_in_devices_pkey', ['token_hash', 'user_id'])
    .execute();
  await db.schema
    .createIndex('sign_in_devices_user_id_index')
    .on('sign_in_devices')
    .column('user_id')
    .execute();
}
