import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { timeOrderedId } from '../../lib/time-ordered-id';
import type { Database } from '../../db/database';
import type { ContentRow, ItemRow, NewContent } from './files.tables';
import { nameColumn } from './files.repository';

/** A content as a versions list shows it: its bytes and who saved them. */
export interface ContentView {
  id: string;
  storage_key: string;
  size: number;
  mimetype: string | null;
  created_at: string;
  /** Who saved the bytes (the users module names them); null for an anonymous sender or one gone. */
  author_id: string | null;
}

/** A kept version: the row, and the content it names. */
export interface VersionView extends ContentView {
  /** The version row's id (the content's is `content_id`). */
  version_id: string;
  content_id: string;
  /** When the bytes stopped being current. */
  replaced_at: string;
}

/** A version to let go of, with what its bytes hold. */
export interface DoomedVersion {
  id: string;
  user_id: string;
  item_id: string;
  content_id: string;
  storage_key: string;
  size: number;
  created_at: string;
}

/**
 * Files' contents and the versions that keep them. Every query names the owner it reads; the version
 * rows' triggers keep storage_usage (migration 0035).
 */
export class VersionsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  async insertContent(content: NewContent): Promise<void> {
    await this.db.insertInto('file_contents').values(content).execute();
  }

  /**
   * The file's current content. An item filed without one (by a path that predates contents) gets
   * one made from its own columns, once.
   */
  async currentContent(file: ItemRow): Promise<ContentRow> {
    if (file.content_id) {
      const found = await this.db
        .selectFrom('file_contents')
        .selectAll()
        .where('id', '=', file.content_id)
        .where('user_id', '=', file.user_id)
        .executeTakeFirst();
      if (found) return found;
    }
    const made: ContentRow = {
      id: randomUUID(),
      user_id: file.user_id,
      storage_key: file.storage_key!,
      size: Number(file.size),
      mimetype: file.mimetype,
      sha256: null,
      author_id: file.upload_request_id ? null : file.user_id,
      layout: 'object',
      created_at: file.updated_at,
    };
    await this.insertContent(made);
    await this.db
      .updateTable('items')
      .set({ content_id: made.id })
      .where('user_id', '=', file.user_id)
      .where('id', '=', file.id)
      .execute();
    return made;
  }

  /** The current content as the list shows it. */
  async viewOfContent(ownerId: string, contentId: string): Promise<ContentView | undefined> {
    return this.db
      .selectFrom('file_contents as c')
      .select(['c.id', 'c.storage_key', 'c.size', 'c.mimetype', 'c.created_at', 'c.author_id'])
      .where('c.user_id', '=', ownerId)
      .where('c.id', '=', contentId)
      .executeTakeFirst();
  }

  /** Keeps a content as a version of the item. */
  async keep(file: Pick<ItemRow, 'id' | 'user_id'>, contentId: string, at: string): Promise<void> {
    await this.db
      .insertInto('file_versions')
      .values({
        // Time-ordered, so versions kept within one tick of the clock still list newest first.
        id: timeOrderedId(),
        item_id: file.id,
        user_id: file.user_id,
        content_id: contentId,
        created_at: at,
      })
      .execute();
  }

  /**
   * Makes a content the file's current one, if the file still has the content it was read with; the
   * item's thumbnails (of the bytes it had) go, their keys returned. Null, changing nothing, when a
   * concurrent save or restore moved the file on since it was read.
   */
  async makeCurrent(
    file: ItemRow,
    content: Pick<NewContent, 'id' | 'storage_key' | 'size' | 'mimetype'>,
    at: string,
  ): Promise<string[] | null> {
    // First, so the row is locked (PostgreSQL) before anything else of the file is touched.
    const moved = await this.db
      .updateTable('items')
      .set({
        content_id: content.id,
        storage_key: content.storage_key,
        size: content.size,
        mimetype: content.mimetype ?? null,
        updated_at: at,
      })
      .where('user_id', '=', file.user_id)
      .where('id', '=', file.id)
      .where((eb) =>
        file.content_id === null ? eb('content_id', 'is', null) : eb('content_id', '=', file.content_id),
      )
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return null;
    const thumbnails = await this.db
      .deleteFrom('thumbnails')
      .where('item_id', '=', file.id)
      .returning('storage_key')
      .execute();
    return thumbnails.map((t) => t.storage_key);
  }

  /**
   * The names of the live items of a folder (null: the root) that start with `prefix`; `origin`: of
   * those made through that upload request, the names its outsider gave them.
   */
  async liveNamesStarting(
    ownerId: string,
    parentId: string | null,
    prefix: string,
    origin: string | null = null,
  ): Promise<Set<string>> {
    const column = nameColumn(origin);
    const rows = await this.db
      .selectFrom('items')
      .select((eb) => eb.ref(column).$castTo<string>().as('name'))
      .where('user_id', '=', ownerId)
      .where('parent_id', parentId === null ? 'is' : '=', parentId)
      .where('deleted_at', 'is', null)
      .$if(origin !== null, (q) => q.where('upload_request_id', '=', origin))
      // substr counts characters; a JavaScript length counts UTF-16 units (an emoji is two).
      .where(sql<string>`substr(${sql.ref(column)}, 1, ${[...prefix].length})`, '=', prefix)
      .execute();
    return new Set(rows.map((row) => row.name));
  }

  /** The item's versions, newest first. */
  list(ownerId: string, itemId: string): Promise<VersionView[]> {
    return this.versions(ownerId)
      .where('v.item_id', '=', itemId)
      .orderBy('v.created_at', 'desc')
      .orderBy('v.id', 'desc')
      .execute();
  }

  /** One of the item's versions, by its content's id (what the API calls the version's id). */
  find(ownerId: string, itemId: string, contentId: string): Promise<VersionView | undefined> {
    return this.versions(ownerId)
      .where('v.item_id', '=', itemId)
      .where('v.content_id', '=', contentId)
      .executeTakeFirst();
  }

  /** Removes the version row (its content stays until `deleteOrphanContents`). */
  /** Answers whether the version was there to remove (a concurrent restore or delete may have taken it). */
  async removeVersion(ownerId: string, versionId: string): Promise<boolean> {
    const removed = await this.db
      .deleteFrom('file_versions')
      .where('user_id', '=', ownerId)
      .where('id', '=', versionId)
      .executeTakeFirst();
    return Number(removed.numDeletedRows) > 0;
  }

  /** Deletes contents no item and no version names any more, answering their storage keys. */
  async deleteOrphanContents(ownerId: string, contentIds: readonly string[]): Promise<string[]> {
    if (contentIds.length === 0) return [];
    const gone = await this.db
      .deleteFrom('file_contents')
      .where('user_id', '=', ownerId)
      .where('id', 'in', contentIds)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('items').select('items.id').whereRef('items.content_id', '=', 'file_contents.id'),
          ),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('file_versions')
              .select('file_versions.id')
              .whereRef('file_versions.content_id', '=', 'file_contents.id'),
          ),
        ),
      )
      .returning('storage_key')
      .execute();
    return gone.map((row) => row.storage_key);
  }

  /** The contents (current and kept) of the items, for deleting their bytes with them. */
  async contentsOf(
    ownerId: string,
    itemIds: readonly string[],
  ): Promise<{ id: string; storage_key: string }[]> {
    if (itemIds.length === 0) return [];
    return this.db
      .selectFrom('file_contents as c')
      .select(['c.id', 'c.storage_key'])
      .where('c.user_id', '=', ownerId)
      .where((eb) =>
        eb.or([
          eb(
            'c.id',
            'in',
            eb
              .selectFrom('items')
              .select('content_id')
              .where('items.user_id', '=', ownerId)
              .where('items.id', 'in', itemIds),
          ),
          eb(
            'c.id',
            'in',
            eb
              .selectFrom('file_versions')
              .select('content_id')
              .where('file_versions.user_id', '=', ownerId)
              .where('file_versions.item_id', 'in', itemIds),
          ),
        ]),
      )
      .execute();
  }

  /** The storage keys of the owner's kept versions, for an account that goes. */
  async versionKeysOf(ownerId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('file_versions as v')
      .innerJoin('file_contents as c', 'c.id', 'v.content_id')
      .select('c.storage_key')
      .where('v.user_id', '=', ownerId)
      .execute();
    return rows.map((row) => row.storage_key);
  }

  /** Versions, of every owner, that became versions before `before`, newest first, after the version `after`. */
  newestBefore(before: string, limit: number, after: Pick<DoomedVersion, 'created_at' | 'id'> | null) {
    return this.doomed()
      .where('v.created_at', '<', before)
      .$if(after !== null, (q) =>
        q.where((eb) =>
          eb.or([
            eb('v.created_at', '<', after!.created_at),
            eb.and([eb('v.created_at', '=', after!.created_at), eb('v.id', '<', after!.id)]),
          ]),
        ),
      )
      .orderBy('v.created_at', 'desc')
      .orderBy('v.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** The owner's versions that became versions before `before`, of live or trashed files alike, oldest first. */
  oldestOf(ownerId: string, before: string, limit: number): Promise<DoomedVersion[]> {
    return this.doomed()
      .where('v.user_id', '=', ownerId)
      .where('v.created_at', '<', before)
      .orderBy('v.created_at')
      .orderBy('v.id')
      .limit(limit)
      .execute();
  }

  private doomed() {
    return this.db
      .selectFrom('file_versions as v')
      .innerJoin('file_contents as c', 'c.id', 'v.content_id')
      .select(['v.id', 'v.user_id', 'v.item_id', 'v.content_id', 'c.storage_key', 'c.size', 'v.created_at']);
  }

  private versions(ownerId: string) {
    return this.db
      .selectFrom('file_versions as v')
      .innerJoin('file_contents as c', 'c.id', 'v.content_id')
      .select([
        'v.id as version_id',
        'v.content_id',
        'v.created_at as replaced_at',
        'c.id',
        'c.storage_key',
        'c.size',
        'c.mimetype',
        'c.created_at',
        'c.author_id',
      ])
      .where('v.user_id', '=', ownerId);
  }
}
