import {
  THUMBNAIL_SIZES,
  type ItemList,
  type ItemShare,
  type ItemResource,
  type Paginate,
  type ThumbnailSize,
} from '@atelier/contracts';
import type { Actor } from './files.access';
import type { ItemView, Page } from './files.repository';
import type { ItemRow } from './files.tables';

/** Who an item is presented to: the addresses of its bytes depend on the way they came in. */
export type ItemViewer = Pick<Actor, 'shareToken' | 'uploadRequestId' | 'rootId'>;
const OWNER: ItemViewer = { shareToken: null, uploadRequestId: null, rootId: null };

const SIZES = Object.keys(THUMBNAIL_SIZES) as ThumbnailSize[];

/** Where a file's bytes are served; through the share link for whoever came through one. */
export function fileUrl(id: string, shareToken: string | null = null): string {
  return shareToken ? `/file/${id}/shared/${shareToken}` : `/file/${id}`;
}

export function thumbnailUrl(size: ThumbnailSize, id: string, shareToken: string | null = null): string {
  return shareToken ? `/thumbnail/${size}/${id}/shared/${shareToken}` : `/thumbnail/${size}/${id}`;
}

/**
 * The item's own link, for its owner only: whoever came through a link or a request, or is a team
 * member, sees none, so one way in never leads to another.
 */
function sharedLink(item: ItemView, viewer: ItemViewer): ItemShare | null {
  if (viewer.rootId !== null || !item.share_token || !item.share_permission) return null;
  return {
    token: item.share_token,
    permission: item.share_permission,
    protected: Boolean(item.share_protected),
    expire_in: item.share_expire_in ?? null,
  };
}

/** The item a share link shares, as `item_id` names it: the visitor's link, or the owner's own. */
function sharedItemId(item: ItemView, viewer: ItemViewer): string | null {
  if (viewer.shareToken !== null) return viewer.rootId;
  return sharedLink(item, viewer) ? item.id : null;
}

/**
 * The item's name as the viewer knows it: to an upload request's outsider, what the request made goes
 * by the name they gave it, never by the one the owner's folder gave it; anything else by its name.
 */
export function nameSeenBy(
  viewer: Pick<ItemViewer, 'uploadRequestId'>,
  item: Pick<ItemRow, 'name' | 'outsider_name' | 'upload_request_id'>,
): string {
  const gave = viewer.uploadRequestId !== null && item.upload_request_id === viewer.uploadRequestId;
  return gave ? (item.outsider_name ?? item.name) : item.name;
}

/**
 * An item as the description's resource: attributes, and the parent, favourite and share
 * relationships. An upload request's outsider gets no address of any bytes.
 */
export function presentItem(item: ItemView, viewer: ItemViewer = OWNER): ItemResource {
  const isFile = item.type === 'file';
  const { shareToken } = viewer;
  const readsBytes = viewer.uploadRequestId === null;
  return {
    id: item.id,
    type: item.type,
    attributes: {
      name: nameSeenBy(viewer, item),
      parent_id: item.parent_id,
      items: isFile ? null : Number(item.items_count ?? 0),
      color: item.color,
      emoji: item.emoji,
      deleted_at: item.deleted_at,
      item_id: sharedItemId(item, viewer),
      file_url: isFile && readsBytes ? fileUrl(item.id, shareToken) : null,
      mimetype: item.mimetype,
      filesize: isFile ? Number(item.size) : null,
      thumbnail:
        item.has_thumbnail && readsBytes
          ? (Object.fromEntries(SIZES.map((s) => [s, thumbnailUrl(s, item.id, shareToken)])) as Record<
              ThumbnailSize,
              string
            >)
          : null,
      created_at: item.created_at,
      updated_at: item.updated_at,
    },
    relationships: {
      folder: { data: item.parent_id ? { id: item.parent_id, type: 'folder' } : null },
      // The owner's marks: a confined viewer (a link's visitor, a team member) has none on these items.
      favourites: {
        data: item.is_favourite && viewer.rootId === null ? { id: item.id, type: 'favourite' } : null,
      },
      shared: { data: sharedLink(item, viewer) },
    },
  };
}

export function paginate(total: number, page: number, perPage: number): Paginate {
  return { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}

/** A list's page; a folder's also carries `next_cursor` (null after a page that is not full). */
export function presentList(
  result: Page<ItemView>,
  root: ItemView | null,
  page: { page: number; per_page: number },
  viewer: ItemViewer = OWNER,
  nextCursor?: string | null,
): ItemList {
  return {
    data: result.rows.map((row) => presentItem(row, viewer)),
    meta: {
      paginate: paginate(result.total, page.page, page.per_page),
      root: root ? presentItem(root, viewer) : null,
      ...(nextCursor !== undefined ? { next_cursor: nextCursor } : {}),
    },
  };
}
