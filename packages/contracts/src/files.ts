import { z } from 'zod';
import { SharePermission, StorageCategory } from './enums';
import { ListQuery, Paginate } from './resource';

/** Thumbnail sizes: the longest side in pixels of each webp the server makes for images and videos. */
export const THUMBNAIL_SIZES = { xs: 96, sm: 256, md: 640, lg: 1280 } as const;
export const ThumbnailSize = z.enum(['xs', 'sm', 'md', 'lg']);
export type ThumbnailSize = z.infer<typeof ThumbnailSize>;
export const THUMBNAIL_MIMETYPE = 'image/webp';

export const ItemType = z.enum(['file', 'folder']);
export type ItemType = z.infer<typeof ItemType>;

/** A file or folder name: no path separators, no control characters, not `.` or `..`. */
export const ItemName = z
  .string()
  .trim()
  .min(1, 'validation.required')
  .max(255, 'validation.name_too_long')
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  .regex(/^[^/\\\u0000-\u001f\u007f]+$/, 'validation.item_name')
  .refine((name) => name !== '.' && name !== '..', 'validation.item_name');

export const ItemEmoji = z.string().trim().max(32).nullable();
export const ItemColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'validation.color')
  .nullable();

/** A folder id, or `all` / anything that is not an id for the root. */
export const FolderRef = z.string().max(64).nullish();

/** A yes/no field as JSON or a form sends it; the string "false" stays false (z.coerce would make it true). */
export const Flag = z.union([
  z.boolean(),
  z.enum(['1', 'true']).transform(() => true),
  z.enum(['0', 'false', '']).transform(() => false),
  z.literal(1).transform(() => true),
  z.literal(0).transform(() => false),
]);

export const ItemRef = z.object({ id: z.string().max(64), type: ItemType });

export const CreateFolderBody = z.object({
  name: ItemName,
  emoji: ItemEmoji.optional(),
  color: ItemColor.optional(),
  parent_id: FolderRef,
});
export type CreateFolderBody = z.infer<typeof CreateFolderBody>;

export const RenameBody = z.object({
  name: ItemName,
  type: ItemType,
  emoji: ItemEmoji.optional(),
  color: ItemColor.optional(),
});
export type RenameBody = z.infer<typeof RenameBody>;

export const MoveBody = z.object({ to_id: FolderRef, items: z.array(ItemRef).min(1).max(1000) });
export type MoveBody = z.infer<typeof MoveBody>;

export const RemoveBody = z.object({
  items: z
    .array(ItemRef.extend({ force_delete: Flag.default(false) }))
    .min(1)
    .max(1000),
});
export type RemoveBody = z.infer<typeof RemoveBody>;

export const RestoreBody = z.object({
  to_home: Flag.default(false),
  items: z.array(ItemRef).min(1).max(1000),
});
export type RestoreBody = z.infer<typeof RestoreBody>;

export const FavouritesBody = z.object({ ids: z.array(z.string().max(64)).min(1).max(1000) });
export type FavouritesBody = z.infer<typeof FavouritesBody>;

/**
 * A folder's page: `page` as every list, or, with `cursor` (a page's `meta.next_cursor`, for the same
 * sort and direction), the items after that page's last, however the folder changed since; `page`
 * is then only reported back as `current_page`.
 */
export const FolderListQuery = ListQuery.extend({ cursor: z.string().max(1024).optional() });
export type FolderListQuery = z.infer<typeof FolderListQuery>;

export const SearchQuery = z.object({ query: z.string().trim().min(1).max(255) });

/** `GET /api/zip?items=id|type,id|type` */
export const ZipQuery = z.object({
  items: z
    .string()
    .min(1)
    .max(64 * 1001)
    .transform((value, ctx) => {
      const refs = value.split(',').map((pair) => {
        const [id = '', type = ''] = pair.split('|');
        return ItemRef.safeParse({ id, type });
      });
      if (refs.some((r) => !r.success) || refs.length > 1000) {
        ctx.addIssue({ code: 'custom', message: 'validation.zip_items' });
        return z.NEVER;
      }
      return refs.map((r) => r.data!);
    }),
});

