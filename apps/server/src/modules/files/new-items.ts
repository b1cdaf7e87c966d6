import { randomUUID } from 'node:crypto';
import type { NewContent, NewItem } from './files.tables';

/** Lowercased the same way for storage and for search, whatever the database's collation. */
export function sortNameOf(name: string): string {
  return name.normalize('NFC').toLocaleLowerCase('en');
}

/** Whose tree a new item goes into, and the upload request it came through, if any. */
export interface ItemOwner {
  readonly ownerId: string;
  readonly uploadRequestId?: string | null;
  /** Who is saving: null for an anonymous sender; left out, the owner (a render, a copy). */
  readonly userId?: string | null;
}

/**
 * The names a new item takes: its one name in its folder and, made through an upload request, the
 * name its outsider gave it, when that is another (the folder held the outsider's name already).
 */
export interface ItemNames {
  name: string;
  outsiderName?: string;
}

/** What is known of bytes already in storage that become a file. */
export interface StoredFile extends ItemNames {
  parentId: string | null;
  mimetype: string | null;
  size: number;
  storageKey: string;
  /** The item's creation time (the injected clock's, or a set's shared one). */
  now: string;
}

/** A new file: the item and the content it names, inserted together (the content first). */
export interface NewFile {
  item: NewItem;
  content: NewContent;
}

/**
 * The one shape of a new file item, for every way bytes become a file (uploads, renders, WebDAV
 * copies, remote uploads): its id, its sort name, its marks and its content are made here, never by
 * the caller.
 */
export function newFileItem(owner: ItemOwner, file: StoredFile): NewFile {
  const content = newContent(owner, file);
  return { content, item: newFileItemOf(owner, file, content.id) };
}

/** The item of a new file whose content is already recorded (a delta upload's, made by the block store). */
export function newFileItemOf(owner: ItemOwner, file: StoredFile, contentId: string): NewItem {
  return {
    ...newItemBase(owner, file.parentId, file, file.now),
    type: 'file',
    mimetype: file.mimetype,
    size: file.size,
    storage_key: file.storageKey,
    content_id: contentId,
  };
}

/** Bytes in storage that become a file's content, saved by the owner's `userId` (the owner when left out). */
export function newContent(
  owner: ItemOwner,
  bytes: Pick<StoredFile, 'storageKey' | 'size' | 'mimetype' | 'now'>,
): NewContent {
  return {
    id: randomUUID(),
    user_id: owner.ownerId,
    storage_key: bytes.storageKey,
    size: bytes.size,
    mimetype: bytes.mimetype,
    sha256: null,
    author_id: owner.userId === undefined ? owner.ownerId : owner.userId,
    created_at: bytes.now,
  };
}

/** A new folder item of the owner's tree, with the emoji and colour it was given. */
export function newFolderItem(
  owner: ItemOwner,
  parentId: string | null,
  names: ItemNames,
  now: string,
  look: { emoji?: string | null; color?: string | null } = {},
): NewItem {
  return {
    ...newItemBase(owner, parentId, names, now),
    type: 'folder',
    emoji: look.emoji ?? null,
    color: look.color ?? null,
    mimetype: null,
    storage_key: null,
  };
}

function newItemBase(owner: ItemOwner, parentId: string | null, names: ItemNames, now: string) {
  const outsiderName = owner.uploadRequestId ? (names.outsiderName ?? names.name) : null;
  return {
    id: randomUUID(),
    user_id: owner.ownerId,
    parent_id: parentId,
    name: names.name,
    sort_name: sortNameOf(names.name),
    emoji: null,
    color: null,
    deleted_at: null,
    trashed_by: null,
    upload_request_id: owner.uploadRequestId ?? null,
    outsider_name: outsiderName,
    outsider_sort_name: outsiderName && sortNameOf(outsiderName),
    created_at: now,
    updated_at: now,
  };
}
