import type { SharePermission } from '@atelier/contracts';
import type { SelectQueryBuilder, SqlBool } from 'kysely';
import type { DB } from '../../db/schema';

/** An item's share link as listings show it: one row per item that has a link. */
export interface ShareLinkColumns {
  item_id: string;
  token: string;
  permission: SharePermission;
  /** Whether a password protects it. */
  protected: SqlBool;
  expire_in: number | null;
}

/**
 * What the files module reads of the sharing module's links, which only the sharing module names: as
 * queries the files module embeds in its own, so that a page of items with their links stays one
 * statement (test/architecture/module-tables.test.ts holds it).
 */
export interface ShareLinkQueries {
  /** Every link, one row per linked item. */
  linkColumns(): SelectQueryBuilder<DB, keyof DB, ShareLinkColumns>;
  /** The ids of the owner's items that have a link. */
  linkedItemIds(ownerId: string): SelectQueryBuilder<DB, keyof DB, { item_id: string }>;
}

/** What the files module reads of the teams module's team folders, as queries it embeds in its own. */
export interface TeamFolderQueries {
  /** The ids of the owner's folders that are team folders. */
  teamFolderIds(ownerId: string): SelectQueryBuilder<DB, keyof DB, { folder_id: string }>;
  /** The ids of the team folders, of any owner, the user is a member of. */
  memberFolderIds(userId: string): SelectQueryBuilder<DB, keyof DB, { folder_id: string }>;
  /** The same, with when the user joined each. */
  memberships(userId: string): SelectQueryBuilder<DB, keyof DB, { folder_id: string; joined_at: string }>;
}
