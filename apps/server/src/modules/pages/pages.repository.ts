import type { Database } from '../../db/database';
import type { PageRow, PagesTable } from '../../db/schema';

export class PagesRepository {
  constructor(private readonly database: Database) {}

  list(): Promise<PageRow[]> {
    return this.database.db.selectFrom('pages').selectAll().orderBy('title').execute();
  }

  find(slug: string): Promise<PageRow | undefined> {
    return this.database.db.selectFrom('pages').selectAll().where('slug', '=', slug).executeTakeFirst();
  }

  /** False when a page has that slug already. */
  async insert(row: PagesTable): Promise<boolean> {
    const inserted = await this.database.db
      .insertInto('pages')
      .values(row)
      .onConflict((oc) => oc.column('slug').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  update(slug: string, changes: Partial<Omit<PagesTable, 'slug'>>): Promise<PageRow | undefined> {
    return this.database.db
      .updateTable('pages')
      .set(changes)
      .where('slug', '=', slug)
      .returningAll()
      .executeTakeFirst();
  }
}
