import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { bigInteger } from './column-types';

/**
 * How many live folders and files each folder holds directly (`folder_key` '' is the owner's root),
 * kept by triggers in the transaction of every change to items, whichever path makes it. A folder
 * page reads its total here instead of counting a large folder, and every folder row of a page its
 * `items` count. Rows of a folder that is deleted go with it; a change inside a folder deleted in the
 * same statement (a cascade) finds no folder and keeps no row.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('folder_counts')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('folder_key', 'text', (c) => c.notNull())
    .addColumn('folders', bigInteger(dialect), (c) => c.notNull().defaultTo(0))
    .addColumn('files', bigInteger(dialect), (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('folder_counts_pkey', ['user_id', 'folder_key'])
    .execute();

  await sql`
    insert into folder_counts (user_id, folder_key, folders, files)
    select user_id, coalesce(parent_id, ''),
      sum(case when type = 'folder' then 1 else 0 end), sum(case when type = 'file' then 1 else 0 end)
    from items where deleted_at is null
    group by user_id, coalesce(parent_id, '')`.execute(db);

  if (dialect === 'sqlite') await sqliteTriggers(db);
  else await postgresTriggers(db);
}

/**
 * The change rows make to their folders' counts: +1 (`sign` '') or -1 (`sign` '-') of their type,
 * for live rows; `from` names a transition table the rows are read from, none in a row trigger.
 */
const counted = (row: string, sign: '' | '-', from = '') =>
  `select ${row}.user_id as user_id, coalesce(${row}.parent_id, '') as folder_key,
     ${sign}(case when ${row}.type = 'folder' then 1 else 0 end) as folders,
     ${sign}(case when ${row}.type = 'file' then 1 else 0 end) as files
   ${from && `from ${from} ${row}`} where ${row}.deleted_at is null`;

/** Adds the changes to the counts of folders (and owners) that still exist. */
const addCounts = (changes: string) =>
  `insert into folder_counts (user_id, folder_key, folders, files)
     select c.user_id, c.folder_key, sum(c.folders), sum(c.files) from (${changes}) c
     where c.user_id in (select id from users)
       and (c.folder_key = '' or exists (select 1 from items f where f.id = c.folder_key))
     group by c.user_id, c.folder_key having sum(c.folders) <> 0 or sum(c.files) <> 0
     order by c.user_id, c.folder_key
   on conflict (user_id, folder_key) do update
     set folders = folder_counts.folders + excluded.folders, files = folder_counts.files + excluded.files;`;

async function sqliteTriggers(db: Kysely<unknown>) {
  const forget = `delete from folder_counts where user_id = old.user_id and folder_key = old.id;`;
  const triggers: [name: string, event: string, body: string][] = [
    ['items_counts_insert', 'after insert on items', addCounts(counted('new', ''))],
    ['items_counts_delete', 'after delete on items', addCounts(counted('old', '-')) + forget],
    [
      'items_counts_update',
      'after update of user_id, parent_id, type, deleted_at on items',
      addCounts(`${counted('old', '-')} union all ${counted('new', '')}`),
    ],
  ];
  for (const [name, event, body] of triggers)
    await sql.raw(`create trigger ${name} ${event} for each row begin ${body} end`).execute(db);
}

/** One upsert per statement from the transition tables, folders in key order so writers lock them alike. */
async function postgresTriggers(db: Kysely<unknown>) {
  const rowsOf = (table: 'new_rows' | 'old_rows') => counted('r', table === 'new_rows' ? '' : '-', table);
  const forget = `delete from folder_counts f using old_rows o
    where o.type = 'folder' and f.user_id = o.user_id and f.folder_key = o.id;`;
  for (const [event, rows] of [
    ['insert', ['new_rows']],
    ['update', ['old_rows', 'new_rows']],
    ['delete', ['old_rows']],
  ] as const) {
    const fn = `items_counts_${event}`;
    const changes = rows.map(rowsOf).join(' union all ');
    await sql
      .raw(
        `create function ${fn}() returns trigger language plpgsql as $$ begin
           ${addCounts(changes)}
           ${event === 'delete' ? forget : ''}
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
