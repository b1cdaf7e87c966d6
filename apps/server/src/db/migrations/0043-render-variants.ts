import type { Kysely } from 'kysely';

/**
 * The colourway a render was asked for (JSON of the project's variant as it was then), so its
 * outputs are named and grouped by it even after the project's colourways change; null for a
 * render in the project's own finishes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('project_renders').addColumn('variant', 'text').execute();
}
