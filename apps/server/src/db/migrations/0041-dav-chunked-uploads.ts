import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { bigInteger, timestamp } from './column-types';

/**
 * The transfers of the sync clients' chunked uploads (`/remote.php/dav/uploads/{user}/{transfer}/`)
 * and the chunks each has received. A chunk's bytes are an object of their own in storage, held in
 * the user's quota until the transfer is assembled, deleted or swept.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  const big = bigInteger(dialect);
  await db.schema
    .createTable('dav_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** The client's name for the transfer folder. */
    .addColumn('name', 'text', (c) => c.notNull())
    /** Chunking v2: the Destination the MKCOL named, which every chunk repeats; null for v1. */
    .addColumn('destination', 'text')
    /** OC-Total-Length, when the client announced it. */
    .addColumn('total_length', big)
    .addColumn('created_at', ts, (c) => c.notNull())
    /** The last chunk received: a transfer untouched for a day is swept. */
    .addColumn('touched_at', ts, (c) => c.notNull())
    .addUniqueConstraint('dav_uploads_user_name_unique', ['user_id', 'name'])
    .execute();
  await db.schema
    .createIndex('dav_uploads_touched_at_index')
    .on('dav_uploads')
    .column('touched_at')
    .execute();

  await db.schema
    .createTable('dav_upload_chunks')
    .addColumn('upload_id', 'text', (c) => c.notNull().references('dav_uploads.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', big, (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('dav_upload_chunks_pkey', ['upload_id', 'name'])
    .execute();
}
