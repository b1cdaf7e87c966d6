import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { bigInteger, timestamp } from './column-types';

/**
 * What sync clients need to find changes from a folder's ETag alone and to keep their files' times.
 *
 * `items.change_tag`: a random number each row takes anew with every insert and every update of
 * any column, set by triggers in the transaction of the write, whichever path makes it. A folder's
 * ETag is computed from the count and the sum of the tags of its live subtree (webdav.repository.ts):
 * a file added, changed, renamed, moved in or out, trashed or restored below it changes the sum, and
 * a write that is forgotten cannot exist. Nothing is stored per folder, so writers in one tree never
 * wait on each other's ancestors.
 *
 * `dav_file_meta`: the modification time a client stated for a file's bytes (X-OC-MTime) and the
 * checksums it sent with them (OC-Checksum), valid while the file keeps the content they were given
 * with: any other write of the file (the web, a restore, a render) makes them stale at once.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const fresh = dialect === 'sqlite' ? 'abs(random()) % 1000000000' : 'floor(random() * 1000000000)::bigint';
  await db.schema
    .alterTable('items')
    .addColumn('change_tag', bigInteger(dialect), (c) => c.notNull().defaultTo(0))
    .execute();
  await sql.raw(`update items set change_tag = ${fresh}`).execute(db);

  if (dialect === 'sqlite') {
    // Row triggers; the inner update names change_tag alone and triggers do not recurse.
    await sql
      .raw(
        `create trigger items_change_tag_insert after insert on items for each row
         begin update items set change_tag = ${fresh} where id = new.id; end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger items_change_tag_update after update on items for each row
         when new.change_tag = old.change_tag
         begin update items set change_tag = ${fresh} where id = new.id; end`,
      )
      .execute(db);
  } else {
    await sql
      .raw(
        `create function items_change_tag() returns trigger language plpgsql as $$ begin
           if tg_op = 'INSERT' or new.change_tag = old.change_tag then new.change_tag := ${fresh}; end if;
           return new;
         end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger items_change_tag before insert or update on items
         for each row execute function items_change_tag()`,
      )
      .execute(db);
  }

  await db.schema
    .createTable('dav_file_meta')
    .addColumn('item_id', 'text', (c) => c.primaryKey().references('items.id').onDelete('cascade'))
    /** The content the time and checksums were given with; another content makes them stale. */
    .addColumn('content_id', 'text', (c) => c.notNull())
    .addColumn('modified_at', timestamp(dialect))
    /** `SHA1:… MD5:…`, as the client sent them in OC-Checksum. */
    .addColumn('checksums', 'text')
    .execute();
}
