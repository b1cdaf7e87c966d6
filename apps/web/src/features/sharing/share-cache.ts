import type { ItemShare } from '@atelier/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { filesKeys } from '../files/files-api';
import { findCachedItems, patchCachedItems, updateCachedListings } from '../files/listing-cache';
import { teamsKeys } from '../teams/teams-api';
import { sharesApi, sharingKeys, type Share } from './sharing-api';

const sharedListings = [...filesKeys.listings, 'shared'] as const;
/** Where the owner's items are listed: My files, and the team folders they own. */
const ownerListings = [filesKeys.listings, teamsKeys.listings('owner')] as const;

function withShare<T extends { relationships: { shared: { data: ItemShare | null } } }>(
  item: T,
  share: ItemShare | null,
): T {
  return { ...item, relationships: { ...item.relationships, shared: { data: share } } };
}

/** A link was created or changed: every listing shows its new state, and My shared items reloads. */
export function applyItemShare(queryClient: QueryClient, itemId: string, share: ItemShare) {
  for (const listings of ownerListings)
    patchCachedItems(queryClient, listings, [itemId], (item) => withShare(item, share));
  void queryClient.invalidateQueries({ queryKey: sharedListings });
}

/**
 * The link an item was given elsewhere (another tab, another view) since it was listed: the
 * listings are read again, and the link they now show on the item is fetched; null if none does.
 */
export async function findItemShare(queryClient: QueryClient, itemId: string): Promise<Share | null> {
  await Promise.all(ownerListings.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  for (const listings of ownerListings) {
    const listed = findCachedItems(queryClient, listings, [itemId]).get(itemId);
    const token = listed?.relationships.shared.data?.token;
    if (token) return sharesApi.get(token);
  }
  return null;
}

/** Ends links; their items lose the badge everywhere and leave My shared items at once. */
export async function revokeShares(queryClient: QueryClient, tokens: readonly string[]) {
  await sharesApi.revoke(tokens);
  const gone = new Set(tokens);
  const revoked = (share: ItemShare | null) => share !== null && gone.has(share.token);
  for (const listings of ownerListings)
    updateCachedListings(queryClient, listings, (page, key) => {
      const shared = key[listings.length] === 'shared';
      const data = shared
        ? page.data.filter((item) => !revoked(item.relationships.shared.data))
        : page.data.map((item) => (revoked(item.relationships.shared.data) ? withShare(item, null) : item));
      const removed = page.data.length - data.length;
      return {
        data,
        meta: {
          ...page.meta,
          paginate: { ...page.meta.paginate, total: page.meta.paginate.total - removed },
        },
      };
    });
  for (const token of tokens) queryClient.removeQueries({ queryKey: sharingKeys.owned(token) });
}
