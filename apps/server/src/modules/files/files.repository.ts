import { sql, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/database';
import type { DB } from '../../db/schema';
import type {
  ItemRow,
  ItemType,
  NewItem,
  ThumbnailRow,
  UploadSessionRow,
  UploadSessionsTable,
} from './files.tables';

export type SortColumn = 'created_at' | 'sort_name' | 'size' | 'updated_at';

export interface PageRequest {
  sort: SortColumn;
  direction: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** An item as lists show it: the row plus what the presenter needs about its surroundings. */
export interface ItemView extends ItemRow {
  /** Children in the same state (live in live views, trashed in the trash). */
  items_count: number | null;
  is_favourite: SqlBool;
  has_thumbnail: SqlBool;
}

export interface Page<T> {
  rows: T[];
  total: number;
}

/** Items, favourites, upload sessions and thumbnails. Every query names the owner it reads. */
export class FilesRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  // ---- reading items -------------------------------------------------------------------------

  findMany(ownerId: string, ids: readonly string[]): Promise<ItemRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('items')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('id', 'in', ids)
      .execute();
  }

  findOne(ownerId: string, id: string): Promise<ItemRow | undefined> {
    return this.db
      .selectFrom('items')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** A file by id alone, for background jobs that act on behalf of its owner. */
  findFile(id: string): Promise<ItemRow | undefined> {
    return this.db
      .selectFrom('items')
      .selectAll()
      .where('id', '=', id)
      .where('type', '=', 'file')
      .executeTakeFirst();
  }

  findView(ownerId: string, id: string): Promise<ItemView | undefined> {
    return this.views(ownerId, 'live')
      .where('items.user_id', '=', ownerId)
      .where('items.id', '=', id)
      .executeTakeFirst();
  }

  /** One page of a live folder (null: the root), folders before files, each group in the asked order. */
  async listLive(ownerId: string, parentId: string | null, page: PageRequest): Promise<Page<ItemView>> {
    const inFolder = <O>(qb: SelectQueryBuilder<DB, 'items', O>) =>
      qb
        .where('items.user_id', '=', ownerId)
        .where('items.parent_id', parentId === null ? 'is' : '=', parentId)
        .where('items.deleted_at', 'is', null);

    const counts = await inFolder(this.db.selectFrom('items'))
      .select(['items.type', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('items.type')
      .execute();
    const folders = Number(counts.find((c) => c.type === 'folder')?.count ?? 0);
    const files = Number(counts.find((c) => c.type === 'file')?.count ?? 0);

    // Two ordered index range scans instead of one sort over the whole folder.
    const rows: ItemView[] = [];
    const pageOf = async (type: ItemType, limit: number, offset: number) => {
      // Deferred join: the offset is walked in the index alone, and only the page's rows are read whole.
      const ids = inFolder(this.db.selectFrom('items'))
        .select('items.id')
        .where('items.type', '=', type)
        .orderBy(`items.${page.sort}`, page.direction)
        .orderBy('items.id', page.direction)
        .limit(limit)
        .offset(offset);
      return this.views(ownerId, 'live')
        .where('items.id', 'in', ids)
        .orderBy(`items.${page.sort}`, page.direction)
        .orderBy('items.id', page.direction)
        .execute();
    };
    if (page.offset < folders) rows.push(...(await pageOf('folder', page.limit, page.offset)));
    const remaining = page.limit - rows.length;
    if (remaining > 0 && files > 0)
      rows.push(...(await pageOf('file', remaining, Math.max(0, page.offset - folders))));
    return { rows, total: folders + files };
  }

  /** The newest live files anywhere in the tree. */
  async listLatest(ownerId: string, page: PageRequest): Promise<Page<ItemView>> {
    const base = this.db
      .selectFrom('items')
      .where('items.user_id', '=', ownerId)
      .where('items.type', '=', 'file')
      .where('items.deleted_at', 'is', null);
    const { total } = await base
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = await this.views(ownerId, 'live')
      .where('items.user_id', '=', ownerId)
      .where('items.type', '=', 'file')
      .where('items.deleted_at', 'is', null)
      .orderBy('items.created_at', 'desc')
      .orderBy('items.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return { rows, total: Number(total) };
  }

  /** The trash: its top level (parentId null) is every item deleted on its own; inside, a trashed folder's children. */
  async listTrash(ownerId: string, parentId: string | null, page: PageRequest): Promise<Page<ItemView>> {
    const scope = <O>(qb: SelectQueryBuilder<DB, 'items', O>) => {
      const trashed = qb.where('items.user_id', '=', ownerId).where('items.deleted_at', 'is not', null);
      return parentId === null
        ? trashed.whereRef('items.trashed_by', '=', 'items.id')
        : trashed.where('items.parent_id', '=', parentId);
    };
    const { total } = await scope(this.db.selectFrom('items'))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = await scope(this.views(ownerId, 'trashed'))
      .orderBy('items.type', 'desc')
      .orderBy(`items.${page.sort}`, page.direction)
      .orderBy('items.id', page.direction)
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return { rows, total: Number(total) };
  }

  /** Live items whose name contains `text` (already lowercased), folders first. */
  search(ownerId: string, text: string, limit: number): Promise<ItemView[]> {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.views(ownerId, 'live')
      .where('items.user_id', '=', ownerId)
      .where('items.deleted_at', 'is', null)
      .where(sql<boolean>`items.sort_name like ${pattern} escape '\\'`)
      .orderBy('items.type', 'desc')
      .orderBy('items.sort_name', 'asc')
      .limit(limit)
      .execute();
  }

  /** Every live folder of the owner, for the navigation tree. */
  liveFolders(ownerId: string) {
    return this.db
      .selectFrom('items')
      .select(['id', 'parent_id', 'name', 'emoji', 'color', 'created_at'])
      .where('user_id', '=', ownerId)
      .where('type', '=', 'folder')
      .where('deleted_at', 'is', null)
      .orderBy('sort_name', 'asc')
      .execute();
  }

  findLiveFolderByName(ownerId: string, parentId: string | null, name: string): Promise<ItemRow | undefined> {
    return this.db
      .selectFrom('items')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('parent_id', parentId === null ? 'is' : '=', parentId)
      .where('type', '=', 'folder')
      .where('deleted_at', 'is', null)
      .where('name', '=', name)
      .orderBy('created_at', 'asc')
      .executeTakeFirst();
  }

  /** The items and everything below them, in any state, each once. */
  subtree(ownerId: string, rootIds: readonly string[]): Promise<ItemRow[]> {
    if (rootIds.length === 0) return Promise.resolve([]);
    return this.db
      .withRecursive('tree(id)', (db) =>
        db
          .selectFrom('items')
          .select('id')
          .where('user_id', '=', ownerId)
          .where('id', 'in', rootIds)
          .unionAll((db) =>
            db.selectFrom('items').innerJoin('tree', 'tree.id', 'items.parent_id').select('items.id'),
          ),
      )
      .selectFrom('items')
      .innerJoin('tree', 'tree.id', 'items.id')
      .selectAll('items')
      .execute();
  }

  /** The folder and every folder above it, nearest first. */
  async ancestorIds(ownerId: string, folderId: string): Promise<string[]> {
    const rows = await this.db
      .withRecursive('up(id, parent_id, depth)', (db) =>
        db
          .selectFrom('items')
          .select(['id', 'parent_id', sql<number>`0`.as('depth')])
          .where('user_id', '=', ownerId)
          .where('id', '=', folderId)
          .unionAll((db) =>
            db
              .selectFrom('items')
              .innerJoin('up', 'up.parent_id', 'items.id')
              .select(['items.id', 'items.parent_id', sql<number>`up.depth + 1`.as('depth')]),
          ),
      )
      .selectFrom('up')
      .select('id')
      .orderBy('depth', 'asc')
      .execute();
    return rows.map((r) => r.id);
  }

  // ---- changing items ------------------------------------------------------------------------

  insert(item: NewItem): Promise<ItemRow> {
    return this.db.insertInto('items').values(item).returningAll().executeTakeFirstOrThrow();
  }

  async update(
    ownerId: string,
    id: string,
    changes: Partial<Pick<ItemRow, 'name' | 'sort_name' | 'emoji' | 'color' | 'parent_id'>>,
  ): Promise<void> {
    await this.db
      .updateTable('items')
      .set({ ...changes, updated_at: new Date().toISOString() })
      .where('user_id', '=', ownerId)
      .where('id', '=', id)
      .execute();
  }

  async move(ownerId: string, ids: readonly string[], parentId: string | null): Promise<void> {
    await this.db
      .updateTable('items')
      .set({ parent_id: parentId, updated_at: new Date().toISOString() })
      .where('user_id', '=', ownerId)
      .where('id', 'in', ids)
      .execute();
  }

  /** Puts each root and its live descendants in the trash, remembering the root that took them there. */
  async trash(ownerId: string, rootId: string, descendantIds: readonly string[], now: string): Promise<void> {
    await this.db
      .updateTable('items')
      .set({ deleted_at: now, trashed_by: rootId })
      .where('user_id', '=', ownerId)
      .where('id', 'in', [rootId, ...descendantIds])
      .where('deleted_at', 'is', null)
      .execute();
  }

  async setTrashBatch(ownerId: string, ids: readonly string[], trashedBy: string): Promise<void> {
    await this.db
      .updateTable('items')
      .set({ trashed_by: trashedBy })
      .where('user_id', '=', ownerId)
      .where('id', 'in', ids)
      .execute();
  }

  /** Brings back the root and whatever was trashed with it, the root into `parentId`. */
  async restore(ownerId: string, rootId: string, parentId: string | null): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('items')
        .set({ parent_id: parentId })
        .where('user_id', '=', ownerId)
        .where('id', '=', rootId)
        .execute();
      await trx
        .updateTable('items')
        .set({ deleted_at: null, trashed_by: null })
        .where('user_id', '=', ownerId)
        .where('trashed_by', '=', rootId)
        .execute();
    });
  }

  trashedRootIds(ownerId: string): Promise<string[]> {
    return this.db
      .selectFrom('items')
      .select('id')
      .where('user_id', '=', ownerId)
      .where('deleted_at', 'is not', null)
      .whereRef('trashed_by', '=', 'id')
      .execute()
      .then((rows) => rows.map((r) => r.id));
  }

  /** Removes rows; their descendants, favourites and thumbnails rows go with them (foreign keys). */
  async deleteItems(ownerId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom('items').where('user_id', '=', ownerId).where('id', 'in', ids).execute();
  }

  // ---- usage -------------------------------------------------------------------------------

  async usedBytes(ownerId: string): Promise<number> {
    const { used } = await this.db
      .selectFrom('items')
      .select(sql<number>`coalesce(sum(size), 0)`.as('used'))
      .where('user_id', '=', ownerId)
      .where('type', '=', 'file')
      .executeTakeFirstOrThrow();
    return Number(used);
  }

  async bytesByMimetype(ownerId: string): Promise<{ mimetype: string | null; bytes: number }[]> {
    const rows = await this.db
      .selectFrom('items')
      .select(['mimetype', sql<number>`coalesce(sum(size), 0)`.as('bytes')])
      .where('user_id', '=', ownerId)
      .where('type', '=', 'file')
      .groupBy('mimetype')
      .execute();
    return rows.map((r) => ({ mimetype: r.mimetype, bytes: Number(r.bytes) }));
  }

  // ---- favourites --------------------------------------------------------------------------

  async addFavourites(userId: string, itemIds: readonly string[]): Promise<void> {
    if (itemIds.length === 0) return;
    const created_at = new Date().toISOString();
    await this.db
      .insertInto('favourites')
      .values(itemIds.map((item_id) => ({ user_id: userId, item_id, created_at })))
      .onConflict((oc) => oc.columns(['user_id', 'item_id']).doNothing())
      .execute();
  }

  /** The owner's listing version: read before a listing is built, so a cached copy is never older than its version. */
  async listingVersion(ownerId: string): Promise<number> {
    const row = await this.db
      .selectFrom('listing_versions')
      .select('version')
      .where('user_id', '=', ownerId)
      .executeTakeFirst();
    return Number(row?.version ?? 0);
  }

  async isFavourite(userId: string, itemId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('favourites')
      .select('item_id')
      .where('user_id', '=', userId)
      .where('item_id', '=', itemId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async removeFavourite(userId: string, itemId: string): Promise<void> {
    await this.db
      .deleteFrom('favourites')
      .where('user_id', '=', userId)
      .where('item_id', '=', itemId)
      .execute();
  }

  listFavourites(userId: string): Promise<ItemView[]> {
    return this.views(userId, 'live')
      .innerJoin('favourites', 'favourites.item_id', 'items.id')
      .where('favourites.user_id', '=', userId)
      .where('items.deleted_at', 'is', null)
      .orderBy('favourites.created_at', 'asc')
      .execute();
  }

  // ---- upload sessions ---------------------------------------------------------------------

  findUploadSession(userId: string, clientKey: string): Promise<UploadSessionRow | undefined> {
    return this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('client_key', '=', clientKey)
      .executeTakeFirst();
  }

  insertUploadSession(session: UploadSessionsTable): Promise<UploadSessionRow> {
    return this.db.insertInto('upload_sessions').values(session).returningAll().executeTakeFirstOrThrow();
  }

  async updateUploadSession(
    id: string,
    changes: Partial<Pick<UploadSessionRow, 'received_bytes' | 'part_count' | 'mimetype'>>,
  ): Promise<void> {
    await this.db
      .updateTable('upload_sessions')
      .set({ ...changes, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  async deleteUploadSession(id: string): Promise<void> {
    await this.db.deleteFrom('upload_sessions').where('id', '=', id).execute();
  }

  /** Bytes of the user's unfinished uploads, which count against the quota while they last. */
  async pendingUploadBytes(userId: string, exceptId: string): Promise<number> {
    const { bytes } = await this.db
      .selectFrom('upload_sessions')
      .select(sql<number>`coalesce(sum(received_bytes), 0)`.as('bytes'))
      .where('user_id', '=', userId)
      .where('id', '!=', exceptId)
      .executeTakeFirstOrThrow();
    return Number(bytes);
  }

  uploadSessionsIdleSince(before: string): Promise<UploadSessionRow[]> {
    return this.db.selectFrom('upload_sessions').selectAll().where('updated_at', '<', before).execute();
  }

  // ---- thumbnails --------------------------------------------------------------------------

  findThumbnail(itemId: string, size: string): Promise<ThumbnailRow | undefined> {
    return this.db
      .selectFrom('thumbnails')
      .selectAll()
      .where('item_id', '=', itemId)
      .where('size', '=', size)
      .executeTakeFirst();
  }

  thumbnailsOf(itemIds: readonly string[]): Promise<ThumbnailRow[]> {
    if (itemIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('thumbnails').selectAll().where('item_id', 'in', itemIds).execute();
  }

  async insertThumbnails(rows: readonly ThumbnailRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('thumbnails')
      .values([...rows])
      .onConflict((oc) => oc.columns(['item_id', 'size']).doNothing())
      .execute();
  }

  // ---- shared selections -------------------------------------------------------------------

  private views(viewerId: string, state: 'live' | 'trashed') {
    return this.db
      .selectFrom('items')
      .selectAll('items')
      .select((eb) => [childCount(eb, state), isFavourite(eb, viewerId), hasThumbnail(eb)]);
  }
}

/** Items directly inside a folder; files skip the count. */
function childCount(eb: ExpressionBuilder<DB, 'items'>, state: 'live' | 'trashed') {
  const count = eb
    .selectFrom('items as child')
    .select((e) => e.fn.countAll<number>().as('n'))
    .whereRef('child.user_id', '=', 'items.user_id')
    .whereRef('child.parent_id', '=', 'items.id')
    .where('child.deleted_at', state === 'live' ? 'is' : 'is not', null);
  return eb.case().when('items.type', '=', 'folder').then(count).end().as('items_count');
}

function isFavourite(eb: ExpressionBuilder<DB, 'items'>, viewerId: string) {
  return eb
    .exists(
      eb
        .selectFrom('favourites')
        .select(sql.lit(1).as('one'))
        .whereRef('favourites.item_id', '=', 'items.id')
        .where('favourites.user_id', '=', viewerId),
    )
    .as('is_favourite');
}

function hasThumbnail(eb: ExpressionBuilder<DB, 'items'>) {
  return eb
    .exists(
      eb
        .selectFrom('thumbnails')
        .select(sql.lit(1).as('one'))
        .whereRef('thumbnails.item_id', '=', 'items.id'),
    )
    .as('has_thumbnail');
}
