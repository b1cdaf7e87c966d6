import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * Devices and app passwords.
 *
 * A session's `id` is the SHA-256 of its cookie and must never leave the server, so the devices list
 * names sessions by a random `public_id`; sessions signed in before this migration get one here. The
 * column stays nullable in the table (SQLite cannot add a NOT NULL column without a constant default),
 * but every session gets one: the app sets it on creation.
 *
 * An app password is `lookup` (its first group, stored plainly so a sign-in finds the row without
 * hashing against every row of the user) followed by a secret; `password_hash` is argon2id of the whole.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema.alterTable('sessions').addColumn('public_id', 'text').execute();
  const sessions = db as unknown as Kysely<{ sessions: { id: string; public_id: string | null } }>;
  for (const { id } of await sessions.selectFrom('sessions').select('id').execute())
    await sessions.updateTable('sessions').set({ public_id: randomUUID() }).where('id', '=', id).execute();
  await db.schema
    .createIndex('sessions_public_id_index')
    .on('sessions')
    .column('public_id')
    .unique()
    .execute();

  await db.schema
    .createTable('app_passwords')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('lookup', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('last_used_at', ts)
    .execute();
  // Signing in finds the row by its user and lookup; listing by the user alone uses the same index.
  await db.schema
    .createIndex('app_passwords_user_id_lookup_index')
    .on('app_passwords')
    .columns(['user_id', 'lookup'])
    .execute();
}
