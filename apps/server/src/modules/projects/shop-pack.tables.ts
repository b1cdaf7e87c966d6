import type { Selectable } from 'kysely';

/** The last shop pack built of each project: what each image's checker found, shown on its page. */
export interface ProjectShopPacksTable {
  project_id: string;
  user_id: string;
  /** JSON of the ShopPackImage list of contracts. */
  images: string;
  built_at: string;
}

export type ShopPackRow = Selectable<ProjectShopPacksTable>;

declare module '../../db/schema' {
  interface DB {
    project_shop_packs: ProjectShopPacksTable;
  }
}
