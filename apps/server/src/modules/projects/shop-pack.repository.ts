import type { Database } from '../../db/database';
import type { ShopPackRow } from './shop-pack.tables';

/** The last shop pack of each project; every query names the owner it reads. */
export class ShopPackRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  find(ownerId: string, projectId: string): Promise<ShopPackRow | undefined> {
    return this.db
      .selectFrom('project_shop_packs')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
  }

  save(row: ShopPackRow): Promise<ShopPackRow> {
    return this.db
      .insertInto('project_shop_packs')
      .values(row)
      .onConflict((conflict) =>
        conflict.column('project_id').doUpdateSet({ images: row.images, built_at: row.built_at }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}
