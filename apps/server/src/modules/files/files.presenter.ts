import {
  THUMBNAIL_SIZES,
  type ItemList,
  type ItemResource,
  type Paginate,
  type ThumbnailSize,
} from '@atelier/contracts';
import type { ItemView, Page } from './files.repository';

const SIZES = Object.keys(THUMBNAIL_SIZES) as ThumbnailSize[];

export function fileUrl(id: string): string {
  return `/file/${id}`;
}

export function thumbnailUrl(size: ThumbnailSize, id: string): string {
  return `/thumbnail/${size}/${id}`;
}

/** An item as the description's resource: attributes, and the parent, favourite and share relationships. */
export function presentItem(item: ItemView): ItemResource {
  const isFile = item.type === 'file';
  return {
    id: item.id,
    type: item.type,
    attributes: {
      name: item.name,
      parent_id: item.parent_id,
      items: isFile ? null : Number(item.items_count ?? 0),
      color: item.color,
      emoji: item.emoji,
      deleted_at: item.deleted_at,
      file_url: isFile ? fileUrl(item.id) : null,
      mimetype: item.mimetype,
      filesize: isFile ? Number(item.size) : null,
      thumbnail: item.has_thumbnail
        ? (Object.fromEntries(SIZES.map((s) => [s, thumbnailUrl(s, item.id)])) as Record<
            ThumbnailSize,
            string
          >)
        : null,
      created_at: item.created_at,
      updated_at: item.updated_at,
    },
    relationships: {
      folder: { data: item.parent_id ? { id: item.parent_id, type: 'folder' } : null },
      favourites: { data: item.is_favourite ? { id: item.id, type: 'favourite' } : null },
      shared: { data: null },
    },
  };
}

export function paginate(total: number, page: number, perPage: number): Paginate {
  return { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}

export function presentList(
  result: Page<ItemView>,
  root: ItemView | null,
  page: { page: number; per_page: number },
): ItemList {
  return {
    data: result.rows.map(presentItem),
    meta: {
      paginate: paginate(result.total, page.page, page.per_page),
      root: root ? presentItem(root) : null,
    },
  };
}
