import { sql, type Kysely } from 'kysely';

/**
 * `items.outsider_name` (and its `outsider_sort_name`): the name an item made through an upload
 * request has for that request's outsider, who is shown it, sorts and pages by it, and meets their
 * own names alone. `name` stays the item's one name in its folder for everyone else, a free one
 * where the owner's folder already held the outsider's: nothing the outsider is answered then
 * depends on a name of the owner's they did not give. Items received before keep the name they have.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column a statement: SQLite adds no more.
  await db.schema.alterTable('items').addColumn('outsider_name', 'text').execute();
  await db.schema.alterTable('items').addColumn('outsider_sort_name', 'text').execute();
  await sql`update items set outsider_name = name, outsider_sort_name = sort_name
            where upload_request_id is not null`.execute(db);
}
