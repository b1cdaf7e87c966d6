import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/** The durable job queue of the embedded shape (the database queue driver). */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stalls', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_at', ts, (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('lease_expires_at', ts)
    .addColumn('last_error', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('finished_at', ts)
    .execute();
  // The claim query scans due jobs and expired leases; both lead with status.
  await db.schema.createIndex('jobs_status_run_at_index').on('jobs').columns(['status', 'run_at']).execute();
  await db.schema
    .createIndex('jobs_status_lease_index')
    .on('jobs')
    .columns(['status', 'lease_expires_at'])
    .execute();
}
