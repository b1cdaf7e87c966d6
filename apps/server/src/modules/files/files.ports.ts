import type { ItemView, Page, StoredBytes, StoredObject } from './files.repository';
import type { ItemRow, ThumbnailRow } from './files.tables';

export type { ItemView, Page, StoredBytes, StoredObject };

/**
 * What other modules read of the files module's items. The module hands its repository out only as
 * this port: no module outside modules/files imports files.repository.ts (eslint holds it), and every
 * write goes through the files services.
 */
export interface ItemReader {
  /** The owner's items of these ids (those that exist), in any state. */
  findMany(ownerId: string, ids: readonly string[]): Promise<ItemRow[]>;
  /** The owner's item, in any state. */
  findOne(ownerId: string, id: string): Promise<ItemRow | undefined>;
  /** Any item by id alone, to find whose tree a call names. */
  findAny(id: string): Promise<Pick<ItemRow, 'id' | 'user_id'> | undefined>;
  /** A file by id alone, for background jobs that act on behalf of its owner. */
  findFile(id: string): Promise<ItemRow | undefined>;
  /** The owner's item as lists show it. */
  findView(ownerId: string, id: string): Promise<ItemView | undefined>;
  /** The folder and every folder above it, nearest first. */
  ancestorIds(ownerId: string, folderId: string): Promise<string[]>;
  thumbnailsOf(itemIds: readonly string[]): Promise<ThumbnailRow[]>;
  /**
   * The live files anywhere below a folder (none for no folder), leaving out the branch of the
   * folder `leaveOut`; newest first.
   */
  liveFilesBelow(
    ownerId: string,
    folderId: string | null,
    leaveOut: string | null,
    page?: { limit: number; offset: number },
  ): Promise<Page<ItemRow>>;
  /** The live item of that name in a folder (null: the root); folders first, then the oldest. */
  findLiveChild(ownerId: string, parentId: string | null, name: string): Promise<ItemRow | undefined>;
  /** Every live item in a folder, by name. */
  listLiveChildren(ownerId: string, parentId: string | null): Promise<ItemRow[]>;
  /** A page of the live items of a folder, by name then id, after the item `after` of the previous page. */
  liveChildrenPage(
    ownerId: string,
    parentId: string | null,
    after: Pick<ItemRow, 'sort_name' | 'id'> | null,
    limit: number,
  ): Promise<ItemRow[]>;
  /** The names from the owner's root down to the folder, the folder's own last. */
  namesDownTo(ownerId: string, folderId: string): Promise<string[]>;
  /** The owner's used bytes and their files' bytes per type, read together so that they agree. */
  usageByMimetype(ownerId: string): Promise<StoredBytes>;
  /** Every owner's used bytes together, and how many files there are: the instance's storage. */
  storageTotals(): Promise<{ used: number; files: number }>;
}
