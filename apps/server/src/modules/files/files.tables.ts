import type { Generated, Insertable, Selectable } from 'kysely';

export type ItemType = 'file' | 'folder';

/** Files and folders of one owner in one tree; `parent_id` null is the owner's root. */
export interface ItemsTable {
  id: string;
  user_id: string;
  parent_id: string | null;
  type: ItemType;
  name: string;
  /** The name lowercased (Unicode-aware, in the app) so sorting and search agree on both dialects. */
  sort_name: string;
  emoji: string | null;
  color: string | null;
  /** Detected from the bytes; null for folders. */
  mimetype: string | null;
  /** Bytes; 0 for folders. */
  size: Generated<number>;
  /** Where the bytes are; a random id, null for folders. */
  storage_key: string | null;
  deleted_at: string | null;
  /** The item whose deletion put this one in the trash (itself for an item deleted on its own). */
  trashed_by: string | null;
  /** The upload request the item was made through, if any (see migration 0013). */
  upload_request_id: string | null;
  /**
   * The name an item made through an upload request has for its outsider, and that name lowercased
   * as `sort_name` is (migration 0053): null on every other item.
   */
  outsider_name: string | null;
  outsider_sort_name: string | null;
  /** A file's current content (see migration 0035); null for folders. */
  content_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A file's bytes as stored: the current ones of an item, or those of one of its versions (migration 0035). */
export interface FileContentsTable {
  id: string;
  /** The owner of the item the bytes belong to: their quota holds them. */
  user_id: string;
  storage_key: string;
  size: number;
  mimetype: string | null;
  /** The bytes' SHA-256 in hex, where it was computed. */
  sha256: string | null;
  /** Who saved these bytes; null for an anonymous sender (a link's or an upload request's). */
  author_id: string | null;
  /**
   * How the bytes are stored (migration 0038): 'object', one object at `storage_key`; 'blocks', the
   * blocks `content_blocks` lists (then `storage_key` names no object).
   */
  layout: Generated<ContentLayout>;
  created_at: string;
}

export type ContentLayout = 'object' | 'blocks';

/** A content-defined chunk of an owner's bytes, stored once per owner and hash (migration 0038). */
export interface BlocksTable {
  id: string;
  user_id: string;
  /** SHA-256 of the bytes, lowercase hex. */
  sha256: string;
  size: number;
  /** The block's own object, a fresh key per row. */
  storage_key: string;
  /** 'deleting' once garbage collection chose it: it is never referenced again. */
  state: Generated<'live' | 'deleting'>;
  created_at: string;
  /** Last named by an upload (`missing`, `putBlock`): collection leaves recent ones alone. */
  touched_at: string;
  /**
   * How the object holds the bytes: as they are, raw deflate, or brotli (migration 0040; blocks
   * stored compressed before raw deflate). Blocks a file's current bytes name are kept as they are,
   * those only versions name compressed where that saves space (BlockPacker).
   */
  encoding: Generated<BlockEncoding>;
  /**
   * Bytes the object takes; null on blocks stored as they are that the block packer has not weighed
   * yet (then `size`: blocks written since, and those stored before 0040).
   */
  stored_size: number | null;
}

export type BlockEncoding = 'identity' | 'deflate-raw' | 'br';

/** The blocks of a `blocks` content, in order. */
export interface ContentBlocksTable {
  content_id: string;
  position: number;
  block_id: string;
  /** Where the block starts in the content's bytes. */
  offset: number;
}

/** Bytes a file had before, kept: a row naming a content, never a copy of it. */
export interface FileVersionsTable {
  id: string;
  item_id: string;
  user_id: string;
  content_id: string;
  /** When the bytes stopped being the file's current ones. */
  created_at: string;
}

export interface FavouritesTable {
  user_id: string;
  item_id: string;
  created_at: string;
}

/**
 * One chunked upload in progress; its id is also the storage upload id. A reservation of quota for
 * files stored in one go (a render's outputs) is a session too, one that receives no chunks.
 */
export interface UploadSessionsTable {
  id: string;
  user_id: string;
  /** The client's key for the upload (the chunk's multipart filename): untrusted text, only compared. */
  client_key: string;
  received_bytes: number;
  part_count: number;
  /** Bytes held against the quota: the received ones plus whatever the chunk on its way reserved. */
  reserved_bytes: Generated<number>;
  /** Detected from the first chunk's bytes. */
  mimetype: string | null;
  /** The object the completion is writing; set before the parts become it (see migration 0010). */
  storage_key: string | null;
  created_at: string;
  updated_at: string;
}

/** The file a finished chunked upload became, by the client's key (see migration 0012). */
export interface FiledUploadsTable {
  user_id: string;
  client_key: string;
  item_id: string;
  filed_at: string;
}

/** What counts against an owner's quota (see migration 0010). */
export interface StorageUsageTable {
  user_id: string;
  /** The sizes of the owner's files, kept by triggers on items. */
  used_bytes: number;
  /** The sum of the owner's upload sessions' `reserved_bytes`. */
  reserved_bytes: number;
}

export interface ThumbnailsTable {
  item_id: string;
  size: string;
  storage_key: string;
  width: number;
  height: number;
}

/** A file whose thumbnails are owed: written with its thumbnail job, deleted by it (migration 0046). */
export interface ThumbnailRequestsTable {
  item_id: string;
  /** When its job was last enqueued; the sweep enqueues again a request left this long. */
  requested_at: string;
  /** Times the sweep enqueued the job again. */
  sweeps: Generated<number>;
}

/** Moved by triggers whenever a listing of the owner's items would change (see migration 0009). */
export interface ListingVersionsTable {
  user_id: string;
  version: number;
}

/** Live folders and files directly in each folder, `folder_key` '' the root; kept by triggers (migration 0036). */
export interface FolderCountsTable {
  user_id: string;
  folder_key: string;
  folders: number;
  files: number;
}

/**
 * A storage object whose rows are gone, waiting for the purge job (migration 0019): an item's bytes
 * and thumbnails deleted for good, or an account's everything.
 */
export interface StoragePurgesTable {
  purge_id: string;
  kind: 'object' | 'parts';
  key: string;
  /** Parts an unfinished upload had stored; 0 for an object. */
  part_count: number;
  created_at: string;
}

export type ItemRow = Selectable<ItemsTable>;
export type NewItem = Insertable<ItemsTable>;
export type UploadSessionRow = Selectable<UploadSessionsTable>;
export type NewUploadSession = Insertable<UploadSessionsTable>;
/** What a chunk or a completion records on its session. */
export type UploadSessionProgress = Partial<
  Pick<UploadSessionRow, 'received_bytes' | 'part_count' | 'mimetype' | 'storage_key'>
>;
export type ThumbnailRow = Selectable<ThumbnailsTable>;
export type ContentRow = Selectable<FileContentsTable>;
export type NewContent = Insertable<FileContentsTable>;
export type FiledUploadRow = Selectable<FiledUploadsTable>;
export type StoragePurgeRow = Selectable<StoragePurgesTable>;
export type BlockRow = Selectable<BlocksTable>;

declare module '../../db/schema' {
  interface DB {
    items: ItemsTable;
    favourites: FavouritesTable;
    upload_sessions: UploadSessionsTable;
    thumbnails: ThumbnailsTable;
    thumbnail_requests: ThumbnailRequestsTable;
    listing_versions: ListingVersionsTable;
    folder_counts: FolderCountsTable;
    storage_usage: StorageUsageTable;
    filed_uploads: FiledUploadsTable;
    file_contents: FileContentsTable;
    file_versions: FileVersionsTable;
    storage_purges: StoragePurgesTable;
    blocks: BlocksTable;
    content_blocks: ContentBlocksTable;
  }
}