export const ItemAttributes = z.object({
  name: z.string(),
  parent_id: z.string().nullable(),
  /** Folders: how many items are directly inside. Files: null. */
  items: z.number().int().nullable(),
  color: z.string().nullable(),
  emoji: z.string().nullable(),
  deleted_at: z.string().nullable(),
  /**
   * For shares: the item a share link shares. The owner sees the item's own id while it has a link;
   * a visitor who came through a link sees the linked item's, on it and on everything inside it.
   * Null otherwise.
   */
  item_id: z.string().nullable(),
  /** Files: where the bytes are served (`?download=1` for an attachment). Folders: null. */
  file_url: z.string().nullable(),
  mimetype: z.string().nullable(),
  /** Bytes; null for folders. */
  filesize: z.number().nullable(),
  /** Thumbnail URL per size, once the background step made them; null otherwise. */
  thumbnail: z.record(ThumbnailSize, z.string()).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ItemAttributes = z.infer<typeof ItemAttributes>;

/** The link of a shared item as listings carry it (`relationships.shared.data`). */
export const ItemShare = z.object({
  token: z.string(),
  permission: SharePermission,
  protected: z.boolean(),
  /** The link's lifetime in hours (one of SHARE_EXPIRY_HOURS); null when it never expires. */
  expire_in: z.number().int().nullable(),
});
export type ItemShare = z.infer<typeof ItemShare>;

export const ItemResource = z.object({
  id: z.string(),
  type: ItemType,
  attributes: ItemAttributes,
  relationships: z.object({
    /** The parent folder; null at the root. */
    folder: z.object({ data: z.object({ id: z.string(), type: z.literal('folder') }).nullable() }),
    /** Set when the viewer marked the item as a favourite. */
    favourites: z.object({ data: z.object({ id: z.string(), type: z.literal('favourite') }).nullable() }),
    /** The item's public link; null while the item is not shared. */
    shared: z.object({ data: ItemShare.nullable() }),
  }),
});
export type ItemResource = z.infer<typeof ItemResource>;

export const ItemDocument = z.object({ data: ItemResource });
export type ItemDocument = z.infer<typeof ItemDocument>;

export const ItemList = z.object({
  data: z.array(ItemResource),
  meta: z.object({
    paginate: Paginate,
    root: ItemResource.nullable(),
    /**
     * Folder listings: the `cursor` of the page after this one (null when this page is not full);
     * other lists leave it out.
     */
    next_cursor: z.string().nullable().optional(),
  }),
});
export type ItemList = z.infer<typeof ItemList>;

/** `GET /api/search`: the spotlight's matches, folders first. */
export const SearchResults = z.object({ data: z.array(ItemResource) });
export type SearchResults = z.infer<typeof SearchResults>;

/** One folder of the navigation tree with the folders inside it. */
export interface FolderNode {
  id: string;
  name: string;
  emoji: string | null;
  color: string | null;
  folders: FolderNode[];
}
export const FolderNode: z.ZodType<FolderNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    emoji: z.string().nullable(),
    color: z.string().nullable(),
    folders: z.array(FolderNode),
  }),
);
export const NavigationTree = z.object({ data: z.array(FolderNode) });
export type NavigationTree = z.infer<typeof NavigationTree>;

/** Storage usage by category, largest first; `empty` is the free share of a limited capacity. */
export const StorageUsage = z.object({
  data: z.object({
    used: z.number(),
    /** Bytes the user may store; null when unlimited. */
    capacity: z.number().nullable(),
    /** Of the capacity, or of the used total when unlimited (whole percent). */
    percentage: z.number(),
    categories: z.array(
      z.object({
        category: z.union([StorageCategory, z.literal('empty')]),
        used: z.number(),
        percentage: z.number(),
      }),
    ),
  }),
});
export type StorageUsage = z.infer<typeof StorageUsage>;
