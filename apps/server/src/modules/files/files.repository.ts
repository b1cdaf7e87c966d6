import type { SharePermission } from '@atelier/contracts';
import { sql, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, type Kysely } from 'kysely';
import type { Database } from '../../db/database';
import { preparedQuery } from '../../db/prepared-query';
import type { DB } from '../../db/schema';
import type {
  FiledUploadRow,
  ItemRow,
  ItemType,
  NewItem,
  NewUploadSession,
  ThumbnailRow,
  UploadSessionProgress,
  UploadSessionRow,
} from './files.tables';
import type { NewFile } from './new-items';
import type { ShareLinkColumns, ShareLinkQueries, TeamFolderQueries } from './listing-sources';

/** What a folder's live subtree holds (ItemReader.subtreeStates). */
export interface SubtreeState {
  /** Its rows' count and the sum of their change tags: moves with every write below the folder. */
  version: string;
  bytes: number;
}
export type SortColumn = 'created_at' | 'sort_name' | 'outsider_sort_name' | 'size' | 'updated_at';

/**
 * The column an item's name is read from by whoever reaches it through the upload request `origin`
 * (the name its outsider gave it), or by anyone else (null: the item's name in its folder).
 */
export function nameColumn(origin: string | null): 'name' | 'outsider_name' {
  return origin === null ? 'name' : 'outsider_name';
}

export interface PageRequest {
  sort: SortColumn;
  direction: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** Where a folder's page ends in its order: the last item's type, sort column's value and id. */
export interface ListingKey {
  type: ItemType;
  key: string | number;
  id: string;
}

/** A page of a folder, after an item of the previous page (a keyset page) or after `offset` items. */
export interface ListingPage extends Omit<PageRequest, 'offset'> {
  from: { offset: number } | { after: ListingKey };
}

/** What decides the text of a folder page's query (livePage): one compiled query each. */
interface LivePageShape {
  sort: SortColumn;
  direction: 'asc' | 'desc';
  /** After a key (a cursor's page), not after an offset. */
  keyset: boolean;
  /** The owner's root folder (no parent). */
  inRoot: boolean;
  /** Only what one upload request brought. */
  origin: boolean;
}

/** The values a folder page's query binds; those its shape does not use are ignored. */
// A type, not an interface: preparedQuery takes a record of values.
type LivePageValues = {
  ownerId: string;
  parentId: string | null;
  origin: string | null;
  type: ItemType;
  limit: number;
  offset: number;
  key: string | number | null;
  id: string | null;
};

/** A page of a folder with the folder's live folders and files. */
export interface FolderPage extends Page<ItemView> {
  folders: number;
  files: number;
}

/** An item as lists show it: the row plus what the presenter needs about its surroundings. */
export interface ItemView extends ItemRow {
  /** Children in the same state (live in live views, trashed in the trash). */
  items_count: number | null;
  is_favourite: SqlBool;
  has_thumbnail: SqlBool;
  /** The item's share link, when it has one (absent on rows read without it). */
  share_token?: string | null;
  share_permission?: SharePermission | null;
  share_protected?: SqlBool | null;
  share_expire_in?: number | null;
}

/** An item's marks as a viewer sees them (favourite, share link), without counting what it holds. */
export type ItemMarks = Pick<
  ItemView,
  'is_favourite' | 'share_token' | 'share_permission' | 'share_protected' | 'share_expire_in'
>;

/**
 * An item a folder page is asked of, with what the page needs of it, all read in one statement: the
 * viewer's marks, the live folders and files directly in it (as `folder_counts` keeps them), and its
 * owner's listing version, read at the same moment as the row, so a page built from the row is never
 * older than the version it is cached under.
 */
export interface ListedFolder extends ItemRow, ItemMarks {
  listing_version: number;
  folders: number;
  files: number;
}

export interface Page<T> {
  rows: T[];
  total: number;
}

/** What an owner's storage holds: `used` as the quota counts it, and their files' part of it by type. */
export interface StoredBytes {
  used: number;
  files: { mimetype: string | null; bytes: number }[];
}

/** A storage object rows name: a file's or a thumbnail's, or the parts an unfinished upload holds under its id. */
export interface StoredObject {
  kind: 'object' | 'parts';
  key: string;
  /** Parts an unfinished upload stored; 0 for an object. */
  partCount: number;
}

/** What listings read of other modules' tables, through those modules' queries. */
export interface ListingSources {
  shareLinks: ShareLinkQueries;
  teamFolders: TeamFolderQueries;
}

/** Items, favourites, upload sessions and thumbnails. Every query names the owner it reads. */
export class FilesRepository {
  constructor(
    private readonly database: Database,
    /** The app's clock: the rows' stamps (updated_at, a favourite's created_at) come from it. */
    private readonly now: () => Date,
    private readonly sources: ListingSources,
  ) {}

  private get db() {
    return this.database.db;
  }

  /** Every folder page reads its folder this way (the cached ones nothing else): compiled once. */
  private readonly listedFolder = preparedQuery((db, folder: { id: string; viewerId: string }) =>
    db
      .selectFrom('items')
      .leftJoin(this.sources.shareLinks.linkColumns().as('link'), 'link.item_id', 'items.id')
      .leftJoin('folder_counts', (join) =>
        join
          .onRef('folder_counts.user_id', '=', 'items.user_id')
          .onRef('folder_counts.folder_key', '=', 'items.id'),
      )
      .selectAll('items')
      .select((eb) => [
        isFavourite(eb, folder.viewerId),
        ...shareLink(eb),
        eb
          .selectFrom('listing_versions')
          .select('listing_versions.version')
          .whereRef('listing_versions.user_id', '=', 'items.user_id')
          .as('listing_version'),
        'folder_counts.folders',
        'folder_counts.files',
      ])
      .where('items.id', '=', folder.id),
  );

  /** A folder page's query for each shape of request, compiled once (see livePage). */
  private readonly livePages = new Map<string, ReturnType<typeof this.compileLivePage>>();

  /**
   * The items of one type on a page of a live folder, in the page's order: every first visit of a
   * folder page reads one or two, and Kysely building and compiling them cost about as much CPU as
   * SQLite reading the page (docs/performance.md), so each shape of request is compiled once.
   */
  private livePage(shape: LivePageShape) {
    const name = `${shape.sort} ${shape.direction} ${shape.keyset} ${shape.inRoot} ${shape.origin}`;
    let query = this.livePages.get(name);
    if (!query) this.livePages.set(name, (query = this.compileLivePage(shape)));
    return query;
  }

