import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { bigInteger, timestamp } from './column-types';

/**
 * The block store (issue 24). A content is stored either as one object (`layout` 'object', what
 * every write files) or as a list of blocks (`layout` 'blocks', after the blockify job or a delta
 * upload): content-defined chunks of the owner's bytes, addressed by their SHA-256 and stored once
 * per owner. A `blocks` content keeps its unique `storage_key`, which then names no object.
 *
 * A block's row is `live` while it may be referenced; garbage collection marks unreferenced ones
 * `deleting` in one transaction, deletes their objects, then their rows. Only one live block per
 * owner and hash: a block being deleted never blocks an upload of the same bytes, which writes a new
 * row with a new key.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .alterTable('file_contents')
    .addColumn('layout', 'text', (c) => c.notNull().defaultTo('object'))
    .execute();
  // The sweep finds contents still stored as one object, oldest first.
  await db.schema
    .createIndex('file_contents_layout_index')
    .on('file_contents')
    .columns(['layout', 'created_at'])
    .execute();

  await db.schema
    .createTable('blocks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('live'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('touched_at', ts, (c) => c.notNull())
    .execute();
  await sql`create unique index blocks_live_hash_index on blocks (user_id, sha256) where state = 'live'`.execute(
    db,
  );
  // Collection looks for old untouched live blocks, and finishes those left `deleting`.
  await db.schema.createIndex('blocks_state_index').on('blocks').columns(['state', 'touched_at']).execute();

  await db.schema
    .createTable('content_blocks')
    .addColumn('content_id', 'text', (c) => c.notNull().references('file_contents.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('block_id', 'text', (c) => c.notNull().references('blocks.id'))
    .addColumn('offset', bigInteger(dialect), (c) => c.notNull())
    .addPrimaryKeyConstraint('content_blocks_pkey', ['content_id', 'position'])
    .execute();
  await db.schema.createIndex('content_blocks_block_index').on('content_blocks').column('block_id').execute();
}
