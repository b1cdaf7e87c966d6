import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/** Projects of the studio, their renders (one per input and category) and the outputs they made. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);

  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort_name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    // The inputs live in this folder of the owner's files, the outputs in a folder inside it.
    .addColumn('folder_id', 'text', (c) => c.references('items.id').onDelete('set null'))
    .addColumn('output_folder_id', 'text', (c) => c.references('items.id').onDelete('set null'))
    // The render category the project is set to (also in settings), as a column for the type filter.
    .addColumn('category_id', 'text')
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('projects_user_created_index')
    .on('projects')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('projects_folder_index').on('projects').column('folder_id').execute();

  await db.schema
    .createTable('project_renders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('input_id', 'text', (c) => c.references('items.id').onDelete('set null'))
    .addColumn('input_name', 'text', (c) => c.notNull())
    .addColumn('category_id', 'text', (c) => c.notNull())
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('project_renders_project_index')
    .on('project_renders')
    .columns(['project_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('project_renders_input_index')
    .on('project_renders')
    .columns(['input_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('project_outputs')
    .addColumn('item_id', 'text', (c) => c.primaryKey().references('items.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('render_id', 'text', (c) => c.references('project_renders.id').onDelete('set null'))
    .addColumn('kind', 'text', (c) => c.notNull())
    // The UTC day the output was made (YYYY-MM-DD): the gallery groups by it on both dialects alike.
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('project_outputs_user_day_index')
    .on('project_outputs')
    .columns(['user_id', 'day', 'created_at'])
    .execute();
  await db.schema
    .createIndex('project_outputs_project_day_index')
    .on('project_outputs')
    .columns(['project_id', 'day'])
    .execute();

  await db.schema
    .createTable('studio_defaults')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
}
