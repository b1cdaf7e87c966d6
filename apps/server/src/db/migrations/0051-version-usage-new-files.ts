import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { recount } from './0048-version-usage';
import { sharedWithVersions } from './0050-version-usage-purges';

/**
 * Versions count by the bytes they hold beyond every file's current bytes (migration 0048), so a new
 * file whose blocks a version holds (a delta upload's commit of blocks the owner kept as a version of
 * another file, a copy of a version's blocks) takes those blocks from the versions: `version_bytes`
 * must shrink as the file's size joins `used_bytes`. Until now it was counted again only at the
 * owner's next version change, so usage stayed over-counted (and the quota strict) meanwhile.
 *
 * Now inserting an item whose content shares a block with a version counts the owner's versions again
 * (SQLite per row; PostgreSQL once per statement and owner, through 0048's recount_version_bytes,
 * which locks the owner's row). Every path records the content and its blocks before the item naming
 * it, and the test of sharing goes by index through the content's blocks, so filing a file that
 * shares nothing counts nothing. An item's content_id changes by update only when the file takes
 * other bytes (replace, restore), which keeps a version in the same unit of work after the update:
 * 0048's trigger on that row counts then, so updates need no trigger. Counts already left over are set
 * right here.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await sql
      .raw(
        `create trigger items_version_usage_insert after insert on items for each row
         when new.content_id is not null and ${sharedWithVersions('new.content_id')}
         begin ${recount('new.user_id')} end`,
      )
      .execute(db);
  } else {
    await sql
      .raw(
        `create function items_version_usage_insert() returns trigger language plpgsql as $$ begin
           perform recount_version_bytes(owner) from (
             select distinct user_id as owner from new_rows
             where content_id is not null and ${sharedWithVersions('new_rows.content_id')}) o;
           return null;
         end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger items_version_usage_insert after insert on items
         referencing new table as new_rows for each statement execute function items_version_usage_insert()`,
      )
      .execute(db);
  }
  await sql.raw(recount('storage_usage.user_id')).execute(db);
}