  private compileLivePage({ sort, direction, keyset, inRoot, origin }: LivePageShape) {
    return preparedQuery((db, page: LivePageValues) => {
      // Deferred join: the index alone finds the page's ids, and only those rows are read whole.
      const ids = db
        .selectFrom('items')
        .select('items.id')
        .where('items.user_id', '=', page.ownerId)
        .$if(inRoot, (q) => q.where('items.parent_id', 'is', null))
        .$if(!inRoot, (q) => q.where('items.parent_id', '=', page.parentId))
        .where('items.deleted_at', 'is', null)
        .$if(origin, (q) => q.where('items.upload_request_id', '=', page.origin))
        .where('items.type', '=', page.type)
        .$if(keyset, (q) =>
          q.where((eb) =>
            eb(
              eb.refTuple(`items.${sort}`, 'items.id'),
              direction === 'asc' ? '>' : '<',
              eb.tuple(page.key!, page.id!),
            ),
          ),
        )
        .orderBy(`items.${sort}`, direction)
        .orderBy('items.id', direction)
        .limit(page.limit)
        .$if(!keyset, (q) => q.offset(page.offset));
      return views(db, this.sources, page.ownerId, 'live', origin ? page.origin : null)
        .where('items.id', 'in', ids)
        .orderBy(`items.${sort}`, direction)
        .orderBy('items.id', direction);
    });
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

  /** Any item by id alone, to find whose tree a call names (the actor is decided from it). */
  findAny(id: string): Promise<Pick<ItemRow, 'id' | 'user_id' | 'name' | 'deleted_at'> | undefined> {
    return this.db
      .selectFrom('items')
      .select(['id', 'user_id', 'name', 'deleted_at'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /**
   * Any item by id alone, with its marks for `viewerId`, its counts and its owner's listing version
   * (ListedFolder): a folder page's actor is decided from it, and its access checked on it.
   */
  async findListed(id: string, viewerId: string): Promise<ListedFolder | undefined> {
    const [row] = await this.listedFolder(this.database, { id, viewerId });
    return (
      row && {
        ...row,
        listing_version: Number(row.listing_version ?? 0),
        folders: Number(row.folders ?? 0),
        files: Number(row.files ?? 0),
      }
    );
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

  /** `origin`: only what came through this upload request counts in a folder's items. */
  findView(ownerId: string, id: string, origin: string | null = null): Promise<ItemView | undefined> {
    return this.views(ownerId, 'live', origin)
      .where('items.user_id', '=', ownerId)
      .where('items.id', '=', id)
      .executeTakeFirst();
  }

  /**
   * One page of a live folder (null: the root), folders before files, each group in the asked order,
   * starting after an item (a keyset page) or after skipping `offset` items; `origin`: only the items
   * that came through this upload request. The folder's counts come from `folder_counts` (or `read`,
   * when they were read with the folder), so neither the total nor a keyset page walks the folder.
   */
  async listLive(
    ownerId: string,
    parentId: string | null,
    page: ListingPage,
    origin: string | null = null,
    read: { folders: number; files: number } | null = null,
  ): Promise<FolderPage> {
    const inFolder = <O>(qb: SelectQueryBuilder<DB, 'items', O>) =>
      qb
        .where('items.user_id', '=', ownerId)
        .where('items.parent_id', parentId === null ? 'is' : '=', parentId)
        .where('items.deleted_at', 'is', null)
        .$if(origin !== null, (q) => q.where('items.upload_request_id', '=', origin));
    const counts =
      origin === null
        ? (read ?? (await this.folderCounts(ownerId, parentId)))
        : await inFolder(this.db.selectFrom('items'))
            .select([
              sql<number>`sum(case when items.type = 'folder' then 1 else 0 end)`.as('folders'),
              sql<number>`sum(case when items.type = 'file' then 1 else 0 end)`.as('files'),
            ])
            .executeTakeFirstOrThrow();
    const folders = Number(counts.folders ?? 0);
    const files = Number(counts.files ?? 0);

    // Two ordered index range scans (folders, then files) instead of one sort over the whole folder.
    const pageOf = (type: ItemType, limit: number, from: { offset: number } | { after: ListingKey }) => {
      const after = 'after' in from ? from.after : null;
      const shape: LivePageShape = {
        sort: page.sort,
        direction: page.direction,
        keyset: after !== null,
        inRoot: parentId === null,
        origin: origin !== null,
      };
      return this.livePage(shape)(this.database, {
        ownerId,
        parentId,
        origin,
        type,
        limit,
        offset: 'offset' in from ? from.offset : 0,
        key: after?.key ?? null,
        id: after?.id ?? null,
      });
    };
    const rows: ItemView[] = [];
    const after = 'after' in page.from ? page.from.after : null;
    const skip = 'offset' in page.from ? page.from.offset : 0;
    if (after ? after.type === 'folder' : skip < folders)
      rows.push(...(await pageOf('folder', page.limit, after ? { after } : { offset: skip })));
    const remaining = page.limit - rows.length;
    if (remaining > 0 && files > 0)
      rows.push(
        ...(await pageOf(
          'file',
          remaining,
          after?.type === 'file' ? { after } : { offset: Math.max(0, skip - folders) },
        )),
      );
    return { rows, total: folders + files, folders, files };
  }

  /** Live folders and files directly in a folder (null: the root), as the triggers keep them. */
  private async folderCounts(
    ownerId: string,
    parentId: string | null,
  ): Promise<{ folders: number; files: number }> {
    const row = await this.db
      .selectFrom('folder_counts')
      .select(['folders', 'files'])
      .where('user_id', '=', ownerId)
      .where('folder_key', '=', parentId ?? '')
      .executeTakeFirst();
    return { folders: Number(row?.folders ?? 0), files: Number(row?.files ?? 0) };
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
    return this.sortedPage(ownerId, 'trashed', scope, page);
  }

  /**
   * Live items whose name contains `text` (already lowercased), folders first; only those below
   * `withinId` when it is given.
   */
  search(ownerId: string, text: string, limit: number, withinId: string | null = null): Promise<ItemView[]> {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.views(ownerId, 'live')
      .where('items.user_id', '=', ownerId)
      .where('items.deleted_at', 'is', null)
      .where(sql<boolean>`items.sort_name like ${pattern} escape '\\'`)
      .$if(withinId !== null, (qb) => qb.where('items.id', 'in', this.liveBelow(ownerId, withinId!)))
      .orderBy('items.type', 'desc')
      .orderBy('items.sort_name', 'asc')
      .limit(limit)
      .execute();
  }

  /** The owner's live items that have a share link, for My shared items. */
  async listShared(ownerId: string, page: PageRequest): Promise<Page<ItemView>> {
    const shared = <O>(qb: SelectQueryBuilder<DB, 'items', O>) =>
      qb
        .where('items.user_id', '=', ownerId)
        .where('items.deleted_at', 'is', null)
        .where('items.id', 'in', this.sources.shareLinks.linkedItemIds(ownerId));
    return this.sortedPage(ownerId, 'live', shared, page);
  }

  /** The owner's live team folders. */
  async listTeamFolders(ownerId: string, page: PageRequest): Promise<Page<ItemView>> {
    const teams = <O>(qb: SelectQueryBuilder<DB, 'items', O>) =>
      qb
        .where('items.user_id', '=', ownerId)
        .where('items.deleted_at', 'is', null)
        .where('items.id', 'in', this.sources.teamFolders.teamFolderIds(ownerId));
    return this.sortedPage(ownerId, 'live', teams, page);
  }

  /** Whether any file's bytes are stored, whoever owns them. */
  /**
   * Whether any object of the files module is stored: a file's bytes (or a version's), its blocks, an
   * upload's parts under way, or bytes waiting to be deleted.
   */
  async holdsAnyObject(): Promise<boolean> {
    for (const table of ['file_contents', 'blocks', 'upload_sessions', 'storage_purges'] as const)
      if (await this.db.selectFrom(table).select(sql.lit(1).as('one')).limit(1).executeTakeFirst())
        return true;
    return false;
  }

  /** The owner's team folders among these items. */
  async teamFoldersAmong(ownerId: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('items')
      .select('id')
      .where('user_id', '=', ownerId)
      .where('id', 'in', ids)
      .where('id', 'in', this.sources.teamFolders.teamFolderIds(ownerId))
      .execute();
    return rows.map((row) => row.id);
  }

  /** The owner's team folders among these folders and the live folders below them. */
  async teamFoldersWithin(ownerId: string, rootIds: readonly string[]): Promise<string[]> {
    if (rootIds.length === 0) return [];
    const rows = await this.db
      .withRecursive('tree(id)', (db) =>
        db
          .selectFrom('items')
          .select('id')
          .where('user_id', '=', ownerId)
          .where('type', '=', 'folder')
          .where('id', 'in', rootIds)
          .union((db) =>
            db
              .selectFrom('items')
              .innerJoin('tree', 'tree.id', 'items.parent_id')
              .select('items.id')
              .where('items.type', '=', 'folder')
              .where('items.deleted_at', 'is', null),
          ),
      )
      .selectFrom('tree')
      .select('tree.id')
      .where('tree.id', 'in', this.sources.teamFolders.teamFolderIds(ownerId))
      .execute();
    return rows.map((row) => row.id);
  }

  /** The live team folders, of any owner, that the user is a member of. */
  async listMemberTeamFolders(userId: string, page: PageRequest): Promise<Page<ItemView>> {
    const memberships = <O>(qb: SelectQueryBuilder<DB, 'items', O>) =>
      qb
        .where('items.deleted_at', 'is', null)
        .where('items.id', 'in', this.sources.teamFolders.memberFolderIds(userId));
    return this.sortedPage(userId, 'live', memberships, page);
  }

  /** The live team folders the user is a member of, in the order they joined them, at most `limit`. */
  memberTeamFoldersByJoining(userId: string, limit: number): Promise<ItemRow[]> {
    return this.db
      .selectFrom('items')
      .innerJoin(this.sources.teamFolders.memberships(userId).as('joined'), 'joined.folder_id', 'items.id')
      .selectAll('items')
      .where('items.deleted_at', 'is', null)
      .orderBy('joined.joined_at')
      .orderBy('items.id')
      .limit(limit)
      .execute();
  }

  /** One page of the items `scope` selects, folders first in the page's order, and how many there are. */
  private async sortedPage(
    /** Whose favourite marks the rows carry. */
    viewerId: string,
    state: 'live' | 'trashed',
    scope: <O>(qb: SelectQueryBuilder<DB, 'items', O>) => SelectQueryBuilder<DB, 'items', O>,
    page: PageRequest,
  ): Promise<Page<ItemView>> {
    const { total } = await scope(this.db.selectFrom('items'))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = await scope(this.views(viewerId, state))
      .orderBy('items.type', 'desc')
      .orderBy(`items.${page.sort}`, page.direction)
      .orderBy('items.id', page.direction)
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return { rows, total: Number(total) };
  }

  /**
   * The live files anywhere below a folder (none for no folder), leaving out the branch of the
   * folder `leaveOut`; newest first (a project's inputs, its Output folder left out).
   */
  async liveFilesBelow(
    ownerId: string,
    folderId: string | null,
    leaveOut: readonly string[],
    page?: { limit: number; offset: number },
  ): Promise<Page<ItemRow>> {
    if (!folderId) return { rows: [], total: 0 };
    const tree = this.db.withRecursive('tree(id)', (db) =>
      db
        .selectFrom('items')
        .select('id')
        .where('user_id', '=', ownerId)
        .where('id', '=', folderId)
        .where('deleted_at', 'is', null)
        .union((db) =>
          db
            .selectFrom('items')
            .innerJoin('tree', 'tree.id', 'items.parent_id')
            .select('items.id')
            .where('items.type', '=', 'folder')
            .where('items.deleted_at', 'is', null)
            .$if(leaveOut.length > 0, (qb) => qb.where('items.id', 'not in', leaveOut)),
        ),
    );
    const files = tree
      .selectFrom('items')
      .innerJoin('tree', 'tree.id', 'items.parent_id')
      .where('items.user_id', '=', ownerId)
      .where('items.type', '=', 'file')
      .where('items.deleted_at', 'is', null);
    const { total } = await files
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    let query = files.selectAll('items').orderBy('items.created_at', 'desc').orderBy('items.id', 'desc');
    if (page) query = query.limit(page.limit).offset(page.offset);
    return { rows: await query.execute(), total: Number(total) };
  }

  /**
   * Every live folder of the owner, for the tree; or only those made through the upload request
   * `origin`, named and ordered as its outsider named them.
   */
  liveFolders(ownerId: string, origin: string | null = null) {
    return this.db
      .selectFrom('items')
      .select((eb) => [
        'id',
        'parent_id',
        eb.ref(nameColumn(origin)).$castTo<string>().as('name'),
        'emoji',
        'color',
        'created_at',
      ])
      .where('user_id', '=', ownerId)
      .where('type', '=', 'folder')
      .where('deleted_at', 'is', null)
      .$if(origin !== null, (q) => q.where('upload_request_id', '=', origin))
      .orderBy(origin === null ? 'sort_name' : 'outsider_sort_name', 'asc')
      .execute();
  }

  /**
   * The folder of that name; or, of those made through the upload request `origin`, the one its
   * outsider gave that name.
   */
  findLiveFolderByName(
    ownerId: string,
    parentId: string | null,
    name: string,
    origin: string | null = null,
  ): Promise<ItemRow | undefined> {
    return this.db
      .selectFrom('items')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('parent_id', parentId === null ? 'is' : '=', parentId)
      .where('type', '=', 'folder')
      .where('deleted_at', 'is', null)
      .where(nameColumn(origin), '=', name)
      .$if(origin !== null, (q) => q.where('upload_request_id', '=', origin))
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
          // A root inside another root is reached twice: `union` keeps each item once.
          .union((db) =>
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
    return (await this.chainUp(ownerId, folderId)).map((row) => row.id);
  }

  /**
   * The item and every folder above it, nearest first. A cycle of parents (which moves never make)
   * ends the walk rather than running it for ever: `union` keeps each row once, and the chain stops
   * where it comes back to an item it holds.
   */
  private async chainUp(ownerId: string, id: string): Promise<Pick<ItemRow, 'id' | 'parent_id' | 'name'>[]> {
    const rows = await this.db
      .withRecursive('up(id, parent_id, name)', (db) =>
        db
          .selectFrom('items')
          .select(['id', 'parent_id', 'name'])
          .where('user_id', '=', ownerId)
          .where('id', '=', id)
          .union((db) =>
            db
              .selectFrom('items')
              .innerJoin('up', 'up.parent_id', 'items.id')
              .select(['items.id', 'items.parent_id', 'items.name']),
          ),
      )
      .selectFrom('up')
      .selectAll()
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    const chain: Pick<ItemRow, 'id' | 'parent_id' | 'name'>[] = [];
    const seen = new Set<string>();
    for (let row = byId.get(id); row && !seen.has(row.id); row = byId.get(row.parent_id ?? '')) {
      seen.add(row.id);
      chain.push(row);
    }
    return chain;
  }

  /** The items and every folder above any of them, each once. */
  async selfAndAncestorIds(ownerId: string, itemIds: readonly string[]): Promise<string[]> {
    if (itemIds.length === 0) return [];
    const rows = await this.db
      .withRecursive('up(id, parent_id)', (db) =>
        db
          .selectFrom('items')
          .select(['id', 'parent_id'])
          .where('user_id', '=', ownerId)
          .where('id', 'in', itemIds)
          .union((db) =>
            db
              .selectFrom('items')
              .innerJoin('up', 'up.parent_id', 'items.id')
              .select(['items.id', 'items.parent_id']),
          ),
      )
      .selectFrom('up')
      .select('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Which of these items are live below the folder, at any depth. */
  async liveAmongBelow(ownerId: string, folderId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.liveBelow(ownerId, folderId).where('below.id', 'in', ids).execute();
    return new Set(rows.map((row) => row.id));
  }

  /** The ids of the live items below a folder, at any depth (the folder itself excluded). */
  private liveBelow(ownerId: string, folderId: string) {
    return this.db
      .withRecursive('below(id)', (db) =>
        db
          .selectFrom('items')
          .select('id')
          .where('user_id', '=', ownerId)
          .where('parent_id', '=', folderId)
          .where('deleted_at', 'is', null)
          .union((db) =>
            db
              .selectFrom('items')
              .innerJoin('below', 'below.id', 'items.parent_id')
              .select('items.id')
              .where('items.deleted_at', 'is', null),
          ),
      )
      .selectFrom('below')
      .select('below.id');
  }

  // ---- items by name (WebDAV walks paths) ---------------------------------------------------

  /** The live item of that name in a folder (null: the root); folders first, then the oldest. */
  /**
   * Inside a unit of work: holds the names of one of the owner's folders until the unit ends, so
   * writers that look for a free name and take it (two uploads of one name at the same instant) do so
   * one after the other. A PostgreSQL transaction-scoped advisory lock; SQLite has one writer at a time.
   */
  async lockFolderNames(ownerId: string, folderId: string | null): Promise<void> {
    await this.lockUntilCommit(`item-names:${ownerId}:${folderId ?? 'root'}`);
  }

  /**
   * Inside a unit of work: holds the shape of the owner's tree until the unit ends, so a move that
   * checks the folders above its target and then moves does so with no other move in between (two
   * folders moved into each other at once would both pass and make a cycle). Taken after a folder's names.
   */
  async lockTree(ownerId: string): Promise<void> {
    await this.lockUntilCommit(`item-tree:${ownerId}`);
  }

  /** A PostgreSQL transaction-scoped advisory lock; SQLite runs one unit of work at a time. */
  private async lockUntilCommit(key: string): Promise<void> {
    if (this.database.dialect !== 'postgres') return;
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(this.db);
  }

  /** `origin`: among the items made through that upload request, the one its outsider gave the name. */
  findLiveChild(
    ownerId: string,
    parentId: string | null,
    name: string,
    origin: string | null = null,
  ): Promise<ItemRow | undefined> {
    return this.db
      .selectFrom('items')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('parent_id', parentId === null ? 'is' : '=', parentId)
      .where('deleted_at', 'is', null)
      .where(nameColumn(origin), '=', name)
      .$if(origin !== null, (q) => q.where('upload_request_id', '=', origin))
      .orderBy('type', 'desc')
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .executeTakeFirst();
  }

  /**
   * The live items holding any of these names in a folder (null: the root); `origin`: those made
   * through that upload request whose outsider gave them the names.
   */
  liveChildrenNamed(
    ownerId: string,
    parentId: string | null,
    names: readonly string[],
    origin: string | null = null,
  ): Promise<Pick<ItemRow, 'id' | 'name'>[]> {
    if (names.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('items')
      .select((eb) => ['id', eb.ref(nameColumn(origin)).$castTo<string>().as('name')])
      .where('user_id', '=', ownerId)
      .where('parent_id', parentId === null ? 'is' : '=', parentId)
      .where('deleted_at', 'is', null)
      .where(nameColumn(origin), 'in', names)
      .$if(origin !== null, (q) => q.where('upload_request_id', '=', origin))
      .execute();
  }

  /** The names from the owner's root down to the folder, the folder's own last. */
  async namesDownTo(ownerId: string, folderId: string): Promise<string[]> {
    return (await this.chainUp(ownerId, folderId)).map((row) => row.name).reverse();
  }

  // ---- changing items ------------------------------------------------------------------------

  insert(item: NewItem): Promise<ItemRow> {
    return this.db.insertInto('items').values(item).returningAll().executeTakeFirstOrThrow();
  }

  async update(
    ownerId: string,
    id: string,
    changes: Partial<
      Pick<
        ItemRow,
        'name' | 'sort_name' | 'outsider_name' | 'outsider_sort_name' | 'emoji' | 'color' | 'parent_id'
      >
    >,
  ): Promise<void> {
    await this.db
      .updateTable('items')
      .set({ ...changes, updated_at: this.now().toISOString() })
      .where('user_id', '=', ownerId)
      .where('id', '=', id)
      .execute();
  }

  async move(ownerId: string, ids: readonly string[], parentId: string | null): Promise<void> {
    await this.db
      .updateTable('items')
      .set({ parent_id: parentId, updated_at: this.now().toISOString() })
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
    if (ids.length === 0) return;
    await this.db
      .updateTable('items')
      .set({ trashed_by: trashedBy })
      .where('user_id', '=', ownerId)
      .where('id', 'in', ids)
      .execute();
  }

  /** Brings back the root and whatever was trashed with it, the root into `parentId`. */
  async restore(ownerId: string, rootId: string, parentId: string | null): Promise<void> {
    await this.database.transaction(async (trx) => {
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

  // ---- an account that goes ----------------------------------------------------------------

  /**
   * The storage objects the owner's rows name, a batch at a time: each item's object with its
   * thumbnails', then the unfinished uploads' parts and the objects their completions were writing.
   */
  async *storedObjectsOf(ownerId: string, batch: number): AsyncGenerator<StoredObject[]> {
    for (let after = ''; ;) {
      const items = await this.db
        .selectFrom('items')
        .select(['id', 'storage_key'])
        .where('user_id', '=', ownerId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(batch)
        .execute();
      if (items.length === 0) break;
      after = items.at(-1)!.id;
      const thumbnails = await this.thumbnailsOf(items.map((item) => item.id));
      yield [
        ...items.flatMap((item) => (item.storage_key ? [storedObject(item.storage_key)] : [])),
        ...thumbnails.map((thumbnail) => storedObject(thumbnail.storage_key)),
      ];
    }
    const sessions = await this.db
      .selectFrom('upload_sessions')
      .select(['id', 'part_count', 'storage_key'])
      .where('user_id', '=', ownerId)
      .execute();
    if (sessions.length > 0)
      yield sessions.flatMap((session) => [
        { kind: 'parts' as const, key: session.id, partCount: session.part_count },
        ...(session.storage_key ? [storedObject(session.storage_key)] : []),
      ]);
  }

  /** Deletes every item and unfinished upload of the owner (what hangs from them goes too, by foreign keys). */
  async deleteOwned(ownerId: string): Promise<void> {
    await this.db.deleteFrom('upload_sessions').where('user_id', '=', ownerId).execute();
    await this.db.deleteFrom('items').where('user_id', '=', ownerId).execute();
  }

  // ---- usage -------------------------------------------------------------------------------

  /**
   * The owner's used bytes (storage_usage) and their files' bytes per type, read in one statement so
   * that they agree: what `used` holds beyond the files is what counts without being a file's bytes.
   */
  async usageByMimetype(ownerId: string): Promise<StoredBytes> {
    const rows = await this.db
      .selectFrom('items')
      .select([
        sql<number>`0`.as('is_used'),
        'mimetype',
        sql<number | string>`coalesce(sum(size), 0)`.as('bytes'),
      ])
      .where('user_id', '=', ownerId)
      .where('type', '=', 'file')
      .groupBy('mimetype')
      .unionAll(
        this.db
          .selectFrom('storage_usage')
          .select([
            sql<number>`1`.as('is_used'),
            sql<string | null>`null`.as('mimetype'),
            'used_bytes as bytes',
          ])
          .where('user_id', '=', ownerId),
      )
      .execute();
    const files = rows.filter((r) => Number(r.is_used) === 0);
    return {
      used: rows.filter((r) => Number(r.is_used) === 1).reduce((sum, r) => sum + Number(r.bytes), 0),
      files: files.map((r) => ({ mimetype: r.mimetype, bytes: Number(r.bytes) })),
    };
  }

  /** Every owner's used bytes together, and how many files there are: the instance's storage. */
  async storageTotals(): Promise<{ used: number; files: number }> {
    const [usage, files] = await Promise.all([
      this.db
        .selectFrom('storage_usage')
        .select(sql<number>`coalesce(sum(used_bytes), 0)`.as('used'))
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('items')
        .select((eb) => eb.fn.countAll<number>().as('files'))
        .where('type', '=', 'file')
        .executeTakeFirstOrThrow(),
    ]);
    return { used: Number(usage.used), files: Number(files.files) };
  }

  /** What the owner's quota holds now: the files' bytes and the unfinished uploads' reservations. */
  async heldBytes(ownerId: string): Promise<number> {
    const row = await this.db
      .selectFrom('storage_usage')
      .select(['used_bytes', 'reserved_bytes'])
      .where('user_id', '=', ownerId)
      .executeTakeFirst();
    return Number(row?.used_bytes ?? 0) + Number(row?.reserved_bytes ?? 0);
  }

  /** The used bytes of each of these owners (0 for those without files), in one query. */
  async usedBytesOf(ownerIds: readonly string[]): Promise<Map<string, number>> {
    const used = new Map(ownerIds.map((id) => [id, 0]));
    if (ownerIds.length === 0) return used;
    const rows = await this.db
      .selectFrom('storage_usage')
      .select(['user_id', 'used_bytes'])
      .where('user_id', 'in', ownerIds)
      .execute();
    for (const row of rows) used.set(row.user_id, Number(row.used_bytes));
    return used;
  }

  /**
   * A page of the owners another module's query names (`owners`, selecting their `id`), ordered by
   * their used bytes, then by id: one query, so the page is cut after the sort, however many owners.
   */
  async ownersByUsage(
    owners: SelectQueryBuilder<DB, keyof DB, { id: string }>,
    direction: 'asc' | 'desc',
    page: { limit: number; offset: number },
  ): Promise<{ id: string; used: number }[]> {
    const rows = await this.db
      .selectFrom(owners.as('owner'))
      .leftJoin('storage_usage', 'storage_usage.user_id', 'owner.id')
      .select(['owner.id', sql<number>`coalesce(storage_usage.used_bytes, 0)`.as('used')])
      .orderBy('used', direction)
      .orderBy('owner.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return rows.map((row) => ({ id: row.id, used: Number(row.used) }));
  }

  // ---- rows of other modules that name items -------------------------------------------------

  /**
   * Another module's rows that name an item of the owner (`item_id`), kept where that item is live
   * and, with `search` (a LIKE pattern of a lowercased name), where its name matches or the row's own
   * `matched` is true; each row gains the item's `item_sort_name` to order by. For pages that filter
   * and sort by the item (the studio's gallery): the caller cuts the page from this one query.
   */
  rowsWithLiveItem<O extends { item_id: string; matched: SqlBool }>(
    ownerId: string,
    rows: SelectQueryBuilder<DB, keyof DB, O>,
    search: string | null,
  ): SelectQueryBuilder<DB, keyof DB, O & { item_sort_name: string }> {
    return this.db
      .selectFrom(rows.as('row'))
      .innerJoin('items', (join) => join.on(sql<SqlBool>`items.id = row.item_id`))
      .where('items.user_id', '=', ownerId)
      .where('items.deleted_at', 'is', null)
      .$if(search !== null, (qb) =>
        qb.where(sql<SqlBool>`(items.sort_name like ${search} escape '\\' or row.matched)`),
      )
      .selectAll('row')
      .select('items.sort_name as item_sort_name') as unknown as SelectQueryBuilder<
      DB,
      keyof DB,
      O & { item_sort_name: string }
    >;
  }

  /** How many live files each of the owner's upload requests (by id) brought, 0 for none. */
  async liveFilesReceived(
    ownerId: string,
    uploadRequestIds: readonly string[],
  ): Promise<Map<string, number>> {
    const received = new Map(uploadRequestIds.map((id) => [id, 0]));
    if (uploadRequestIds.length === 0) return received;
    const rows = await this.db
      .selectFrom('items')
      .select(['upload_request_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('user_id', '=', ownerId)
      .where('upload_request_id', 'in', uploadRequestIds)
      .where('type', '=', 'file')
      .where('deleted_at', 'is', null)
      .groupBy('upload_request_id')
      .execute();
    for (const row of rows) received.set(row.upload_request_id!, Number(row.n));
    return received;
  }

  /** Whether a file's content (current or a version) is stored at the key. */
  async contentStoredAt(ownerId: string, storageKey: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('file_contents')
      .select('id')
      .where('user_id', '=', ownerId)
      .where('storage_key', '=', storageKey)
      .executeTakeFirst();
    return row !== undefined;
  }

  async contentsSavedAt(ownerId: string, contentIds: readonly string[]): Promise<Map<string, string>> {
    if (contentIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('file_contents')
      .select(['id', 'created_at'])
      .where('user_id', '=', ownerId)
      .where('id', 'in', [...new Set(contentIds)])
      .execute();
    return new Map(rows.map((row) => [row.id, new Date(row.created_at).toISOString()]));
  }

  // ---- favourites --------------------------------------------------------------------------

  async addFavourites(userId: string, itemIds: readonly string[]): Promise<void> {
    if (itemIds.length === 0) return;
    const created_at = this.now().toISOString();
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

  /** An item's marks as the viewer sees them (favourite, share link), without counting what it holds. */
  marksOf(viewerId: string, itemId: string): Promise<ItemMarks> {
    return this.db
      .selectFrom('items')
      .leftJoin(this.sources.shareLinks.linkColumns().as('link'), 'link.item_id', 'items.id')
      .select((eb) => [isFavourite(eb, viewerId), ...shareLink(eb)])
      .where('items.id', '=', itemId)
      .executeTakeFirstOrThrow();
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

  // ---- upload sessions and the quota they hold --------------------------------------------------

  findUploadSession(userId: string, clientKey: string): Promise<UploadSessionRow | undefined> {
    return this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('client_key', '=', clientKey)
      .executeTakeFirst();
  }

  /**
   * Opens an upload; its owner gets a usage row first, so reservations only ever update one. The row
   * is looked up before it is made: making it sums every file of the owner's, which an INSERT … ON
   * CONFLICT DO NOTHING would do on every upload, at about 8–30 ms for 50,000 files on SQLite.
   */
  async insertUploadSession(session: NewUploadSession): Promise<UploadSessionRow> {
    const counted = await this.db
      .selectFrom('storage_usage')
      .select('user_id')
      .where('user_id', '=', session.user_id)
      .executeTakeFirst();
    if (!counted) await this.insertStorageUsage(session.user_id);
    return this.db.insertInto('upload_sessions').values(session).returningAll().executeTakeFirstOrThrow();
  }

  /** The owner's usage row, from the files they hold; nothing when another request made it first. */
  private async insertStorageUsage(userId: string): Promise<void> {
    await this.db
      .insertInto('storage_usage')
      .columns(['user_id', 'used_bytes', 'reserved_bytes'])
      .expression((eb) =>
        eb
          .selectFrom('items')
          .select([
            eb.val(userId).as('user_id'),
            sql<number>`coalesce(sum(size), 0)`.as('used_bytes'),
            eb.lit(0).as('reserved_bytes'),
          ])
          .where('user_id', '=', userId)
          .where('type', '=', 'file'),
      )
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  }

  /**
   * Holds `bytes` more for the upload if the owner's used and reserved bytes leave room for them
   * under `capacity` (null: unlimited); false when they do not.
   */
  reserveUploadBytes(sessionId: string, bytes: number, capacity: number | null): Promise<boolean> {
    return this.withinCapacity(async (trx) => {
      const session = await trx
        .updateTable('upload_sessions')
        .set((eb) => ({ reserved_bytes: eb('reserved_bytes', '+', bytes) }))
        .where('id', '=', sessionId)
        .returning('user_id')
        .executeTakeFirst();
      if (!session) throw new UploadSessionGone(sessionId);
      await moveReserved(trx, session.user_id, bytes, capacity);
    });
  }

  /**
   * Makes the upload hold exactly `hold` bytes and applies `changes`, if the session is still as
   * `expected` (the same parts, the same completion); the owner's reservation follows, a rise only
   * within `capacity`. Answers 'superseded' when another request changed or removed the session.
   */
  async holdUploadBytes(
    expected: UploadSessionRow,
    hold: number,
    capacity: number | null,
    changes: UploadSessionProgress = {},
  ): Promise<'held' | 'over_capacity' | 'superseded'> {
    // A chunk that holds what it reserved (it asked for the whole chunk and carried that much, every
    // middle chunk): one statement, the owner's reservation unchanged; otherwise the transaction below.
    const kept = await this.db
      .updateTable('upload_sessions')
      .set({ ...changes, reserved_bytes: hold, updated_at: this.now().toISOString() })
      .where('id', '=', expected.id)
      .where('part_count', '=', expected.part_count)
      .where('storage_key', expected.storage_key === null ? 'is' : '=', expected.storage_key)
      .where('reserved_bytes', '=', hold)
      .executeTakeFirst();
    if (Number(kept.numUpdatedRows) > 0) return 'held';
    let superseded = false;
    const held = await this.withinCapacity(async (trx) => {
      // Written before it is read: the row is locked (PostgreSQL) and the write lock taken (SQLite).
      const session = await trx
        .updateTable('upload_sessions')
        .set({ updated_at: this.now().toISOString() })
        .where('id', '=', expected.id)
        .where('part_count', '=', expected.part_count)
        .where('storage_key', expected.storage_key === null ? 'is' : '=', expected.storage_key)
        .returning(['user_id', 'reserved_bytes'])
        .executeTakeFirst();
      if (!session) {
        superseded = true;
        return;
      }
      await moveReserved(trx, session.user_id, hold - Number(session.reserved_bytes), capacity);
      await trx
        .updateTable('upload_sessions')
        .set({ ...changes, reserved_bytes: hold })
        .where('id', '=', expected.id)
        .execute();
    });
    if (superseded) return 'superseded';
    return held ? 'held' : 'over_capacity';
  }

  /**
   * Files a completed upload as a new file: the session goes, its reservation becomes used bytes
   * (through the items trigger) and the client's key is recorded as filed, in the same transaction.
   * Null when the session is gone or holds less than the file's size (another request of the same
   * upload changed it), and nothing is written.
   */
  async fileFromUpload(sessionId: string, file: NewFile): Promise<ItemRow | null> {
    return this.database.transaction(async () => {
      const session = await this.closeUpload(sessionId, file.item.size ?? 0);
      if (!session) return null;
      const item = await this.insertFile(file);
      await this.recordFiled(session, item.id, item.created_at);
      return item;
    });
  }

  /**
   * Ends a completed upload inside the caller's transaction: the session goes and its reservation is
   * let go (the bytes it held become used ones through the triggers of whatever row takes them). Null
   * when the session is gone or holds less than `size`.
   */
  async closeUpload(
    sessionId: string,
    size: number,
  ): Promise<{ user_id: string; client_key: string } | null> {
    const session = await this.db
      .deleteFrom('upload_sessions')
      .where('id', '=', sessionId)
      .where('reserved_bytes', '>=', size)
      .returning(['user_id', 'client_key', 'reserved_bytes'])
      .executeTakeFirst();
    if (!session) return null;
    await moveReserved(this.db, session.user_id, -Number(session.reserved_bytes), null);
    return session;
  }

  /** Records which file an upload of the client's key became (see migration 0012). */
  async recordFiled(
    session: { user_id: string; client_key: string },
    itemId: string,
    at: string,
  ): Promise<void> {
    const filed = { item_id: itemId, filed_at: at };
    await this.db
      .insertInto('filed_uploads')
      .values({ user_id: session.user_id, client_key: session.client_key, ...filed })
      .onConflict((oc) => oc.columns(['user_id', 'client_key']).doUpdateSet(filed))
      .execute();
  }

  /** A new file: its content, then the item naming it, in one transaction. */
  insertFile(file: NewFile): Promise<ItemRow> {
    return this.database.transaction(async (trx) => {
      await trx.insertInto('file_contents').values(file.content).execute();
      return trx.insertInto('items').values(file.item).returningAll().executeTakeFirstOrThrow();
    });
  }

  /** The file an upload of the client's key became, while its record is kept. */
  findFiledUpload(userId: string, clientKey: string): Promise<FiledUploadRow | undefined> {
    return this.db
      .selectFrom('filed_uploads')
      .selectAll()
      .where('user_id', '=', userId)
      .where('client_key', '=', clientKey)
      .executeTakeFirst();
  }

  async deleteFiledUploadsBefore(before: string): Promise<void> {
    await this.db.deleteFrom('filed_uploads').where('filed_at', '<', before).execute();
  }

  /**
   * Holds `bytes` of the owner's quota for files stored in one go rather than in chunks (a render's
   * outputs): a session that receives nothing, so the same conditional update guards its bytes and
   * the upload sweep lets them go if its process dies. Null, holding nothing, when they do not fit.
   */
  async openReservation(
    session: NewUploadSession,
    bytes: number,
    capacity: number | null,
  ): Promise<UploadSessionRow | null> {
    const opened = await this.insertUploadSession(session);
    if (await this.reserveUploadBytes(opened.id, bytes, capacity))
      return { ...opened, reserved_bytes: bytes };
    await this.deleteUploadSession(opened.id);
    return null;
  }

  /**
   * Files one item out of a reservation: its size moves from the session's reserved bytes to the
   * owner's used bytes in one transaction. Null, writing nothing, when the session holds less.
   */
  async fileFromReservation(
    sessionId: string,
    file: NewFile | { item: NewItem; content: null },
  ): Promise<ItemRow | null> {
    const size = file.item.size ?? 0;
    return this.database.transaction(async (trx) => {
      const session = await trx
        .updateTable('upload_sessions')
        .set((eb) => ({
          reserved_bytes: eb('reserved_bytes', '-', size),
          updated_at: this.now().toISOString(),
        }))
        .where('id', '=', sessionId)
        .where('reserved_bytes', '>=', size)
        .returning('user_id')
        .executeTakeFirst();
      if (!session) return null;
      await moveReserved(trx, session.user_id, -size, null);
      // A content already recorded (a copy naming the same blocks) is named, not inserted again.
      return file.content === null ? this.insert(file.item) : this.insertFile(file);
    });
  }

  /**
   * Ends the session, letting its reservation go; with `idleBefore`, only while it is still idle since
   * then (its upload did not go on, nor complete, since it was read). False when it was not there.
   */
  async deleteUploadSession(id: string, idleBefore?: string): Promise<boolean> {
    return this.database.transaction(async (trx) => {
      const session = await trx
        .deleteFrom('upload_sessions')
        .where('id', '=', id)
        .$if(idleBefore !== undefined, (qb) => qb.where('updated_at', '<', idleBefore!))
        .returning(['user_id', 'reserved_bytes'])
        .executeTakeFirst();
      if (session) await moveReserved(trx, session.user_id, -Number(session.reserved_bytes), null);
      return session !== undefined;
    });
  }

  /** The owner's sessions of these client keys (a delta upload's holds on its blocks), in batches. */
  async findUploadSessions(userId: string, clientKeys: readonly string[]): Promise<UploadSessionRow[]> {
    const found: UploadSessionRow[] = [];
    const keys = [...new Set(clientKeys)];
    for (let at = 0; at < keys.length; at += KEY_BATCH) {
      found.push(
        ...(await this.db
          .selectFrom('upload_sessions')
          .selectAll()
          .where('user_id', '=', userId)
          .where('client_key', 'in', keys.slice(at, at + KEY_BATCH))
          .execute()),
      );
    }
    return found;
  }

  /**
   * Inside the caller's transaction: removes the owner's sessions of these ids and lets go of what
   * they held (the bytes become used ones through the triggers of whatever row takes them).
   */
  async closeUploadSessions(userId: string, sessionIds: readonly string[]): Promise<void> {
    let freed = 0;
    for (let at = 0; at < sessionIds.length; at += KEY_BATCH) {
      const closed = await this.db
        .deleteFrom('upload_sessions')
        .where('user_id', '=', userId)
        .where('id', 'in', sessionIds.slice(at, at + KEY_BATCH))
        .returning('reserved_bytes')
        .execute();
      freed += closed.reduce((sum, session) => sum + Number(session.reserved_bytes), 0);
    }
    await moveReserved(this.db, userId, -freed, null);
  }

  /** The object the owner's session under `clientKey` named is filed elsewhere now: the session names none. */
  async forgetUploadSessionObject(ownerId: string, clientKey: string): Promise<void> {
    await this.db
      .updateTable('upload_sessions')
      .set({ storage_key: null })
      .where('user_id', '=', ownerId)
      .where('client_key', '=', clientKey)
      .execute();
  }

  async touchUploadSessions(ownerId: string, clientKeys: readonly string[], at: string): Promise<void> {
    for (let start = 0; start < clientKeys.length; start += KEY_BATCH)
      await this.db
        .updateTable('upload_sessions')
        .set({ updated_at: at })
        .where('user_id', '=', ownerId)
        .where('client_key', 'in', clientKeys.slice(start, start + KEY_BATCH))
        .execute();
  }

  /**
   * Marks in use at `at` the owner's sessions whose client key begins with `prefix` and that were
   * last marked before `before`, in one statement; answers their client keys.
   */
  async touchUploadSessionsKeyedUnder(
    ownerId: string,
    prefix: string,
    before: string,
    at: string,
  ): Promise<string[]> {
    const touched = await this.db
      .updateTable('upload_sessions')
      .set({ updated_at: at })
      .where('user_id', '=', ownerId)
      .where(sql<boolean>`substr(client_key, 1, ${prefix.length}) = ${prefix}`)
      .where('updated_at', '<', before)
      .returning('client_key')
      .execute();
    return touched.map((session) => session.client_key);
  }

  /** The owner's upload sessions whose client key begins with `prefix` (one link's or request's). */
  uploadSessionsKeyedUnder(ownerId: string, prefix: string): Promise<UploadSessionRow[]> {
    return this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where(sql<boolean>`substr(client_key, 1, ${prefix.length}) = ${prefix}`)
      .execute();
  }

  uploadSessionsIdleSince(before: string): Promise<UploadSessionRow[]> {
    return this.db.selectFrom('upload_sessions').selectAll().where('updated_at', '<', before).execute();
  }

  /** Runs `work` in a transaction; false, with nothing written, when a reservation did not fit. */
  private async withinCapacity(work: (trx: Kysely<DB>) => Promise<void>): Promise<boolean> {
    try {
      await this.database.transaction(work);
      return true;
    } catch (error) {
      if (error instanceof OverCapacity) return false;
      throw error;
    }
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

  /** Keeps the rows of sizes the file has no thumbnail of yet; answers the storage keys of those kept. */
  async insertThumbnails(rows: readonly ThumbnailRow[]): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const inserted = await this.db
      .insertInto('thumbnails')
      .values([...rows])
      .onConflict((oc) => oc.columns(['item_id', 'size']).doNothing())
      .returning('storage_key')
      .execute();
    return new Set(inserted.map((row) => row.storage_key));
  }

  /** Owes the file its thumbnails from `at` on: written in the unit of work that enqueues their job. */
  async requestThumbnails(itemId: string, at: string): Promise<void> {
    await this.db
      .insertInto('thumbnail_requests')
      .values({ item_id: itemId, requested_at: at, sweeps: 0 })
      .onConflict((oc) => oc.column('item_id').doUpdateSet({ requested_at: at, sweeps: 0 }))
      .execute();
  }

  /** The sweep enqueued the file's job again at `at`. */
  async thumbnailsRequestedAgain(itemId: string, at: string): Promise<void> {
    await this.db
      .updateTable('thumbnail_requests')
      .set((eb) => ({ requested_at: at, sweeps: eb('sweeps', '+', 1) }))
      .where('item_id', '=', itemId)
      .execute();
  }

  /** The file has its thumbnails, or never will: nothing is owed any more. */
  async thumbnailsSettled(itemId: string): Promise<void> {
    await this.db.deleteFrom('thumbnail_requests').where('item_id', '=', itemId).execute();
  }

  /** Files owed thumbnails since before `before` (their job lost) and swept fewer than `sweeps` times, oldest first. */
  async overdueThumbnails(before: string, sweeps: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('thumbnail_requests')
      .select('item_id')
      .where('requested_at', '<', before)
      .where('sweeps', '<', sweeps)
      .orderBy('requested_at')
      .orderBy('item_id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.item_id);
  }

  // ---- shared selections -------------------------------------------------------------------

  private views(viewerId: string, state: 'live' | 'trashed', origin: string | null = null) {
    return views(this.db, this.sources, viewerId, state, origin);
  }

  // ---- what sync clients read ----------------------------------------------------------------

  async subtreeStates(ownerId: string, folderIds: readonly string[]): Promise<Map<string, SubtreeState>> {
    if (folderIds.length === 0) return new Map();
    const { rows } = await sql<{ top: string; count: unknown; tags: unknown; bytes: unknown }>`
      with recursive sub(top, id) as (
        select id, id from items where user_id = ${ownerId} and id in (${sql.join(folderIds)})
        union
        select sub.top, i.id from items i join sub on i.parent_id = sub.id
        where i.user_id = ${ownerId} and i.deleted_at is null
      )
      select sub.top as top, count(*) as count, sum(i.change_tag) as tags, sum(i.size) as bytes
      from sub join items i on i.id = sub.id group by sub.top`.execute(this.db);
    return new Map(rows.map((row) => [row.top, subtreeState(row)]));
  }

  async rootState(ownerId: string): Promise<SubtreeState> {
    const { rows } = await sql<{ count: unknown; tags: unknown; bytes: unknown }>`
      select count(*) as count, coalesce(sum(change_tag), 0) as tags, coalesce(sum(size), 0) as bytes
      from items where user_id = ${ownerId} and deleted_at is null`.execute(this.db);
    return subtreeState(rows[0]!);
  }

  async syncMarksOf(
    ownerId: string,
    viewerId: string | null,
    itemIds: readonly string[],
  ): Promise<{ favourites: Set<string>; linked: Set<string> }> {
    if (itemIds.length === 0) return { favourites: new Set(), linked: new Set() };
    const [favourites, linked] = await Promise.all([
      viewerId
        ? this.db
            .selectFrom('favourites')
            .select('item_id')
            .where('user_id', '=', viewerId)
            .where('item_id', 'in', itemIds)
            .execute()
        : [],
      this.db
        .selectFrom('items')
        .select('items.id as item_id')
        .where('items.user_id', '=', ownerId)
        .where('items.id', 'in', itemIds)
        .where('items.id', 'in', this.sources.shareLinks.linkedItemIds(ownerId))
        .execute(),
    ]);
    return {
      favourites: new Set(favourites.map((row) => row.item_id)),
      linked: new Set(linked.map((row) => row.item_id)),
    };
  }
}

/** Items as lists show them to `viewerId` (see ItemView), in one state. */
function views(
  db: Kysely<DB>,
  sources: ListingSources,
  viewerId: string,
  state: 'live' | 'trashed',
  origin: string | null,
) {
  return db
    .selectFrom('items')
    .leftJoin(sources.shareLinks.linkColumns().as('link'), 'link.item_id', 'items.id')
    .selectAll('items')
    .select((eb) => [
      childCount(eb, state, origin),
      isFavourite(eb, viewerId),
      hasThumbnail(eb),
      ...shareLink(eb),
    ]);
}

/**
 * Items directly inside a folder (those made through the upload request `origin`, if given); files
 * skip it. A live folder's whole count is kept in `folder_counts`; the trash and an origin count.
 */
function childCount(eb: ExpressionBuilder<DB, 'items'>, state: 'live' | 'trashed', origin: string | null) {
  const count =
    state === 'live' && origin === null
      ? eb
          .selectFrom('folder_counts')
          .select(sql<number>`folders + files`.as('n'))
          .whereRef('folder_counts.user_id', '=', 'items.user_id')
          .whereRef('folder_counts.folder_key', '=', 'items.id')
      : eb
          .selectFrom('items as child')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('child.user_id', '=', 'items.user_id')
          .whereRef('child.parent_id', '=', 'items.id')
          .where('child.deleted_at', state === 'live' ? 'is' : 'is not', null)
          .$if(origin !== null, (q) => q.where('child.upload_request_id', '=', origin));
  // The type inlined, not bound: a prepared page binds only its request's values (livePage).
  return eb.case().when('items.type', '=', sql.lit('folder')).then(count).end().as('items_count');
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

/** The item's share link, from a left join of the sharing module's `link` rows (nulls when it has none). */
function shareLink(eb: ExpressionBuilder<DB & { link: ShareLinkColumns }, 'items' | 'link'>) {
  return [
    eb.ref('link.token').as('share_token'),
    eb.ref('link.permission').as('share_permission'),
    eb.ref('link.protected').as('share_protected'),
    eb.ref('link.expire_in').as('share_expire_in'),
  ] as const;
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

function storedObject(key: string): StoredObject {
  return { kind: 'object', key, partCount: 0 };
}

/** Keys or ids one `in (...)` list names, well under SQLite's limit on bound values. */
const KEY_BATCH = 500;

/** Thrown inside a transaction to undo it when a reservation does not fit the capacity. */
class OverCapacity extends Error {}

/** The upload a reservation was for is gone (its account deleted, or swept) while its bytes arrived. */
export class UploadSessionGone extends Error {
  constructor(sessionId: string) {
    super(`Upload session ${sessionId} is gone`);
  }
}

/**
 * Moves the owner's reserved bytes by `delta`. A rise is one conditional update of the owner's row,
 * so concurrent reservations queue on that row and each sees the others' bytes.
 */
async function moveReserved(
  trx: Kysely<DB>,
  userId: string,
  delta: number,
  capacity: number | null,
): Promise<void> {
  if (delta === 0) return;
  const { numUpdatedRows } = await trx
    .updateTable('storage_usage')
    .set((eb) => ({ reserved_bytes: eb('reserved_bytes', '+', delta) }))
    .where('user_id', '=', userId)
    .$if(delta > 0 && capacity !== null, (qb) =>
      qb.where(sql<number>`used_bytes + reserved_bytes + ${delta}`, '<=', capacity),
    )
    .executeTakeFirst();
  if (numUpdatedRows === 0n) {
    if (delta > 0 && capacity !== null) throw new OverCapacity();
    throw new Error(`No storage usage row for ${userId}`);
  }
}

function subtreeState(row: { count: unknown; tags: unknown; bytes: unknown }): SubtreeState {
  return { version: `${String(row.count)}-${String(row.tags)}`, bytes: Number(row.bytes ?? 0) };
}
