import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { bigInteger } from './column-types';

/**
 * Versions count by their unique bytes (issue 24). Until now each version row added its content's
 * whole size to `storage_usage.used_bytes`, so 100 saves of a 200 MB file that each change 1 % counted
 * 20 GB where the block store holds about 2. Now `version_bytes` is what the owner's versions hold
 * beyond their files' current bytes: the blocks versions name that no current content names (each
 * block once, by its logical size), and the whole size of versions still stored as one object that no
 * item has as its current content. `used_bytes` includes it, so storage_usage stays the one truth.
 *
 * It is counted again for the owner whenever versions change (rows kept or deleted, cascades of
 * purged items included) and when a content of an owner with versions becomes blocks (the blockify
 * job: a current content made blocks may share them with versions), by triggers. On
 * PostgreSQL the owner's row is locked before the count, so concurrent saves count each other's
 * versions (the count is a fresh statement after the lock, read committed).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('storage_usage')
    .addColumn('version_bytes', bigInteger(dialect), (c) => c.notNull().defaultTo(0))
    .execute();
  // Whether a block or an object is some file's current bytes is looked up by content.
  await db.schema.createIndex('items_content_id_index').on('items').column('content_id').execute();

  if (dialect === 'sqlite') {
    await sql.raw('drop trigger file_versions_usage_insert').execute(db);
    await sql.raw('drop trigger file_versions_usage_delete').execute(db);
  } else {
    for (const event of ['insert', 'delete']) {
      await sql.raw(`drop trigger file_versions_usage_${event} on file_versions`).execute(db);
      await sql.raw(`drop function file_versions_usage_${event}()`).execute(db);
    }
  }
  // What the dropped triggers had added: every version's whole size.
  await sql`
    update storage_usage set used_bytes = used_bytes - coalesce((
      select sum(c.size) from file_versions v join file_contents c on c.id = v.content_id
      where v.user_id = storage_usage.user_id), 0)`.execute(db);

  if (dialect === 'sqlite') await sqliteTriggers(db);
  else await postgresTriggers(db);
  await sql.raw(recount('storage_usage.user_id')).execute(db);
}

/** The bytes the owner's versions hold beyond every file's current bytes. */
const versionBytes = (owner: string) => `(
  (select coalesce(sum(b.size), 0) from blocks b
    where b.id in (
      select cb.block_id from file_versions v join content_blocks cb on cb.content_id = v.content_id
      where v.user_id = ${owner})
    and not exists (
      select 1 from content_blocks cc join items i on i.content_id = cc.content_id
      where cc.block_id = b.id))
  + (select coalesce(sum(c.size), 0) from file_versions v join file_contents c on c.id = v.content_id
    where v.user_id = ${owner} and c.layout <> 'blocks'
    and not exists (select 1 from items i where i.content_id = c.id)))`;

/**
 * Sets the owner's (or, naming the row's own column, every owner's) version_bytes, and used_bytes with
 * it. Migration 0050's trigger counts with it too.
 */
export const recount = (owner: string) =>
  `update storage_usage set used_bytes = used_bytes - version_bytes + ${versionBytes(owner)},
     version_bytes = ${versionBytes(owner)}
   where user_id = ${owner};`;

const ensureRow = (owner: string) =>
  `insert into storage_usage (user_id, used_bytes, reserved_bytes)
     select ${owner}, 0, 0 where ${owner} in (select id from users)
   on conflict (user_id) do nothing;`;

async function sqliteTriggers(db: Kysely<unknown>) {
  for (const [event, row] of [
    ['insert', 'new'],
    ['delete', 'old'],
  ] as const) {
    await sql
      .raw(
        `create trigger file_versions_usage_${event} after ${event} on file_versions for each row
         begin ${ensureRow(`${row}.user_id`)} ${recount(`${row}.user_id`)} end`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create trigger file_contents_layout_usage after update of layout on file_contents for each row
       when old.layout is not new.layout and exists (select 1 from file_versions where user_id = new.user_id)
       begin ${recount('new.user_id')} end`,
    )
    .execute(db);
}

async function postgresTriggers(db: Kysely<unknown>) {
  // The row is locked first, so the count (a statement of its own, with a fresh snapshot) sees
  // every version a concurrent unit of work committed before it.
  await sql
    .raw(
      `create function recount_version_bytes(owner text) returns void language plpgsql as $$ begin
         ${ensureRow('owner')}
         perform 1 from storage_usage where user_id = owner for update;
         ${recount('owner')}
       end $$`,
    )
    .execute(db);
  for (const [event, table] of [
    ['insert', 'new'],
    ['delete', 'old'],
  ] as const) {
    const fn = `file_versions_usage_${event}`;
    await sql
      .raw(
        `create function ${fn}() returns trigger language plpgsql as $$ begin
           perform recount_version_bytes(owner) from (select distinct user_id as owner from ${table}_rows) o;
           return null;
         end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${fn} after ${event} on file_versions referencing ${table} table as ${table}_rows
         for each statement execute function ${fn}()`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create function file_contents_layout_usage() returns trigger language plpgsql as $$ begin
         if exists (select 1 from file_versions where user_id = new.user_id) then
           perform recount_version_bytes(new.user_id);
         end if;
         return null;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger file_contents_layout_usage after update of layout on file_contents for each row
       when (old.layout is distinct from new.layout) execute function file_contents_layout_usage()`,
    )
    .execute(db);
}
