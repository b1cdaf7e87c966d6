import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * `scheduled_tasks`: one row per periodic task of the worker role. A worker runs a task only after
 * claiming its row with a conditional update (due, and no live claim), so however many workers run,
 * each period runs once. `project_renders.job_id` names the job of a render, so the stuck-render
 * sweep can tell a render whose job waits or runs from one whose job was lost or gave up.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .createTable('scheduled_tasks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('next_run_at', ts, (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_until', ts)
    .execute();
  await db.schema.alterTable('project_renders').addColumn('job_id', 'text').execute();
  await db.schema
    .createIndex('project_renders_status_index')
    .on('project_renders')
    .columns(['status', 'updated_at'])
    .execute();
}
