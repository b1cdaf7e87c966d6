import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { bigInteger, timestamp } from './column-types';

/**
 * A file's bytes are a content: where they are stored, their size, type and hash, who saved them and
 * when. An item names its current content; every earlier one it keeps is a version, a row naming a
 * content, so keeping a version never copies bytes (and a block store can later make a content a list
 * of blocks without changing what a version is).
 *
 * Versions count in the owner's used bytes through triggers, as items do, so storage_usage stays the
 * one truth: an item's size is its current content, a version row adds its content's size.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .createTable('file_contents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('size', bigInteger(dialect), (c) => c.notNull())
    .addColumn('mimetype', 'text')
    .addColumn('sha256', 'text')
    .addColumn('author_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_contents_user_id_index').on('file_contents').column('user_id').execute();
  await db.schema
    .alterTable('items')
    .addColumn('content_id', 'text', (c) => c.references('file_contents.id').onDelete('set null'))
    .execute();

  await db.schema
    .createTable('file_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('item_id', 'text', (c) => c.notNull().references('items.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content_id', 'text', (c) => c.notNull().unique().references('file_contents.id'))
    /** When these bytes stopped being the file's current ones: retention counts from here. */
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('file_versions_item_index')
    .on('file_versions')
    .columns(['item_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('file_versions_user_index')
    .on('file_versions')
    .columns(['user_id', 'created_at'])
    .execute();

  // Every file stored so far gets its content; who saved it is its owner, unless an outsider sent it.
  await sql`
    insert into file_contents (id, user_id, storage_key, size, mimetype, sha256, author_id, created_at)
    select id, user_id, storage_key, size, mimetype, null,
      case when upload_request_id is null then user_id end, updated_at
    from items where type = 'file' and storage_key is not null`.execute(db);
  await sql`update items set content_id = id where type = 'file' and storage_key is not null`.execute(db);

  if (dialect === 'sqlite') await sqliteTriggers(db);
  else await postgresTriggers(db);
}

const addUsed = (owner: string, bytes: string) =>
  `insert into storage_usage (user_id, used_bytes, reserved_bytes)
     select ${owner}, ${bytes}, 0 where ${owner} in (select id from users)
   on conflict (user_id) do update set used_bytes = storage_usage.used_bytes + excluded.used_bytes;`;

async function sqliteTriggers(db: Kysely<unknown>) {
  const size = (row: string) => `(select size from file_contents where id = ${row}.content_id)`;
  await sql
    .raw(
      `create trigger file_versions_usage_insert after insert on file_versions for each row
       begin ${addUsed('new.user_id', size('new'))} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger file_versions_usage_delete after delete on file_versions for each row
       begin ${addUsed('old.user_id', `-${size('old')}`)} end`,
    )
    .execute(db);
}

/** One upsert per owner and statement, as the items' triggers (migration 0010). */
async function postgresTriggers(db: Kysely<unknown>) {
  for (const [event, table, sign] of [
    ['insert', 'new', ''],
    ['delete', 'old', '-'],
  ] as const) {
    const fn = `file_versions_usage_${event}`;
    await sql
      .raw(
        `create function ${fn}() returns trigger language plpgsql as $$ begin
           insert into storage_usage (user_id, used_bytes, reserved_bytes)
             select v.user_id, ${sign}sum(c.size), 0 from ${table}_rows v
             join file_contents c on c.id = v.content_id
             where v.user_id in (select id from users)
             group by v.user_id
           on conflict (user_id) do update set used_bytes = storage_usage.used_bytes + excluded.used_bytes;
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
}
