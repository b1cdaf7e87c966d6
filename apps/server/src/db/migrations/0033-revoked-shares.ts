import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * `revoked_shares`: what is left of a link its owner revoked, so that its visitors are told it was
 * revoked and whom to ask, instead of a not-found. The link itself (and its sessions) is gone; the
 * housekeeping forgets these after a while, and the token then answers 404 like one never made.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .createTable('revoked_shares')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('revoked_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('revoked_shares_revoked_at_index')
    .on('revoked_shares')
    .column('revoked_at')
    .execute();
  await db.schema
    .createIndex('revoked_shares_user_id_index')
    .on('revoked_shares')
    .column('user_id')
    .execute();
}
