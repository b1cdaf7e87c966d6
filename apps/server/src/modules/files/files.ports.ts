import type { SelectQueryBuilder, SqlBool } from 'kysely';
import type { DB } from '../../db/schema';
import type {
  ItemView,
  ListedFolder,
  ListingPage,
  Page,
  StoredBytes,
  StoredObject,
  SubtreeState,
} from './files.repository';
import type { ItemRow, ThumbnailRow } from './files.tables';

export type { ItemView, ListedFolder, ListingPage, Page, StoredBytes, StoredObject, SubtreeState };
export type { ShareLinkColumns, ShareLinkQueries, TeamFolderQueries } from './listing-sources';

/**
 * Told when a file takes new bytes and keeps the ones it had as a version (a replace through any
 * write path, or a version restored), inside that unit of work: what another module does then
 * (the studio's automatic re-render) commits or rolls back with the change.
 */
export interface BytesReplacedListener {
  bytesReplaced(file: ItemRow): Promise<void>;
}

/** The accounts an owner's rows name (the users module's). */
export interface AccountHolds {
  /**
   * Inside a unit of work: keeps the account from being deleted until the unit ends (the lock a row
   * naming the account takes anyway, taken first); false when it is gone.
   */
  holdAccount(userId: string): Promise<boolean>;
}

/**
 * Told inside the unit of work that deletes an owner's folders for good, before their rows go: what
 * another module keeps of them goes with them by foreign keys, but what it offered people about them
 * (the teams module's invitations, in their notifications) it takes back in the same unit.
 */
export interface FoldersDeletedListener {
  /** `folderIds`: every folder that goes, those below the deleted ones included; null: the owner's whole tree. */
  foldersDeleted(ownerId: string, folderIds: readonly string[] | null): Promise<void>;
}

/**
 * Told inside the unit of work that moves an owner's folders to the trash, or brings them back from
 * it: what another module offers people about them (the teams module's invitations, in their
 * notifications) cannot be taken up while they are in the trash, and is offered again when they return.
 */
export interface FoldersTrashedListener {
  /** `folderIds`: every folder that went to the trash with this change, those below included. */
  foldersTrashed(ownerId: string, folderIds: readonly string[]): Promise<void>;
  /** `folderIds`: every folder that came back with this change, those below included. */
  foldersRestored(ownerId: string, folderIds: readonly string[]): Promise<void>;
}

/**
 * What other modules read of the files module's items. The module hands its repository out only as
 * this port: no module outside modules/files imports files.repository.ts (eslint holds it) or names
 * its tables (test/architecture/module-tables.test.ts holds it), and every write goes through the
 * files services.
 */
export interface ItemReader {
  /** The owner's items of these ids (those that exist), in any state. */
  findMany(ownerId: string, ids: readonly string[]): Promise<ItemRow[]>;
  /** The owner's item, in any state. */
  findOne(ownerId: string, id: string): Promise<ItemRow | undefined>;
  /** Any item by id alone, to find whose tree a call names, and whether it is in the trash. */
  findAny(id: string): Promise<Pick<ItemRow, 'id' | 'user_id' | 'name' | 'deleted_at'> | undefined>;
  /**
   * Any item by id alone, read whole with what a page of it needs (the viewer's marks, its counts, its
   * owner's listing version), to find whose tree a folder page names and check the access on it.
   */
  findListed(id: string, viewerId: string): Promise<ListedFolder | undefined>;
  /** A file by id alone, for background jobs that act on behalf of its owner. */
  findFile(id: string): Promise<ItemRow | undefined>;
  /** The owner's item as lists show it. */
  findView(ownerId: string, id: string): Promise<ItemView | undefined>;
  /** The folder and every folder above it, nearest first. */
  ancestorIds(ownerId: string, folderId: string): Promise<string[]>;
  /** Which of these items are live below the folder, at any depth. */
  liveAmongBelow(ownerId: string, folderId: string, ids: readonly string[]): Promise<Set<string>>;
  /** Whether any object of files is stored (bytes, blocks, upload parts, bytes to delete), whoever owns them. */
  holdsAnyObject(): Promise<boolean>;
  /** The owner's team folders among these folders and the live folders below them. */
  teamFoldersWithin(ownerId: string, rootIds: readonly string[]): Promise<string[]>;
  thumbnailsOf(itemIds: readonly string[]): Promise<ThumbnailRow[]>;
  /**
   * The live files anywhere below a folder (none for no folder), leaving out the branches of the
   * folders `leaveOut`; newest first.
   */
  liveFilesBelow(
    ownerId: string,
    folderId: string | null,
    leaveOut: readonly string[],
    page?: { limit: number; offset: number },
  ): Promise<Page<ItemRow>>;
  /** The live item of that name in a folder (null: the root); folders first, then the oldest. */
  findLiveChild(ownerId: string, parentId: string | null, name: string): Promise<ItemRow | undefined>;
  /** The names from the owner's root down to the folder, the folder's own last. */
  namesDownTo(ownerId: string, folderId: string): Promise<string[]>;
  /** The owner's used bytes and their files' bytes per type, read together so that they agree. */
  usageByMimetype(ownerId: string): Promise<StoredBytes>;
  /** Every owner's used bytes together, and how many files there are: the instance's storage. */
  storageTotals(): Promise<{ used: number; files: number }>;
  /** What the owner's quota holds now: the files' bytes and the unfinished uploads' reservations. */
  heldBytes(ownerId: string): Promise<number>;
  /** The used bytes of each of these owners (0 for those without files), in one query. */
  usedBytesOf(ownerIds: readonly string[]): Promise<Map<string, number>>;
  /** A page of the owners another module's query names (selecting `id`), by used bytes, then by id. */
  ownersByUsage(
    owners: SelectQueryBuilder<DB, keyof DB, { id: string }>,
    direction: 'asc' | 'desc',
    page: { limit: number; offset: number },
  ): Promise<{ id: string; used: number }[]>;
  /**
   * Another module's rows naming an item of the owner (`item_id`), kept where the item is live and,
   * with `search` (a LIKE pattern), where its name matches or the row's `matched` is true; each with
   * the item's `item_sort_name`. The caller orders and cuts its page from this one query.
   */
  rowsWithLiveItem<O extends { item_id: string; matched: SqlBool }>(
    ownerId: string,
    rows: SelectQueryBuilder<DB, keyof DB, O>,
    search: string | null,
  ): SelectQueryBuilder<DB, keyof DB, O & { item_sort_name: string }>;
  /** How many live files each of the owner's upload requests (by id) brought, 0 for none. */
  liveFilesReceived(ownerId: string, uploadRequestIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * When each of these contents of the owner's files (a version's id is its content's) was saved;
   * contents no longer kept are left out.
   */
  contentsSavedAt(ownerId: string, contentIds: readonly string[]): Promise<Map<string, string>>;
  /**
   * What the live subtree of each folder holds, the folder included, for sync clients' folder ETags
   * (WebDAV): any write below a folder changes its `version` (see migration 0044).
   */
  subtreeStates(ownerId: string, folderIds: readonly string[]): Promise<Map<string, SubtreeState>>;
  /** The same for all the owner's live items: the subtree of their root. */
  rootState(ownerId: string): Promise<SubtreeState>;
  /** Which of the owner's items the viewer marked as favourites, and which have a share link. */
  syncMarksOf(
    ownerId: string,
    viewerId: string | null,
    itemIds: readonly string[],
  ): Promise<{ favourites: Set<string>; linked: Set<string> }>;
}
