import type { Kysely } from 'kysely';

/**
 * The language the user picked for the interface; null until they choose one, and then the browser's
 * language or the instance default applies.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_settings').addColumn('locale', 'text').execute();
}
