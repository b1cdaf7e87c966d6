import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/** The checks of each project's last built shop pack (issue 27), kept to show them again. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('project_shop_packs')
    .addColumn('project_id', 'text', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('images', 'text', (c) => c.notNull())
    .addColumn('built_at', timestamp(dialect), (c) => c.notNull())
    .execute();
}
