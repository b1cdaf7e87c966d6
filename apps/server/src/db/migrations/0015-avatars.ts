import type { Kysely } from 'kysely';

/**
 * A user's uploaded avatar: the storage key its sizes are stored under (`{key}-xs` and so on), or
 * null for the letter avatar. A new upload gets a new key, so the avatar's URLs change with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('avatar', 'text').execute();
  // Serving an avatar looks its key up on every request.
  await db.schema.createIndex('users_avatar_index').on('users').column('avatar').execute();
}
