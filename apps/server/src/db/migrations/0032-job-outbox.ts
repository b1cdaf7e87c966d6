import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * `job_outbox`: jobs enqueued inside a unit of work while the queue is BullMQ. The row commits with
 * the unit's other writes; a process forwards it to Redis after the commit (and a worker's forwarder
 * picks up what a crash left), under the row's id as BullMQ job id, then deletes it. A forwarder
 * claims a row until `claimed_until`, so two forwarders never add it at once.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .createTable('job_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    /** JSON of the validated payload. */
    .addColumn('payload', 'text', (c) => c.notNull())
    /** JSON of the queue's options for the job (attempts, backoff). */
    .addColumn('options', 'text', (c) => c.notNull())
    /** Not run before this time (a delayed job). */
    .addColumn('run_at', ts, (c) => c.notNull())
    .addColumn('claimed_until', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('job_outbox_claimed_index').on('job_outbox').column('claimed_until').execute();
}
