import type {
  FolderNode,
  ItemList,
  ItemResource,
  ItemType,
  NavigationTree,
  SearchResults,
  StorageUsage,
} from '@atelier/contracts';
import { api, type RequestOptions } from '../../lib/api-client';

/** A file or folder as the browsing calls return it (section 3 of the description). */
export type FileItem = ItemResource;
export type ItemPage = ItemList;
/**
 * Which page of a listing to fetch: its number and, for a page after the first, the `next_cursor`
 * the page before gave, when it gave one (folder listings). A cursor's page is the items after the
 * previous page's last however the folder changed meanwhile, and costs the server no walk past
 * the pages before it; the number is reported back, and is what a listing without cursors reads.
 */
export interface ListingPageAt {
  page: number;
  cursor?: string;
}
export type TreeFolder = FolderNode;
export type { ItemType, StorageUsage };

export interface ItemRef {
  id: string;
  type: ItemType;
}

export type SortField = 'created_at' | 'name' | 'filesize' | 'updated_at';
export type SortDirection = 'asc' | 'desc';
export interface SortOrder {
  sort: SortField;
  direction: SortDirection;
}

/**
 * Which list a screen shows: a folder (null = home), the latest uploads, the favourites, the trash, or
 * the shared items.
 */
export type Listing =
  | { kind: 'folder'; id: string | null }
  | { kind: 'latest' }
  | { kind: 'favourites' }
  | { kind: 'trash'; id: string | null }
  | { kind: 'shared' };

export const LISTING_PAGE_SIZE = 100;

/** The cache key of one listing: the source's listings prefix, then the kind, the folder and the order. */
export function listingKey(listingsKey: readonly unknown[], listing: Listing, order: SortOrder) {
  return [
    ...listingsKey,
    listing.kind,
    'id' in listing ? (listing.id ?? 'all') : 'all',
    order.sort,
    order.direction,
  ] as const;
}

export const filesKeys = {
  all: ['files'] as const,
  listings: ['files', 'listing'] as const,
  navigation: ['files', 'navigation'] as const,
  search: (query: string) => ['files', 'search', query] as const,
  storage: ['files', 'storage'] as const,
};

function listingPath(listing: Listing): string {
  switch (listing.kind) {
    case 'folder':
      return `/api/browse/folders/${listing.id ?? 'all'}`;
    case 'trash':
      return `/api/browse/trash/${listing.id ?? 'all'}`;
    case 'latest':
      return '/api/browse/latest';
    case 'shared':
      return '/api/browse/share';
    case 'favourites':
      return '/api/browse/favourites';
  }
}

export async function fetchListingPage(
  listing: Listing,
  order: SortOrder,
  { page, cursor }: ListingPageAt,
  signal?: AbortSignal,
): Promise<ItemPage> {
  if (listing.kind === 'favourites') {
    // The favourites come whole, in the order they were starred: one page of them.
    const { data } = await api.get<SearchResults>(listingPath(listing), { signal });
    const paginate = { current_page: 1, per_page: data.length, total: data.length, last_page: 1 };
    return { data, meta: { root: null, paginate } };
  }
  return api.get<ItemPage>(listingPath(listing), {
    query: { sort: order.sort, direction: order.direction, page, per_page: LISTING_PAGE_SIZE, cursor },
    signal,
  });
}

export const fetchNavigation = () =>
  api.get<NavigationTree>('/api/browse/navigation').then((body) => body.data);

export const searchItems = (query: string, signal?: AbortSignal) =>
  api.get<SearchResults>('/api/search', { query: { query }, signal }).then((body) => body.data);

export const fetchStorage = () => api.get<StorageUsage>('/api/user/storage').then((body) => body.data);

const refs = (items: readonly ItemRef[]) => items.map(({ id, type }) => ({ id, type }));

/** How a change call treats a refusal (a team member's 403 refuses the action, not the session). */
type CallOptions = Pick<RequestOptions, 'handleUnauthorized'>;

export const filesApi = {
  createFolder: (
    body: { name: string; emoji: string | null; parent_id: string | null },
    options?: CallOptions,
  ) => api.post<{ data: FileItem }>('/api/create-folder', body, options).then((response) => response.data),
  rename: (
    item: ItemRef,
    changes: { name: string; emoji?: string | null; color?: string | null },
    options?: CallOptions,
  ) => {
    const body = { ...changes, type: item.type, _method: 'patch' };
    return api
      .post<{ data: FileItem }>(`/api/rename/${item.id}`, body, options)
      .then((answer) => answer.data);
  },
  move: (toId: string | null, items: readonly ItemRef[], options?: CallOptions) =>
    api.post('/api/move', { to_id: toId, items: refs(items) }, options),
  remove: (items: readonly ItemRef[], forceDelete: boolean, options?: CallOptions) =>
    api.post(
      '/api/remove',
      { items: items.map(({ id, type }) => ({ id, type, force_delete: forceDelete })) },
      options,
    ),
  restore: (items: readonly ItemRef[], toHome: boolean) =>
    api.post('/api/trash/restore', { to_home: toHome, items: refs(items) }),
  emptyTrash: () => api.post('/api/trash/dump', { _method: 'delete' }),
  addFavourites: (ids: readonly string[]) => api.post('/api/favourites', { ids }),
  removeFavourite: (id: string) => api.post(`/api/favourites/${id}`, { _method: 'delete' }),
};

/** The address that streams a file's bytes; `download` forces an attachment. */
export function fileUrl(item: FileItem, download = false): string {
  const base = item.attributes.file_url ?? `/file/${item.id}`;
  return download ? `${base}${base.includes('?') ? '&' : '?'}download=1` : base;
}

/** The `items` of a zip address: `id|type,id|type`. */
export function zipItems(items: readonly ItemRef[]): string {
  return items.map((item) => `${item.id}|${item.type}`).join(',');
}

/** GET /api/zip?items=id|type,id|type: one archive of any mix of files and folders. */
export function zipUrl(items: readonly ItemRef[]): string {
  return `/api/zip?items=${zipItems(items)}`;
}
