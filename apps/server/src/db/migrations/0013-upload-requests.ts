import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * Upload requests: a link through which someone without an account sends files into one folder of
 * the owner. Items made through a request carry its id, so its outsider is shown only those, never
 * what the folder held before. The status stored is `active`, `filling` or `filled`; `expired` is
 * read off `expires_at` on every call, so no job has to run for a request to stop at its time.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .createTable('upload_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('folder_id', 'text', (c) => c.notNull().references('items.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('email', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('filled_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  // The owner's list, newest first; a folder's permanent deletion looks its requests up.
  await db.schema
    .createIndex('upload_requests_user_id_index')
    .on('upload_requests')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('upload_requests_folder_id_index')
    .on('upload_requests')
    .column('folder_id')
    .execute();

  // No foreign key: a request removed with its folder leaves nothing behind that could reach the items.
  await db.schema.alterTable('items').addColumn('upload_request_id', 'text').execute();
  await db.schema
    .createIndex('items_upload_request_id_index')
    .on('items')
    .column('upload_request_id')
    .where(sql.ref('upload_request_id'), 'is not', null)
    .execute();
}
