import type { Database } from '../../db/database';
import type { PageRow } from '../../db/schema';

export class PagesRepository {
  constructor(private readonly database: Database) {}

  findVisible(slug: string): Promise<PageRow | undefined> {
    return this.database.db
      .selectFrom('pages')
      .selectAll()
      .where('slug', '=', slug)
      .where('visibility', '=', 1)
      .executeTakeFirst();
  }
}
