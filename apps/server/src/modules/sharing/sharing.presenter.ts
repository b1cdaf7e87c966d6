import {
  productPagePath,
  type OEmbedDocument,
  type ProductPageDocument,
  type PublicShareAttributes,
  type ShareExpiry,
  type ShareProduct,
  type ShareResource,
} from '@atelier/contracts';
import type { UserRow } from '../../db/schema';
import { escapeHtml } from '../../lib/escape-html';
import { fileUrl } from '../files/files.presenter';
import type { ProductPage } from '../projects/product-page.service';
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

/**
 * A link as its owner sees it, counters included; `product` names the project when the link shares
 * a project's folder (its link is then also a product page, with the codes that embed it).
 */
export function presentShare(share: ShareRow, appUrl: string, product: string | null): ShareResource {
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
      product: product === null ? null : presentShareProduct(appUrl, share.token, product),
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

/** A project's share as its product page: every file by its address through the share. */
export function presentProductPage(token: string, page: ProductPage): ProductPageDocument {
  const url = (id: string) => fileUrl(id, token);
  return {
    data: {
      id: token,
      type: 'product',
      attributes: {
        title: page.title,
        description: page.description,
        views: page.views.map((view) => ({
          variant: view.variant,
          stills: view.stills.map(url),
          spin: view.spin.map(url),
          glb: view.glb && url(view.glb),
          usdz: view.usdz && url(view.usdz),
        })),
      },
    },
  };
}

/** The size an embedded product page asks for: a square spin above a line of buttons. */
const EMBED_SIZE = { width: 640, height: 720 };

/** A product page's link as an oEmbed `rich` answer: its embedded page in an iframe, within the sizes asked. */
export function presentOEmbed(
  preview: SharePreview,
  token: string,
  site: { name: string; url: string },
  max: { width?: number; height?: number },
): OEmbedDocument {
  const width = Math.min(EMBED_SIZE.width, max.width ?? EMBED_SIZE.width);
  const height = Math.min(EMBED_SIZE.height, max.height ?? EMBED_SIZE.height);
  const src = `${site.url}${productPagePath(token, true)}`;
  return {
    version: '1.0',
    type: 'rich',
    title: preview.title,
    provider_name: site.name,
    provider_url: site.url,
    html: embedIframe(src, preview.title, width, height),
    width,
    height,
    ...(preview.image ? { thumbnail_url: preview.image } : {}),
  };
}

/** A product page's address, and its embed codes as the owner's share dialog offers them to copy. */
function presentShareProduct(appUrl: string, token: string, title: string): ShareProduct {
  return {
    link: `${appUrl}${productPagePath(token)}`,
    iframe: embedIframe(
      `${appUrl}${productPagePath(token, true)}`,
      title,
      EMBED_SIZE.width,
      EMBED_SIZE.height,
    ),
    script: `<script async src="${escapeHtml(`${appUrl}/embed.js`)}" data-product="${token}" data-title="${escapeHtml(title)}"></script>`,
  };
}

/** The iframe of an embedded product page, as oEmbed answers it and the owner's embed code shows it. */
export function embedIframe(src: string, title: string, width: number, height: number): string {
  return `<iframe src="${escapeHtml(src)}" title="${escapeHtml(title)}" width="${width}" height="${height}" style="border:0;max-width:100%" loading="lazy" allow="fullscreen; xr-spatial-tracking" allowfullscreen></iframe>`;
}
