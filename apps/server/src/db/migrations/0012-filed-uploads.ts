import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * Which file each finished chunked upload became, by the client's key, for as long as an unfinished
 * upload is kept (the upload sweep removes older rows). A client whose answer to the last chunk was
 * lost sends that chunk again with its offset; the upload session is gone by then, and this row lets
 * the server answer with the file instead of starting a second upload.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('filed_uploads')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_key', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull().references('items.id').onDelete('cascade'))
    .addColumn('filed_at', timestamp(dialect), (c) => c.notNull())
    .addPrimaryKeyConstraint('filed_uploads_pkey', ['user_id', 'client_key'])
    .execute();
  // Deleting files checks this table through the foreign key; the sweep reads by age.
  await db.schema.createIndex('filed_uploads_item_id_index').on('filed_uploads').column('item_id').execute();
  await db.schema
    .createIndex('filed_uploads_filed_at_index')
    .on('filed_uploads')
    .column('filed_at')
    .execute();
}
