import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * The administration's two tables. `audit_log`: who changed what of whom, kept after either person
 * is deleted (names are copied in, no foreign keys). `storage_purges`: storage objects whose rows
 * are already gone (a deleted account's files, thumbnails, avatar, unfinished uploads), deleted by a
 * job in batches, so the request that deleted the rows stays quick and a failed run is retried.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('target_name', 'text')
    /** JSON text of what changed; never a secret. */
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_created_at_index').on('audit_log').column('created_at').execute();

  await db.schema
    .createTable('storage_purges')
    /** The deletion the objects belong to; one job drains one purge. */
    .addColumn('purge_id', 'text', (c) => c.notNull())
    /** `object` (a key) or `parts` (an unfinished chunked upload's id). */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    /** How many parts an unfinished upload had stored; 0 for an object. */
    .addColumn('part_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('storage_purges_pkey', ['purge_id', 'kind', 'key'])
    .execute();
}
