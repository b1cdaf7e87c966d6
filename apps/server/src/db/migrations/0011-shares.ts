import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { bigInteger, timestamp } from './column-types';

/**
 * Public links to a file or folder (one per item) and the sessions a link's password opens.
 *
 * Listings show each item's link (`relationships.shared`), so a change to what they show moves the
 * owner's listing version, as migration 0009 does for items, favourites and thumbnails. The
 * counters (views, downloads) are not shown in listings and move no version: a visitor reading a
 * share must not empty the owner's listing cache.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);

  await db.schema
    .createTable('shares')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull().unique().references('items.id').onDelete('cascade'))
    .addColumn('item_type', 'text', (c) => c.notNull())
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('password_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire_in', 'integer')
    .addColumn('expires_at', ts)
    .addColumn('views', bigInteger(dialect), (c) => c.notNull().defaultTo(0))
    .addColumn('downloads', bigInteger(dialect), (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  // My shared items lists one owner's links; housekeeping looks for links that expired long ago.
  await db.schema.createIndex('shares_user_id_index').on('shares').column('user_id').execute();
  await db.schema
    .createIndex('shares_expires_at_index')
    .on('shares')
    .column('expires_at')
    .where(sql.ref('expires_at'), 'is not', null)
    .execute();

  await db.schema
    .createTable('share_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token', 'text', (c) => c.notNull().references('shares.token').onDelete('cascade'))
    .addColumn('password_version', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_sessions_token_index').on('share_sessions').column('token').execute();
  await db.schema
    .createIndex('share_sessions_expires_at_index')
    .on('share_sessions')
    .column('expires_at')
    .execute();

  if (dialect === 'sqlite') await sqliteTriggers(db);
  else await postgresTriggers(db);
}

/** The columns a listing shows of a link. */
const LISTED = 'token, item_id, permission, password_hash, expire_in, expires_at';

const BUMP = (owner: string) =>
  `insert into listing_versions (user_id, version) select ${owner}, 1 where ${owner} in (select id from users)
   on conflict (user_id) do update set version = listing_versions.version + 1;`;

async function sqliteTriggers(db: Kysely<unknown>) {
  const triggers: [name: string, event: string, body: string][] = [
    ['shares_listing_insert', 'after insert on shares', BUMP('new.user_id')],
    ['shares_listing_update', `after update of ${LISTED} on shares`, BUMP('old.user_id')],
    ['shares_listing_delete', 'after delete on shares', BUMP('old.user_id')],
  ];
  for (const [name, event, body] of triggers)
    await sql.raw(`create trigger ${name} ${event} for each row begin ${body} end`).execute(db);
}

/**
 * Row triggers: PostgreSQL allows a column list only without transition tables, and links change
 * one at a time (a revoke of many is one bump per link, few in practice).
 */
async function postgresTriggers(db: Kysely<unknown>) {
  await sql
    .raw(
      `create function shares_listing_bump() returns trigger language plpgsql as $$
       declare share_owner text := case when tg_op = 'INSERT' then new.user_id else old.user_id end;
       begin ${BUMP('share_owner')} return null; end $$`,
    )
    .execute(db);
  for (const [event, name] of [
    ['insert', 'shares_listing_insert'],
    [`update of ${LISTED}`, 'shares_listing_update'],
    ['delete', 'shares_listing_delete'],
  ] as const) {
    await sql
      .raw(
        `create trigger ${name} after ${event} on shares for each row execute function shares_listing_bump()`,
      )
      .execute(db);
  }
}
