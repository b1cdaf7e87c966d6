import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { bigInteger } from './column-types';

/**
 * One row per owner holding what counts against the storage quota: `used_bytes`, the sizes of the
 * owner's files, and `reserved_bytes`, what unfinished uploads hold (the sum of their sessions'
 * `reserved_bytes`: the chunks they stored plus the chunk on its way). A chunk reserves its bytes
 * with one conditional update of this row (used + reserved + chunk <= capacity), so parallel chunks
 * cannot pass the capacity together. `used_bytes` follows the items table through triggers, in the
 * same transaction as every change to a file, whichever module makes it.
 *
 * An upload session's `storage_key` is the object its completion is writing: set before the parts
 * become an object, so a completion cut off by a crash is finished or undone, never left as bytes
 * without a row.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('storage_usage')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('used_bytes', bigInteger(dialect), (c) => c.notNull().defaultTo(0))
    .addColumn('reserved_bytes', bigInteger(dialect), (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('upload_sessions')
    .addColumn('reserved_bytes', bigInteger(dialect), (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('upload_sessions').addColumn('storage_key', 'text').execute();

  await sql`update upload_sessions set reserved_bytes = received_bytes`.execute(db);
  await sql`
    insert into storage_usage (user_id, used_bytes, reserved_bytes)
    select users.id,
      (select coalesce(sum(size), 0) from items where items.user_id = users.id and items.type = 'file'),
      (select coalesce(sum(reserved_bytes), 0) from upload_sessions where upload_sessions.user_id = users.id)
    from users`.execute(db);

  if (dialect === 'sqlite') await sqliteTriggers(db);
  else await postgresTriggers(db);
}

/** Adds `bytes` (an SQL expression) to the owner's used bytes; an owner being deleted has no row to keep. */
const addUsed = (owner: string, bytes: string, when: string) =>
  `insert into storage_usage (user_id, used_bytes, reserved_bytes)
     select ${owner}, ${bytes}, 0 where ${when} and ${owner} in (select id from users)
   on conflict (user_id) do update set used_bytes = storage_usage.used_bytes + excluded.used_bytes;`;

async function sqliteTriggers(db: Kysely<unknown>) {
  const triggers: [name: string, event: string, body: string][] = [
    ['items_usage_insert', 'after insert on items', addUsed('new.user_id', 'new.size', "new.type = 'file'")],
    ['items_usage_delete', 'after delete on items', addUsed('old.user_id', '-old.size', "old.type = 'file'")],
    [
      'items_usage_update',
      'after update of size, type, user_id on items',
      addUsed('old.user_id', '-old.size', "old.type = 'file'") +
        addUsed('new.user_id', 'new.size', "new.type = 'file'"),
    ],
  ];
  for (const [name, event, body] of triggers)
    await sql.raw(`create trigger ${name} ${event} for each row begin ${body} end`).execute(db);
}

/** One upsert per owner and statement, from the transition tables (a trash dump of 10,000 files is one update). */
async function postgresTriggers(db: Kysely<unknown>) {
  const signed: Record<string, string> = {
    new_rows: `select user_id, size as bytes from new_rows where type = 'file'`,
    old_rows: `select user_id, -size as bytes from old_rows where type = 'file'`,
  };
  for (const [event, rows] of [
    ['insert', ['new_rows']],
    ['update', ['old_rows', 'new_rows']],
    ['delete', ['old_rows']],
  ] as const) {
    const fn = `items_usage_${event}`;
    const changes = rows.map((r) => signed[r]).join(' union all ');
    await sql
      .raw(
        `create function ${fn}() returns trigger language plpgsql as $$ begin
           insert into storage_usage (user_id, used_bytes, reserved_bytes)
             select c.user_id, sum(c.bytes), 0 from (${changes}) c
             where c.user_id in (select id from users)
             group by c.user_id having sum(c.bytes) <> 0
           on conflict (user_id) do update set used_bytes = storage_usage.used_bytes + excluded.used_bytes;
           return null;
         end $$`,
      )
      .execute(db);
    const referencing = rows.map((r) => `${r === 'new_rows' ? 'new' : 'old'} table as ${r}`).join(' ');
    await sql
      .raw(
        `create trigger ${fn} after ${event} on items referencing ${referencing}
         for each statement execute function ${fn}()`,
      )
      .execute(db);
  }
}
