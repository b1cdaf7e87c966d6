import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { bigInteger } from './column-types';

/**
 * One counter per owner that moves whenever anything a listing of their items shows changes: the
 * items themselves (and so every folder's item count), favourites and thumbnails. Listings are
 * cached under it, so the counter is kept by triggers rather than by each write path, where a
 * forgotten bump would serve a stale folder. A later table that changes listings (shares) adds
 * its own triggers here.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('listing_versions')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('version', bigInteger(dialect), (c) => c.notNull().defaultTo(0))
    .execute();

  if (dialect === 'sqlite') await sqliteTriggers(db);
  else await postgresTriggers(db);
}

const BUMP = (owner: string) =>
  `insert into listing_versions (user_id, version) select ${owner}, 1 where ${owner} in (select id from users)
   on conflict (user_id) do update set version = listing_versions.version + 1;`;

/** SQLite has row triggers only: one bump per changed row, each a primary-key upsert. */
async function sqliteTriggers(db: Kysely<unknown>) {
  const itemOwner = (ref: string) => `(select user_id from items where id = ${ref})`;
  const triggers: [name: string, event: string, body: string][] = [
    ['items_listing_insert', 'after insert on items', BUMP('new.user_id')],
    ['items_listing_update', 'after update on items', BUMP('old.user_id') + BUMP('new.user_id')],
    ['items_listing_delete', 'after delete on items', BUMP('old.user_id')],
    ['favourites_listing_insert', 'after insert on favourites', BUMP(itemOwner('new.item_id'))],
    ['favourites_listing_delete', 'after delete on favourites', BUMP(itemOwner('old.item_id'))],
    ['thumbnails_listing_insert', 'after insert on thumbnails', BUMP(itemOwner('new.item_id'))],
    ['thumbnails_listing_delete', 'after delete on thumbnails', BUMP(itemOwner('old.item_id'))],
  ];
  for (const [name, event, body] of triggers)
    await sql.raw(`create trigger ${name} ${event} for each row begin ${body} end`).execute(db);
}

/** PostgreSQL bumps once per statement from its transition tables, so a trash cascade of 10,000 rows is one update. */
async function postgresTriggers(db: Kysely<unknown>) {
  const viaItem = (rows: string) => `select i.user_id from ${rows} r join items i on i.id = r.item_id`;
  const owners = {
    items: (rows: string) => `select user_id from ${rows}`,
    favourites: viaItem,
    thumbnails: viaItem,
  };
  for (const [table, ownersOf] of Object.entries(owners)) {
    for (const [event, rows] of [
      ['insert', ['new_rows']],
      ['update', ['old_rows', 'new_rows']],
      ['delete', ['old_rows']],
    ] as const) {
      if (table !== 'items' && event === 'update') continue;
      const fn = `${table}_listing_${event}`;
      const changed = rows.map(ownersOf).join(' union ');
      await sql
        .raw(
          `create function ${fn}() returns trigger language plpgsql as $$ begin
             insert into listing_versions (user_id, version)
               select distinct o.user_id, 1 from (${changed}) o where o.user_id in (select id from users)
             on conflict (user_id) do update set version = listing_versions.version + 1;
             return null;
           end $$`,
        )
        .execute(db);
      const referencing = rows.map((r) => `${r === 'new_rows' ? 'new' : 'old'} table as ${r}`).join(' ');
      await sql
        .raw(
          `create trigger ${fn} after ${event} on ${table} referencing ${referencing}
           for each statement execute function ${fn}()`,
        )
        .execute(db);
    }
  }
}
