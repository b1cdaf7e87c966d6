import {
  infiniteQueryOptions,
  useInfiniteQuery,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import {
  filesKeys,
  listingKey,
  type FileItem,
  type ItemPage,
  type Listing,
  type ListingPageAt,
  type SortOrder,
} from './files-api';
import type { FileSource } from './file-source';

type ListingData = InfiniteData<ItemPage, ListingPageAt>;

const LISTING_FRESH_MS = 2_000;

/** Every listing of one source (all folders, all sort orders) starts with this key. */
type ListingsKey = readonly unknown[];

/** How one listing is fetched and cached, a page at a time: for the screen and for an early first page. */
export function listingQuery(source: FileSource, listing: Listing, order: SortOrder) {
  return infiniteQueryOptions({
    queryKey: listingKey(source.keys.listings, listing, order),
    queryFn: ({ pageParam, signal }) => source.fetchListingPage(listing, order, pageParam, signal),
    initialPageParam: { page: 1 } as ListingPageAt,
    // Changes arrive as they happen (the realtime channel, the app's own writes): a page fetched a
    // moment ago, as a cold load's early one is when the screen mounts, is not fetched again.
    staleTime: LISTING_FRESH_MS,
    getNextPageParam: (last: ItemPage): ListingPageAt | undefined =>
      last.meta.paginate.current_page < last.meta.paginate.last_page
        ? { page: last.meta.paginate.current_page + 1, cursor: last.meta.next_cursor ?? undefined }
        : undefined,
  });
}

/** One listing, fetched a page at a time as the user scrolls. */
export function useListing(source: FileSource, listing: Listing, order: SortOrder) {
  return useInfiniteQuery({
    ...listingQuery(source, listing, order),
    select: (data) => ({
      items: data.pages.flatMap((page) => page.data),
      root: data.pages[0]?.meta.root ?? null,
      total: data.pages[0]?.meta.paginate.total ?? 0,
    }),
  });
}

/** Rewrites every cached listing page of a source (all folders, all sort orders). */
export function updateCachedListings(
  queryClient: QueryClient,
  listingsKey: ListingsKey,
  update: (page: ItemPage, key: readonly unknown[], index: number) => ItemPage,
) {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: listingsKey })) {
    const data = query.state.data as ListingData | undefined;
    if (!data) continue;
    queryClient.setQueryData<ListingData>(query.queryKey, {
      ...data,
      pages: data.pages.map((page, index) => update(page, query.queryKey, index)),
    });
  }
}

/** Applies `change` to every cached copy of the items with these ids (rows and listing roots). */
export function patchCachedItems(
  queryClient: QueryClient,
  listingsKey: ListingsKey,
  ids: readonly string[],
  change: (item: FileItem) => FileItem,
) {
  const wanted = new Set(ids);
  updateCachedListings(queryClient, listingsKey, (page) => ({
    data: page.data.map((item) => (wanted.has(item.id) ? change(item) : item)),
    meta: {
      ...page.meta,
      root: page.meta.root && wanted.has(page.meta.root.id) ? change(page.meta.root) : page.meta.root,
    },
  }));
}

/** The cached copies of the items with these ids, where a listing holds them (a row or a listing's root). */
export function findCachedItems(
  queryClient: QueryClient,
  listingsKey: ListingsKey,
  ids: readonly string[],
): Map<string, FileItem> {
  const wanted = new Set(ids);
  const found = new Map<string, FileItem>();
  for (const query of queryClient.getQueryCache().findAll({ queryKey: listingsKey })) {
    for (const page of (query.state.data as ListingData | undefined)?.pages ?? [])
      for (const item of [...page.data, ...(page.meta.root ? [page.meta.root] : [])])
        if (wanted.has(item.id)) found.set(item.id, item);
  }
  return found;
}

/** Takes items out of every cached listing (after a move, delete or restore), keeping totals right. */
export function removeCachedItems(
  queryClient: QueryClient,
  listingsKey: ListingsKey,
  ids: readonly string[],
) {
  const gone = new Set(ids);
  updateCachedListings(queryClient, listingsKey, (page) => {
    const data = page.data.filter((item) => !gone.has(item.id));
    const removed = page.data.length - data.length;
    return {
      data,
      meta: { ...page.meta, paginate: { ...page.meta.paginate, total: page.meta.paginate.total - removed } },
    };
  });
}

/** Whether a cached listing's key (see listingKey) is the folder `folderId` of the source. */
const isFolderListing = (listingsKey: ListingsKey, key: readonly unknown[], folderId: string | null) =>
  key[listingsKey.length] === 'folder' && key[listingsKey.length + 1] === (folderId ?? 'all');

/**
 * A finished upload (section 4): the parent folder's item count rises wherever the folder is shown,
 * and the file joins the top of its folder's listing. A replaced file comes back under the id it
 * had: its rows take the new bytes' attributes where they stand, and its folder holds no more items.
 */
export function applyUploadedFile(queryClient: QueryClient, listingsKey: ListingsKey, file: FileItem) {
  if (findCachedItems(queryClient, listingsKey, [file.id]).has(file.id))
    patchCachedItems(queryClient, listingsKey, [file.id], () => file);
  else {
    const parentId = file.attributes.parent_id;
    if (parentId)
      patchCachedItems(queryClient, listingsKey, [parentId], (folder) => ({
        ...folder,
        attributes: { ...folder.attributes, items: (folder.attributes.items ?? 0) + 1 },
      }));
    addCachedItem(queryClient, listingsKey, file);
  }
  void queryClient.invalidateQueries({ queryKey: [...listingsKey, 'latest'] });
  void queryClient.invalidateQueries({ queryKey: filesKeys.storage });
}

/** Adds a new item (a folder made, a file uploaded) to the top of its parent's listings. */
export function addCachedItem(queryClient: QueryClient, listingsKey: ListingsKey, item: FileItem) {
  updateCachedListings(queryClient, listingsKey, (page, key, index) => {
    if (index !== 0 || !isFolderListing(listingsKey, key, item.attributes.parent_id)) return page;
    return {
      data: [item, ...page.data],
      meta: { ...page.meta, paginate: { ...page.meta.paginate, total: page.meta.paginate.total + 1 } },
    };
  });
}
