import type { ItemShare } from '@atelier/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { filesKeys } from '../files/files-api';
import { patchCachedItems, updateCachedListings } from '../files/listing-cache';
import { sharesApi, sharingKeys } from './sharing-api';

const sharedListings = [...filesKeys.listings, 'shared'] as const;

function withShare<T extends { relationships: { shared: { data: ItemShare | null } } }>(
  item: T,
  share: ItemShare | null,
): T {
  return { ...item, relationships: { ...item.relationships, shared: { data: share } } };
}

/** A link was created or changed: every listing shows its new state, and My shared items reloads. */
export function applyItemShare(queryClient: QueryClient, itemId: string, share: ItemShare) {
  patchCachedItems(queryClient, filesKeys.listings, [itemId], (item) => withShare(item, share));
  void queryClient.invalidateQueries({ queryKey: sharedListings });
}

/** Ends links; their items lose the badge everywhere and leave My shared items at once. */
export async function revokeShares(queryClient: QueryClient, tokens: readonly string[]) {
  await sharesApi.revoke(tokens);
  const gone = new Set(tokens);
  const revoked = (share: ItemShare | null) => share !== null && gone.has(share.token);
  updateCachedListings(queryClient, filesKeys.listings, (page, key) => {
    const shared = key[filesKeys.listings.length] === 'shared';
    const data = shared
      ? page.data.filter((item) => !revoked(item.relationships.shared.data))
      : page.data.map((item) => (revoked(item.relationships.shared.data) ? withShare(item, null) : item));
    const removed = page.data.length - data.length;
    return {
      data,
      meta: { ...page.meta, paginate: { ...page.meta.paginate, total: page.meta.paginate.total - removed } },
    };
  });
  for (const token of tokens) queryClient.removeQueries({ queryKey: sharingKeys.owned(token) });
}
