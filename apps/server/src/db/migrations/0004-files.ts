import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { bigInteger, timestamp } from './column-types';

/** Files and folders, favourites, chunked uploads in progress and thumbnails. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);

  await db.schema
    .createTable('items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('items.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort_name', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text')
    .addColumn('color', 'text')
    .addColumn('mimetype', 'text')
    .addColumn('size', bigInteger(dialect), (c) => c.notNull().defaultTo(0))
    .addColumn('storage_key', 'text', (c) => c.unique())
    .addColumn('deleted_at', ts)
    .addColumn('trashed_by', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  // Browsing a folder reads one page of live items of one type in one order: one index per sort
  // column, limited to live rows, so a page of a 10,000-item folder is an index range scan.
  for (const column of ['created_at', 'sort_name', 'size', 'updated_at']) {
    await db.schema
      .createIndex(`items_live_${column}_index`)
      .on('items')
      .columns(['user_id', 'parent_id', 'type', column, 'id'])
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
  }
  // Descendant walks (move checks, trash cascade, zips) follow parent_id whatever the state.
  await db.schema.createIndex('items_parent_id_index').on('items').column('parent_id').execute();
  await db.schema
    .createIndex('items_trashed_index')
    .on('items')
    .columns(['user_id', 'deleted_at'])
    .where(sql.ref('deleted_at'), 'is not', null)
    .execute();

  await db.schema
    .createTable('favourites')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull().references('items.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('favourites_pkey', ['user_id', 'item_id'])
    .execute();
  await db.schema.createIndex('favourites_item_id_index').on('favourites').column('item_id').execute();

  await db.schema
    .createTable('upload_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_key', 'text', (c) => c.notNull())
    .addColumn('received_bytes', bigInteger(dialect), (c) => c.notNull().defaultTo(0))
    .addColumn('part_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mimetype', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('upload_sessions_user_client_key_unique', ['user_id', 'client_key'])
    .execute();
  await db.schema
    .createIndex('upload_sessions_updated_at_index')
    .on('upload_sessions')
    .column('updated_at')
    .execute();

  await db.schema
    .createTable('thumbnails')
    .addColumn('item_id', 'text', (c) => c.notNull().references('items.id').onDelete('cascade'))
    .addColumn('size', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('thumbnails_pkey', ['item_id', 'size'])
    .execute();
}
