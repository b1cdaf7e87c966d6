import type { PublicShareAttributes, ShareExpiry, ShareResource } from '@atelier/contracts';
import type { UserRow } from '../../db/schema';
import { escapeHtml } from '../../lib/escape-html';
import { presentAvatar } from '../users/users.presenter';
import type { ShareRow } from './sharing.tables';

/** A link's page as link previews show it; `image` is an absolute address. */
export interface SharePreview {
  title: string;
  url: string;
  image: string | null;
}

/** The address of a link's share page. */
export function shareLink(appUrl: string, token: string): string {
  return `${appUrl}/share/${token}`;
}

/** A link as its owner sees it, counters included. */
export function presentShare(share: ShareRow, appUrl: string): ShareResource {
  return {
    id: share.token,
    type: 'share',
    attributes: {
      token: share.token,
      permission: share.permission,
      protected: share.password_hash !== null,
      expire_in: share.expire_in as ShareExpiry,
      expires_at: share.expires_at,
      item_id: share.item_id,
      item_type: share.item_type,
      link: shareLink(appUrl, share.token),
      created_at: share.created_at,
      views: Number(share.views),
      downloads: Number(share.downloads),
    },
  };
}

/** A link as its visitors see it; the item's id only once they may open it. */
export function presentPublicShare(
  share: ShareRow,
  owner: Pick<UserRow, 'name' | 'avatar'>,
  unlocked: boolean,
): { id: string; type: 'share'; attributes: PublicShareAttributes } {
  return {
    id: share.token,
    type: 'share',
    attributes: {
      permission: share.permission,
      protected: share.password_hash !== null,
      item_type: share.item_type,
      expire_in: share.expire_in as ShareExpiry,
      expires_at: share.expires_at,
      owner: { name: owner.name, avatar: presentAvatar(owner.avatar) },
      ...(unlocked ? { item_id: share.item_id } : {}),
    },
  };
}

type MetaTag = readonly [attribute: 'property' | 'name', key: string, value: string];

/** OpenGraph (and Twitter card) tags of a link's page, for previews made without running the app. */
export function openGraphTags(preview: SharePreview, siteName: string): string {
  const tags: MetaTag[] = [
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', siteName],
    ['property', 'og:title', preview.title],
    ['property', 'og:url', preview.url],
  ];
  if (preview.image)
    tags.push(['property', 'og:image', preview.image], ['name', 'twitter:card', 'summary_large_image']);
  else tags.push(['name', 'twitter:card', 'summary']);
  return tags
    .map(([attribute, key, value]) => `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`)
    .join('');
}
