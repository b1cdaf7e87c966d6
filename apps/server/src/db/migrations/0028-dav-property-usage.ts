import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * Dead properties take room in the database like a file's bytes take room in storage, so they count
 * against the owner's quota: `storage_usage.used_bytes` follows `dav_properties` through triggers,
 * as it follows `items` (migration 0010), whichever module writes.
 *
 * Each row keeps its size (`bytes`: the UTF-8 bytes of its namespace, name and value, written with
 * the row) and its owner: a property goes when its item is deleted (a cascade), and by then the
 * item's row, which names the owner, is gone.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('dav_properties').addColumn('owner_id', 'text').execute();
  await db.schema
    .alterTable('dav_properties')
    .addColumn('bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const size =
    dialect === 'postgres'
      ? sql`octet_length(namespace || name || value)`
      : sql`length(cast(namespace || name || value as blob))`;
  await sql`
    update dav_properties
    set owner_id = (select user_id from items where items.id = dav_properties.item_id), bytes = ${size}`.execute(
    db,
  );
  await sql`
    insert into storage_usage (user_id, used_bytes, reserved_bytes)
      select owner_id, sum(bytes), 0 from dav_properties
      where owner_id in (select id from users) group by owner_id
    on conflict (user_id) do update set used_bytes = storage_usage.used_bytes + excluded.used_bytes`.execute(
    db,
  );

  if (dialect === 'sqlite') await sqliteTriggers(db);
  else await postgresTriggers(db);
}

/** Adds a row's bytes, signed, to its owner's used bytes; an owner being deleted has no row to keep. */
const addUsed = (row: 'new' | 'old') =>
  `insert into storage_usage (user_id, used_bytes, reserved_bytes)
     select ${row}.owner_id, ${row === 'old' ? '-' : ''}${row}.bytes, 0
     where ${row}.owner_id in (select id from users)
   on conflict (user_id) do update set used_bytes = storage_usage.used_bytes + excluded.used_bytes;`;

async function sqliteTriggers(db: Kysely<unknown>) {
  const triggers: [name: string, event: string, body: string][] = [
    ['dav_properties_usage_insert', 'after insert on dav_properties', addUsed('new')],
    ['dav_properties_usage_delete', 'after delete on dav_properties', addUsed('old')],
    ['dav_properties_usage_update', 'after update on dav_properties', addUsed('old') + addUsed('new')],
  ];
  for (const [name, event, body] of triggers)
    await sql.raw(`create trigger ${name} ${event} for each row begin ${body} end`).execute(db);
}

/** One upsert per owner and statement, from the transition tables, as for items. */
async function postgresTriggers(db: Kysely<unknown>) {
  const signed: Record<string, string> = {
    new_rows: 'select owner_id, bytes from new_rows',
    old_rows: 'select owner_id, -bytes as bytes from old_rows',
  };
  for (const [event, rows] of [
    ['insert', ['new_rows']],
    ['update', ['old_rows', 'new_rows']],
    ['delete', ['old_rows']],
  ] as const) {
    const fn = `dav_properties_usage_${event}`;
    const changes = rows.map((r) => signed[r]).join(' union all ');
    await sql
      .raw(
        `create function ${fn}() returns trigger language plpgsql as $$ begin
           insert into storage_usage (user_id, used_bytes, reserved_bytes)
             select c.owner_id, sum(c.bytes), 0 from (${changes}) c
             where c.owner_id in (select id from users)
             group by c.owner_id having sum(c.bytes) <> 0
           on conflict (user_id) do update set used_bytes = storage_usage.used_bytes + excluded.used_bytes;
           return null;
         end $$`,
      )
      .execute(db);
    const referencing = rows.map((r) => `${r === 'new_rows' ? 'new' : 'old'} table as ${r}`).join(' ');
    await sql
      .raw(
        `create trigger ${fn} after ${event} on dav_properties referencing ${referencing}
         for each statement execute function ${fn}()`,
      )
      .execute(db);
  }
}
