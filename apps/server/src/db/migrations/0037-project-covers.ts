import type { Kysely } from 'kysely';

/** The still a project's card shows, when its owner chose one; the latest still otherwise. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('cover_item_id', 'text', (c) => c.references('items.id').onDelete('set null'))
    .execute();
}
