import type { ThumbnailSize } from '@atelier/contracts';
import {
  fetchListingPage,
  fetchNavigation,
  fileUrl,
  filesApi,
  filesKeys,
  searchItems,
  zipUrl,
  type FileItem,
  type ItemPage,
  type ItemRef,
  type Listing,
  type ListingPageAt,
  type SortOrder,
  type TreeFolder,
} from './files-api';
import { thumbnailUrl } from './item-kind';

export interface FolderChanges {
  name: string;
  emoji?: string | null;
  color?: string | null;
}

/** Where an item's bytes are read: its file, its thumbnails, zips of a selection. */
export interface ItemBytes {
  fileUrl(item: FileItem, download?: boolean): string;
  thumbnailUrl(item: FileItem, size: ThumbnailSize): string | null;
  zipUrl(items: readonly ItemRef[]): string;
}

/** Where a file's versions are listed, read, restored and deleted (the owner's calls, or a link's). */
export interface VersionAddresses {
  /** The cache key of one file's versions. */
  key(fileId: string): readonly unknown[];
  list(fileId: string): string;
  /** One version's bytes; `download` asks for an attachment. Its DELETE deletes it. */
  version(fileId: string, versionId: string, download?: boolean): string;
  restore(fileId: string, versionId: string): string;
  /** Calls without an account session (a link's): a 401 or 403 is the call's, not the session's. */
  anonymous: boolean;
}

/** The signed-in person's calls, for their own files and the team folders they are a member of. */
export const accountVersions: VersionAddresses = {
  key: (fileId) => ['files', 'versions', fileId],
  list: (fileId) => `/api/files/${fileId}/versions`,
  version: (fileId, versionId, download = false) =>
    `/api/files/${fileId}/versions/${versionId}${download ? '?download=1' : ''}`,
  restore: (fileId, versionId) => `/api/files/${fileId}/versions/${versionId}/restore`,
  anonymous: false,
};

/** Looking items up by name across a whole source (the spotlight). */
export interface SourceSearch {
  /** The cache key of one query's results. */
  key(query: string): readonly unknown[];
  /** The items whose name contains the query, folders first, as the browser sees them. */
  find(query: string, signal?: AbortSignal): Promise<FileItem[]>;
}

/**
 * Where a file browser's items come from and where its changes go: the owner's own files, a team
 * folder someone else owns, the inside of a share link, or what an upload request received. The
 * screens, lists, dialogs and upload queue are the same for all.
 */
export interface FileSource {
  /**
   * `owner`: the signed-in user's files (favourites, trash, share links, their restrictions apply);
   * `team`: a team folder of someone else's, as its member (the owner's restrictions apply, on the server).
   */
  kind: 'owner' | 'team' | 'share' | 'upload-request';
  /** Whether the viewer may create, upload, rename, move and delete here. */
  writable: boolean;
  /** The top (null) only lists folders (the team folders): nothing can be moved or dropped there. */
  topIsList?: boolean;
  /** Cache keys: every listing of the source starts with `listings`. */
  keys: { listings: readonly unknown[]; navigation: readonly unknown[] };
  fetchListingPage(
    listing: Listing,
    order: SortOrder,
    at: ListingPageAt,
    signal?: AbortSignal,
  ): Promise<ItemPage>;
  fetchNavigation(): Promise<TreeFolder[]>;
  createFolder(body: { name: string; emoji: string | null; parent_id: string | null }): Promise<FileItem>;
  rename(item: ItemRef, changes: FolderChanges): Promise<FileItem>;
  move(toId: string | null, items: readonly ItemRef[]): Promise<unknown>;
  remove(items: readonly ItemRef[], forceDelete: boolean): Promise<unknown>;
  /** Null where nothing can be read back (an upload request): no previews, downloads, zips or thumbnails. */
  bytes: ItemBytes | null;
  /** The screen that shows a folder (null: the top). */
  folderPath(id: string | null): string;
  upload: {
    endpoint: string;
    /** The parent_id an upload into `folderId` names (null: the top). */
    parentId(folderId: string | null): string | null;
    /** Sends the chunks (a token source watches the answers for a link that lapsed mid-upload). */
    fetch?: typeof fetch;
    /**
     * The delta upload's routes (signed-in places only): a replacement or a large file sends only the
     * blocks the server lacks. Absent: every file goes by the chunk form.
     */
    delta?: string;
  };
  /** An item as the server answered it, in the browser's terms (a file the upload queue stored). */
  normalise(item: FileItem): FileItem;
  /** Absent where the viewer may not look around (an upload request sees only what it sent). */
  search?: SourceSearch;
  /** A file's versions: read by whoever reads the file, restored and deleted where `writable`. */
  versions?: VersionAddresses;
}

/** Whether the source's screens sit in the signed-in frame, beside the sidebar (not a public page's). */
export function inAccountFrame(source: FileSource): boolean {
  return source.kind === 'owner' || source.kind === 'team';
}

/** A source the spotlight can search. */
export type SearchableSource = FileSource & { search: SourceSearch };

export const ownerSource: SearchableSource = {
  kind: 'owner',
  writable: true,
  keys: { listings: filesKeys.listings, navigation: filesKeys.navigation },
  fetchListingPage,
  fetchNavigation,
  createFolder: filesApi.createFolder,
  rename: filesApi.rename,
  move: filesApi.move,
  remove: filesApi.remove,
  bytes: { fileUrl, thumbnailUrl, zipUrl },
  folderPath: (id) => (id ? `/platform/files/${id}` : '/platform/files'),
  upload: { endpoint: '/api/upload/chunks', delta: '/api/upload/blocks', parentId: (folderId) => folderId },
  normalise: (item) => item,
  search: { key: filesKeys.search, find: searchItems },
  versions: accountVersions,
};
