import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { recount } from './0048-version-usage';

/**
 * Versions count by the bytes they hold beyond every file's current bytes (migration 0048), so a file
 * deleted for good whose blocks a version shares (a version of another file saved from the same
 * bytes) hands those blocks to the versions: `version_bytes` must grow as the file's size leaves
 * `used_bytes`. 0048 counted again only when versions or a content's layout changed, so such a purge
 * left the owner's usage short (and the quota lenient) until their next save. Now deleting an item
 * whose current content shares a block with a version counts the owner's versions again, in the
 * statement that deletes it (the cascades of a folder's descendants included). The test of sharing
 * goes by index through the content's blocks, so purging files no version shares counts nothing.
 * Counts already left short are set right here.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    // After the row's cascades (its own versions) have run: the count sees the item and them gone.
    await sql
      .raw(
        `create trigger items_version_usage_delete after delete on items for each row
         when old.content_id is not null and ${sharedWithVersions('old.content_id')}
         begin ${recount('old.user_id')} end`,
      )
      .execute(db);
  } else {
    // Once per statement and owner; recount_version_bytes (0048) locks the owner's row first.
    await sql
      .raw(
        `create function items_version_usage_delete() returns trigger language plpgsql as $$ begin
           perform recount_version_bytes(owner) from (
             select distinct user_id as owner from old_rows
             where content_id is not null and ${sharedWithVersions('old_rows.content_id')}) o;
           return null;
         end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger items_version_usage_delete after delete on items
         referencing old table as old_rows for each statement execute function items_version_usage_delete()`,
      )
      .execute(db);
  }
  await sql.raw(recount('storage_usage.user_id')).execute(db);
}

/**
 * Whether a version names one of the content's blocks (blocks are the owner's alone). Migration 0051
 * asks it too.
 */
export const sharedWithVersions = (content: string) => `exists (
  select 1 from content_blocks cb
  join content_blocks vb on vb.block_id = cb.block_id
  join file_versions v on v.content_id = vb.content_id
  where cb.content_id = ${content})`;
