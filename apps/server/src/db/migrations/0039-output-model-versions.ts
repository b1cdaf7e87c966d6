import type { Kysely } from 'kysely';

/**
 * Which content (version) of its model an output was rendered from: the id of the bytes the render
 * read. No foreign key: when that version is let go the output still says it came from it, one no
 * longer kept. Outputs made before this are null (unknown).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('project_outputs').addColumn('model_content_id', 'text').execute();
}
