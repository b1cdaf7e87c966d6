import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * When a render's current attempt started rendering: how long finished renders took is what the
 * studio's wait estimates are made of. Null while queued, and on renders made before this column.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('project_renders').addColumn('started_at', timestamp(dialect)).execute();
}
