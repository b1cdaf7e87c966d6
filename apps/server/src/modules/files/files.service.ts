import type {
  FolderListQuery,
  FolderNode,
  ItemList,
  ItemResource,
  ListQuery,
  Restrictions,
  StorageUsage,
} from '@atelier/contracts';
import { newFolderItem, sortNameOf, type ItemNames } from './new-items';
import { AppError } from '../../lib/app-error';
import type { SettingsService } from '../settings/settings.service';
import type { StorageProvider } from '../../storage/storage-provider';
import { extensionOf, isBlacklisted } from './file-type.detector';
import { freeName } from './free-name';
import { ItemAccess, listedAs, memberActor, notFound, refusalReasonFor, type Actor } from './files.access';
import { nameSeenBy, paginate, presentItem, presentList } from './files.presenter';
import type {
  FilesRepository,
  FolderPage,
  ItemMarks,
  ItemView,
  ListingPage,
  PageRequest,
  SortColumn,
} from './files.repository';
import type { FoldersDeletedListener, FoldersTrashedListener } from './files.ports';
import type { ItemRow, ItemType } from './files.tables';
import type { ItemChanges } from './item-changes';
import type { OwnerUnits } from './owner-units';
import { decodeCursor, encodeCursor } from './listing-cursor';
import { bytesByCategory } from './storage-categories';
import type { BlockStoreRepository } from './block-store.repository';
import { objectAt, type StoragePurges } from './storage-purges';
import type { VersionsRepository } from './versions.repository';

/** What the account may do and hold; the users module derives it from the settings, the plan and storage_usage. */
export interface AccountLimits {
  /** `used` is the owner's storage_usage; `capacity` null means unlimited. */
  of(ownerId: string): Promise<{ restrictions: Restrictions; capacity: number | null; used: number }>;
  /** Why the account's files may not be downloaded now, or null; reads only what decides that. */
  downloadRefusal(ownerId: string): Promise<string | null>;
}

const SORT_COLUMNS: Record<ListQuery['sort'], SortColumn> = {
  created_at: 'created_at',
  name: 'sort_name',
  filesize: 'size',
  updated_at: 'updated_at',
};

export const SEARCH_LIMIT = 50;
/** More team folders than anyone is a member of: the list is read whole. */
const MEMBER_TEAM_FOLDERS_LIMIT = 100_000;
/** Items read at once when an account goes: their keys, and their thumbnails', stay a few hundred kilobytes. */
const PURGE_BATCH = 1000;

export function pageRequest(query: ListQuery): PageRequest {
  return {
    sort: SORT_COLUMNS[query.sort],
    direction: query.direction,
    limit: query.per_page,
    offset: (query.page - 1) * query.per_page,
  };
}

/** The column a listing in the order of `sort` goes by: an outsider's names by the names they gave. */
function sortColumnFor(actor: Actor, sort: ListQuery['sort']): SortColumn {
  return sort === 'name' && actor.uploadRequestId !== null ? 'outsider_sort_name' : SORT_COLUMNS[sort];
}

/** The item a confined actor is confined to is their root: what holds it is none of theirs. */
function seenBy(actor: Actor, item: ItemView): ItemView {
  return item.id === actor.rootId ? { ...item, parent_id: null } : item;
}

/** Browsing and organising a tree of files and folders: the rules and the access checks. */
export class FilesService {
  private readonly access: ItemAccess;

  constructor(
    private readonly items: FilesRepository,
    private readonly storage: StorageProvider,
    private readonly limits: AccountLimits,
    private readonly settings: SettingsService,
    private readonly changes: ItemChanges,
    private readonly now: () => Date,
    private readonly versions: VersionsRepository,
    /**
     * Deleting for good: the rows go in one unit of work on the owner's rows (`owners`, as every
     * write of them) that records their objects for deletion and tells `listener` of the folders that
     * go; an account's blocks (which go with it) are found through `blocks`. `listener` is told in the
     * same way of folders going to the trash and back.
     */
    private readonly deleting: {
      purges: StoragePurges;
      owners: OwnerUnits;
      blocks: Pick<BlockStoreRepository, 'blockKeysOf' | 'lockOwnerBlocks'>;
      listener: FoldersDeletedListener & FoldersTrashedListener;
    },
  ) {
    this.access = new ItemAccess(items);
  }

  // ---- browsing ----------------------------------------------------------------------------

  /**
   * A page of a folder as the API lists it: by `page`, or after the page a `cursor` ended (a keyset
   * page, however deep), with the cursor of the page after it.
   */
  async browseFolder(actor: Actor, folderRef: string | undefined, query: FolderListQuery): Promise<ItemList> {
    const sort = sortColumnFor(actor, query.sort);
    const { folder, page } = await this.listFolder(actor, folderRef, {
      sort,
      direction: query.direction,
      limit: query.per_page,
      from: query.cursor
        ? { after: decodeCursor(query.cursor, query) }
        : { offset: (query.page - 1) * query.per_page },
    });
    // The folder's own item count is the page's total: no second count over a large folder.
    const root: ItemView | null = folder
      ? seenBy(actor, {
          ...folder,
          items_count: page.total,
          has_thumbnail: false,
          ...(await this.marksOf(actor, folder.id)),
        })
      : null;
    const last = page.rows.length === query.per_page ? page.rows.at(-1)! : null;
    return presentList(page, root, query, actor, last && encodeCursor(query, sort, last));
  }

  /**
   * The one way a folder's items are read, by the API's pages and WebDAV's PROPFIND alike: the live
   * folder the actor names (the actor's root for none) and a page of what the actor sees in it.
   */
  async listFolder(
    actor: Actor,
    folderRef: string | null | undefined,
    request: ListingPage,
  ): Promise<{ folder: ItemRow | null; page: FolderPage }> {
    const folder = await this.access.folder(actor, folderRef);
    const page = await this.items.listLive(
      actor.ownerId,
      folder?.id ?? null,
      request,
      actor.uploadRequestId,
      listedAs(actor, folder?.id ?? null),
    );
    return { folder, page };
  }

  /** The folder's marks as the actor sees them: none for an anonymous visitor, read with the actor when they were. */
  private async marksOf(actor: Actor, folderId: string): Promise<ItemMarks> {
    if (!actor.userId) return { is_favourite: false };
    return listedAs(actor, folderId) ?? this.items.marksOf(actor.userId, folderId);
  }

  async latest(actor: Actor, query: ListQuery): Promise<ItemList> {
    this.access.assertWholeTree(actor);
    return presentList(await this.items.listLatest(actor.ownerId, pageRequest(query)), null, query);
  }

  async browseTrash(actor: Actor, folderRef: string | undefined, query: ListQuery): Promise<ItemList> {
    this.access.assertWholeTree(actor);
    const folderId = folderRef && folderRef !== 'all' ? folderRef : null;
    const folder = folderId ? await this.access.reachOne(actor, folderId, 'trashed', 'folder') : null;
    const page = await this.items.listTrash(actor.ownerId, folder?.id ?? null, pageRequest(query));
    const view = folder ? await this.items.findView(actor.ownerId, folder.id) : undefined;
    // The live view counts no trashed child: the folder's count is the page's total, as browseFolder's is.
    return presentList(page, view ? { ...view, items_count: page.total } : null, query);
  }

  async navigation(actor: Actor): Promise<FolderNode[]> {
    const folders = await this.items.liveFolders(actor.ownerId, actor.uploadRequestId);
    const nodes = new Map<string, FolderNode>(
      folders.map((f) => [f.id, { id: f.id, name: f.name, emoji: f.emoji, color: f.color, folders: [] }]),
    );
    // The tree starts below the actor's root; folders hanging from anything not listed are left out.
    const roots: FolderNode[] = [];
    for (const folder of folders) {
      const node = nodes.get(folder.id)!;
      if (folder.parent_id === actor.rootId) roots.push(node);
      else if (folder.parent_id) nodes.get(folder.parent_id)?.folders.push(node);
    }
    return roots;
  }

  /** Matches anywhere in the tree, or below the item a confined actor is confined to. */
  async search(actor: Actor, text: string): Promise<ItemResource[]> {
    const found = await this.items.search(actor.ownerId, sortNameOf(text), SEARCH_LIMIT, actor.rootId);
    return found.map((item) => presentItem(item, actor));
  }

  async favourites(actor: Actor): Promise<ItemResource[]> {
    if (!actor.userId) return [];
    return (await this.items.listFavourites(actor.userId)).map((item) => presentItem(item));
  }

  /** The owner's items that have a share link (My shared items). */
  async browseShared(actor: Actor, query: ListQuery): Promise<ItemList> {
    this.access.assertWholeTree(actor);
    return presentList(await this.items.listShared(actor.ownerId, pageRequest(query)), null, query);
  }

  /** The owner's team folders: the top of the owner's team listing. */
  async browseTeamFolders(actor: Actor, query: ListQuery): Promise<ItemList> {
    this.access.assertWholeTree(actor);
    return presentList(await this.items.listTeamFolders(actor.ownerId, pageRequest(query)), null, query);
  }

  /** Others' team folders the user is a member of, each shown as its member sees it (no owner's link). */
  async browseSharedWithMe(userId: string, query: ListQuery): Promise<ItemList> {
    const page = await this.items.listMemberTeamFolders(userId, pageRequest(query));
    return {
      data: page.rows.map((row) =>
        presentItem(
          { ...row, parent_id: null },
          memberActor({ ownerId: row.user_id, userId, folderId: row.id, canWrite: false }),
        ),
      ),
      meta: { paginate: paginate(page.total, query.page, query.per_page), root: null },
    };
  }

  /**
   * Every live team folder, of any owner, the user is a member of, in the order they joined them:
   * WebDAV names them so, a repeated name taking ` (2)`, so joining another folder of the same name
   * never takes the name (and a sync client's folder) from the one joined first.
   */
  memberTeamFolders(userId: string): Promise<ItemRow[]> {
    return this.items.memberTeamFoldersByJoining(userId, MEMBER_TEAM_FOLDERS_LIMIT);
  }

  /** One live item the actor may reach. */
  async show(actor: Actor, id: string, type?: ItemType): Promise<ItemResource> {
    const item = await this.access.reachOne(actor, id, 'live', type);
    return presentItem(seenBy(actor, (await this.view(actor, item.id))!), actor);
  }

  // ---- organising --------------------------------------------------------------------------

  /**
   * A new folder; a name a live item of the parent holds is refused (422 on `name`), or with
   * `keep-both` (a folder the app makes for something else, an upload request's) takes `name (1)`.
   * An upload request's outsider is refused only a name they gave an item there themselves.
   */
  async createFolder(
    actor: Actor,
    input: { name: string; emoji?: string | null; color?: string | null; parent_id?: string | null },
    conflict: 'refuse' | 'keep-both' = 'refuse',
  ): Promise<ItemResource> {
    this.access.assertCanWrite(actor);
    await this.assertMayCreateFolder(actor);
    const parentId = (await this.access.folder(actor, input.parent_id))?.id ?? null;
    const folder = await this.withFolderNames(actor.ownerId, parentId, async () => {
      if (conflict === 'refuse') await this.assertNamesFree(actor, parentId, [input.name], [], 'name');
      return this.insertFolder(actor, parentId, await this.keepBothNames(actor, parentId, input.name), input);
    });
    return this.show(actor, folder.id);
  }

  /** Refused while the owner's account may not make folders (an unpaid metered period). */
  async assertMayCreateFolder(actor: Actor): Promise<void> {
    const { restrictions } = await this.limits.of(actor.ownerId);
    if (!restrictions.canCreateFolder)
      throw new AppError(
        'forbidden',
        refusalReasonFor(actor, restrictions.reason) ?? 'errors.create_folder_disabled',
      );
  }

  async rename(
    actor: Actor,
    id: string,
    input: { name: string; type: ItemType; emoji?: string | null; color?: string | null },
  ): Promise<ItemResource> {
    this.access.assertCanWrite(actor);
    const [item] = await this.access.reachToChange(actor, [{ id, type: input.type }], 'live');
    if (item!.type === 'file' && input.name !== item!.name) await this.assertFileNameAllowed(input.name);
    await this.assertAllReceivedBelow(actor, [item!]);
    await this.withFolderNames(actor.ownerId, item!.parent_id, async () => {
      await this.assertNamesFree(actor, item!.parent_id, [input.name], [item!.id], 'name');
      await this.items.update(actor.ownerId, item!.id, {
        name: input.name,
        sort_name: sortNameOf(input.name),
        ...(actor.uploadRequestId !== null
          ? { outsider_name: input.name, outsider_sort_name: sortNameOf(input.name) }
          : {}),
        ...(input.emoji !== undefined ? { emoji: input.emoji } : {}),
        ...(input.color !== undefined ? { color: input.color } : {}),
      });
      await this.keepApart(actor, item!.parent_id, [item!.id]);
    });
    await this.changes.announce(actor.ownerId, [item!.id]);
    return this.show(actor, item!.id);
  }

  /**
   * The name itself when the folder (null: the root) holds no live item of it, else the first free
   * `name (n).ext`; the caller holds the folder's names (withFolderNames, lockFolderNames). `origin`:
   * among what that upload request made there, by the names its outsider gave them.
   */
  async keepBothName(
    ownerId: string,
    folderId: string | null,
    name: string,
    origin: string | null = null,
  ): Promise<string> {
    if (!(await this.items.findLiveChild(ownerId, folderId, name, origin))) return name;
    return freeName(name, (prefix) => this.versions.liveNamesStarting(ownerId, folderId, prefix, origin));
  }

  /**
   * The names a new item sent as `name` takes in a folder, as keepBothName chooses them: among all
   * the folder holds, and for an upload request's outsider, among what the request made there alone,
   * the name they are shown: nothing they are answered depends on a name of the owner's.
   */
  async keepBothNames(actor: Actor, folderId: string | null, name: string): Promise<ItemNames> {
    const names = { name: await this.keepBothName(actor.ownerId, folderId, name) };
    if (actor.uploadRequestId === null) return names;
    return {
      ...names,
      outsiderName: await this.keepBothName(actor.ownerId, folderId, name, actor.uploadRequestId),
    };
  }

  /**
   * An upload request's outsider renames, moves or removes a folder of theirs only while all in it
   * came through the request: a file the owner filed there would go with it (403, as for remove).
   */
  private async assertAllReceivedBelow(actor: Actor, items: readonly ItemRow[]): Promise<void> {
    if (actor.uploadRequestId === null) return;
    const folders = items.filter((item) => item.type === 'folder').map((item) => item.id);
    if (folders.length > 0)
      this.access.assertAllReceived(actor, await this.items.subtree(actor.ownerId, folders));
  }

  /**
   * Refuses (422) to give a file a new name the blacklist of the description refuses at upload, so
   * a renamed `notes.txt` never becomes the `notes.php` its upload could not have been (a name it
   * already has, from before the blacklist named it, it keeps).
   */
  async assertFileNameAllowed(name: string): Promise<void> {
    const { mimetypes_blacklist: blacklist } = await this.settings.all();
    if (isBlacklisted(blacklist, { extensions: [extensionOf(name)] }))
      throw new AppError('blacklisted_type', 'errors.blacklisted_type');
  }

  /**
   * Once an upload request's outsider put items in a folder under names of their choosing: each whose
   * name another live item there holds (one of the owner's, which the outsider never sees) takes the
   * first free `name (n).ext` there, the outsider still shown the name they gave.
   */
  private async keepApart(actor: Actor, folderId: string | null, ids: readonly string[]): Promise<void> {
    if (actor.uploadRequestId === null) return;
    for (const item of await this.items.findMany(actor.ownerId, ids)) {
      const holders = await this.items.liveChildrenNamed(actor.ownerId, folderId, [item.name]);
      if (holders.every((holder) => holder.id === item.id)) continue;
      const name = await freeName(item.name, (prefix) =>
        this.versions.liveNamesStarting(actor.ownerId, folderId, prefix),
      );
      await this.items.update(actor.ownerId, item.id, { name, sort_name: sortNameOf(name) });
    }
  }

  /**
   * Refuses (422 on `field`) to give a name a live item of the folder holds, or one name to two items:
   * WebDAV and the sync clients reach only the older of two live items of one name. `own`: the items
   * the names are for, which may hold them already. An upload request's outsider is refused only the
   * names they gave what the request made there: the owner's are not theirs to learn.
   */
  private async assertNamesFree(
    actor: Actor,
    folderId: string | null,
    names: readonly string[],
    own: readonly string[],
    field: string,
  ): Promise<void> {
    const held = await this.items.liveChildrenNamed(actor.ownerId, folderId, names, actor.uploadRequestId);
    const taken =
      names.find((name, at) => names.indexOf(name) !== at) ?? held.find((row) => !own.includes(row.id))?.name;
    if (taken !== undefined)
      throw new AppError(
        'validation_failed',
        'validation.name_taken',
        { [field]: ['validation.name_taken'] },
        { name: taken },
      );
  }

  /**
   * Runs `work` in one unit of work holding the names of the owner's folder (null: the root), as an
   * upload does while it looks for a name and files it: a writer that checks a name is free (or
   * removes what holds it) and then puts an item there cannot race another into two live items of
   * that name.
   */
  withFolderNames<T>(ownerId: string, folderId: string | null, work: () => Promise<T>): Promise<T> {
    return this.deleting.owners.transaction(ownerId, async () => {
      await this.items.lockFolderNames(ownerId, folderId);
      return work();
    });
  }

  /**
   * Moves items into a folder (or the root), all or none; a folder never goes into itself or below
   * itself, nor an item onto a name a live item holds there. With `name`, the one item moved takes
   * that name there (a WebDAV MOVE), its own name left free to another. `destination`: who the caller
   * is over the target folder, when it was decided apart: a move between two trees the caller
   * reaches (a team folder and their own files, two team folders) is 403, as anything else a member
   * tries.
   */
  async move(
    actor: Actor,
    toRef: string | null | undefined,
    refs: { id: string; type: ItemType }[],
    { name, destination }: { name?: string; destination?: Actor } = {},
  ): Promise<void> {
    this.access.assertCanWrite(actor);
    if (destination && (destination.ownerId !== actor.ownerId || destination.rootId !== actor.rootId))
      throw new AppError('forbidden', 'errors.forbidden');
    const target = await this.access.folder(actor, toRef);
    const moving = await this.access.reachToChange(actor, refs, 'live');
    await this.assertAllReceivedBelow(actor, moving);
    if (name !== undefined && moving[0]!.type === 'file' && name !== moving[0]!.name)
      await this.assertFileNameAllowed(name);
    const targetId = target?.id ?? null;
    await this.withFolderNames(actor.ownerId, targetId, async () => {
      await this.items.lockTree(actor.ownerId);
      if (target) {
        const chain = await this.items.ancestorIds(actor.ownerId, target.id);
        if (moving.some((item) => chain.includes(item.id))) {
          throw AppError.invalid('to_id', 'validation.move_into_itself');
        }
        const folders = moving.filter((item) => item.type === 'folder').map((item) => item.id);
        await this.assertNoTeamInTeam(actor.ownerId, chain, 'to_id', () =>
          this.items.teamFoldersWithin(actor.ownerId, folders),
        );
      }
      const ids = moving.map((item) => item.id);
      await this.assertNamesFree(
        actor,
        targetId,
        name ? [name] : moving.map((item) => nameSeenBy(actor, item)),
        ids,
        'items',
      );
      await this.items.move(actor.ownerId, ids, targetId);
      if (name && name !== moving[0]!.name)
        await this.items.update(actor.ownerId, moving[0]!.id, { name, sort_name: sortNameOf(name) });
      await this.keepApart(actor, targetId, ids);
    });
    // Where they are now and the folders they left.
    await this.changes.announce(
      actor.ownerId,
      moving.flatMap((item) => [item.id, item.parent_id]),
    );
  }

  /**
   * One team per branch of the tree: a team folder moved or restored into another (or a folder
   * holding one) would give the outer team's members a say over the inner one's, and split who
   * decides. `chain`: the folder they go into and those above it; `coming`: the team folders they bring.
   */
  private async assertNoTeamInTeam(
    ownerId: string,
    chain: readonly string[],
    field: string,
    coming: () => Promise<readonly string[]>,
  ) {
    if ((await this.items.teamFoldersAmong(ownerId, chain)).length === 0) return;
    if ((await coming()).length > 0) throw AppError.invalid(field, 'teams.team_in_team');
  }

  /**
   * Soft delete to the trash (cascading to what is inside), or, with force_delete, gone with its
   * bytes. What a confined actor deletes always goes to the owner's trash, where only the owner decides.
   */
  async remove(actor: Actor, refs: { id: string; type: ItemType; force_delete: boolean }[]): Promise<void> {
    this.access.assertCanWrite(actor);
    const items = await this.access.reachToChange(actor, refs, 'any');
    const forced = new Set(actor.rootId === null ? refs.filter((r) => r.force_delete).map((r) => r.id) : []);
    const toTrash = items.filter((item) => !forced.has(item.id) && item.deleted_at === null);
    const toDelete = items.filter((item) => forced.has(item.id));
    // A team folder that goes with a folder above it (or for good, its memberships with it) leaves
    // its members' open listings to be told.
    const members = await this.changes.membersWithin(
      actor.ownerId,
      items.filter((item) => item.type === 'folder').map((item) => item.id),
    );
    const now = this.now().toISOString();
    // All the items go, or none: a failure halfway leaves nothing trashed.
    await this.deleting.owners.transaction(actor.ownerId, async () => {
      const trashedFolders: string[] = [];
      for (const item of toTrash) {
        const below = await this.items.subtree(actor.ownerId, [item.id]);
        this.access.assertAllReceived(actor, below);
        await this.items.trash(
          actor.ownerId,
          item.id,
          below.map((row) => row.id),
          now,
        );
        // Those already in the trash (gone there on their own before) were told of then.
        for (const row of below)
          if (row.type === 'folder' && row.deleted_at === null) trashedFolders.push(row.id);
      }
      // Once for the whole change: each listener reads what it keeps of the owner's folders once.
      if (trashedFolders.length > 0)
        await this.deleting.listener.foldersTrashed(actor.ownerId, trashedFolders);
      await this.destroy(
        actor.ownerId,
        toDelete.map((item) => item.id),
      );
    });
    // Trashed items still name their folders; the folders of deleted ones are named for them.
    await this.changes.announce(
      actor.ownerId,
      items.flatMap((item) => [item.id, item.parent_id]),
      members,
    );
  }

  /** Restores trashed items to where they were, or to the root with to_home or when that folder is gone. */
  async restore(actor: Actor, toHome: boolean, refs: { id: string; type: ItemType }[]): Promise<void> {
    this.access.assertCanWrite(actor);
    const items = await this.access.reach(actor, refs, 'trashed');
    // All the items come back, or none: a refusal halfway (a team folder that may not come back
    // where it was) leaves every item in the trash.
    await this.deleting.owners.transaction(actor.ownerId, () => this.restoreEach(actor, toHome, items));
    // The members of team folders that came back inside a restored folder follow their listings too.
    const members = await this.changes.membersWithin(
      actor.ownerId,
      items.filter((item) => item.type === 'folder').map((item) => item.id),
    );
    await this.changes.announce(
      actor.ownerId,
      items.map((item) => item.id),
      members,
    );
  }

  private async restoreEach(actor: Actor, toHome: boolean, items: readonly ItemRow[]): Promise<void> {
    for (const { id } of items) {
      // A folder restored before it in the list may have brought it back already.
      const item = await this.items.findOne(actor.ownerId, id);
      if (!item || item.deleted_at === null) continue;
      let parentId = toHome ? null : item.parent_id;
      if (parentId) {
        const parent = await this.items.findOne(actor.ownerId, parentId);
        if (!parent || parent.deleted_at !== null) parentId = null;
      }
      const into = parentId ?? actor.rootId;
      // Back among what the folder holds now: under a free name (`name (1).ext`) when another item
      // took its name meanwhile, never as a second item of one name.
      await this.withFolderNames(actor.ownerId, into, async () => {
        // A child of a trashed folder restored on its own leaves that folder's batch first.
        if (item.trashed_by !== item.id) await this.detachFromBatch(actor.ownerId, item);
        // The folders above `into` stay as read until it is back (a move waits).
        if (into && item.type === 'folder') await this.items.lockTree(actor.ownerId);
        // The folders that come back with it (trashed, so no live walk finds them).
        const returning =
          item.type === 'folder'
            ? (await this.items.subtree(actor.ownerId, [item.id]))
                .filter((row) => row.type === 'folder' && row.trashed_by === item.id)
                .map((row) => row.id)
            : [];
        // Its folder may have gone into a team folder meanwhile: they bring no team folder in there.
        if (into && returning.length > 0)
          await this.assertNoTeamInTeam(
            actor.ownerId,
            await this.items.ancestorIds(actor.ownerId, into),
            'items',
            () => this.items.teamFoldersAmong(actor.ownerId, returning),
          );
        const name = await this.keepBothName(actor.ownerId, into, item.name);
        if (name !== item.name)
          await this.items.update(actor.ownerId, item.id, { name, sort_name: sortNameOf(name) });
        // What an upload request made keeps, among what that request made there, a name of its own
        // for its outsider: another of theirs may have taken it meanwhile.
        if (item.upload_request_id !== null && item.outsider_name !== null) {
          const outsiderName = await this.keepBothName(
            actor.ownerId,
            into,
            item.outsider_name,
            item.upload_request_id,
          );
          if (outsiderName !== item.outsider_name)
            await this.items.update(actor.ownerId, item.id, {
              outsider_name: outsiderName,
              outsider_sort_name: sortNameOf(outsiderName),
            });
        }
        await this.items.restore(actor.ownerId, item.id, into);
        await this.deleting.listener.foldersRestored(actor.ownerId, returning);
      });
    }
  }

  /** Empties the trash: every trashed item and its bytes are gone. */
  async dumpTrash(actor: Actor): Promise<void> {
    this.access.assertCanWrite(actor);
    this.access.assertWholeTree(actor);
    await this.destroy(actor.ownerId, await this.items.trashedRootIds(actor.ownerId));
    // The trash is the owner's alone.
    await this.changes.announce(actor.ownerId, []);
  }

  /** Favourites mark the user's own items; a team member's favourites would outlive their membership. */
  async addFavourites(actor: Actor, ids: string[]): Promise<void> {
    if (!actor.userId) throw notFound();
    if (actor.userId !== actor.ownerId) throw new AppError('forbidden', 'errors.forbidden');
    const items = await this.access.reach(
      actor,
      ids.map((id) => ({ id })),
      'live',
    );
    await this.items.addFavourites(
      actor.userId,
      items.map((item) => item.id),
    );
  }

  async removeFavourite(actor: Actor, id: string): Promise<void> {
    if (!actor.userId) throw notFound();
    const item = await this.access.reachOne(actor, id, 'any');
    await this.items.removeFavourite(actor.userId, item.id);
  }

  // ---- usage -------------------------------------------------------------------------------

  async storageUsage(actor: Actor): Promise<StorageUsage['data']> {
    this.access.assertWholeTree(actor);
    const [stored, { capacity }, settings] = await Promise.all([
      this.items.usageByMimetype(actor.ownerId),
      this.limits.of(actor.ownerId),
      this.settings.all(),
    ]);
    const { used, categories: totals } = bytesByCategory(stored);
    const base = capacity ?? used;
    const percent = (bytes: number) => (base > 0 ? Math.round((bytes / base) * 10000) / 100 : 0);
    const categories: StorageUsage['data']['categories'] = [...totals].map(([category, bytes]) => ({
      category,
      used: bytes,
      percentage: percent(bytes),
    }));
    // The description adds the free share for fixed plans, and for no plan when storage is limited.
    const showsFree =
      capacity !== null &&
      (settings.subscription_type === 'fixed' ||
        (settings.subscription_type === 'none' && settings.storage_limitation));
    if (showsFree) {
      const free = Math.max(0, capacity - used);
      categories.push({ category: 'empty', used: free, percentage: percent(free) });
    }
    categories.sort((a, b) => b.percentage - a.percentage || b.used - a.used);
    return { used, capacity, percentage: Math.min(100, Math.round(percent(used))), categories };
  }

  // ---- shared with the upload service ------------------------------------------------------

  /** A new folder in the actor's owner's tree, marked with the upload request it came through, if any. */
  async insertFolder(
    actor: Actor,
    parentId: string | null,
    name: string | ItemNames,
    look: { emoji?: string | null; color?: string | null } = {},
  ): Promise<ItemRow> {
    const names = typeof name === 'string' ? { name } : name;
    const folder = await this.items.insert(
      newFolderItem(actor, parentId, names, this.now().toISOString(), look),
    );
    await this.changes.announce(actor.ownerId, [folder.id]);
    return folder;
  }

  /** Deletes a folder just made that a twin made at the same time wins over (no trash: it never held anything). */
  async withdrawFolder(actor: Actor, folder: Pick<ItemRow, 'id' | 'parent_id'>): Promise<void> {
    await this.items.deleteItems(actor.ownerId, [folder.id]);
    await this.changes.announce(actor.ownerId, [folder.parent_id]);
  }

  /**
   * Deletes every item and unfinished upload of an account that goes, and records the storage objects
   * they name (a batch at a time), those its quota reservations hold and the account's `otherKeys`
   * (its avatar's) with the job that deletes them. Run inside the caller's unit of work: the rows, the
   * record of their objects, its job and the account go together.
   */
  async purgeOwner(
    ownerId: string,
    otherKeys: () => Promise<readonly string[]> = async () => [],
  ): Promise<void> {
    // Held until the caller's unit (which deletes the account) commits: no block write of the owner
    // lands between the list of its block objects below and the cascade that deletes their rows.
    await this.deleting.blocks.lockOwnerBlocks(ownerId, 'exclusive');
    // Read after that lock (reading the avatar locks the account's row): a block write takes the
    // block lock before it names the account, so the account's row taken first would deadlock with it.
    const others = await otherKeys();
    const purge = await this.deleting.purges.open();
    for await (const objects of this.items.storedObjectsOf(ownerId, PURGE_BATCH)) await purge.add(objects);
    const versionKeys = await this.versions.versionKeysOf(ownerId);
    await purge.add([...versionKeys, ...others].map(objectAt));
    // Its blocks' rows go with the account (a cascade); their objects with the rest.
    for await (const keys of this.deleting.blocks.blockKeysOf(ownerId, PURGE_BATCH))
      await purge.add(keys.map(objectAt));
    // What a killed process was writing under a reservation, which the upload sweep would have deleted.
    await purge.takeHeldBy(ownerId);
    await this.changes.announceTreeGone(ownerId);
    await this.deleting.listener.foldersDeleted(ownerId, null);
    await this.items.deleteOwned(ownerId);
  }

  view(actor: Actor, id: string): Promise<ItemView | undefined> {
    return this.items.findView(actor.ownerId, id, actor.uploadRequestId);
  }

  /**
   * Deletes items with everything below them, their contents (current and kept versions) that nothing
   * else names, and their thumbnails, in one unit of work that records the objects those rows named
   * with the job that deletes them: the objects go once it commits (by the job, if this process dies
   * first), so no row ever names bytes that are gone and no bytes stay behind for good.
   */
  private async destroy(ownerId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.deleting.owners.transaction(ownerId, async () => {
      const doomed = await this.keepOtherTrashEntries(ownerId, ids);
      const doomedIds = doomed.map((row) => row.id);
      const thumbnails = await this.items.thumbnailsOf(doomedIds);
      const contents = await this.versions.contentsOf(ownerId, doomedIds);
      await this.deleting.listener.foldersDeleted(
        ownerId,
        doomed.filter((row) => row.type === 'folder').map((row) => row.id),
      );
      await this.items.deleteItems(ownerId, ids);
      // Bytes another item or version still names (a content they share) stay.
      const gone = await this.versions.deleteOrphanContents(
        ownerId,
        contents.map((content) => content.id),
      );
      const keys = [
        ...new Set([
          ...gone,
          // A file without a content row (none is filed so since migration 0035) names its object itself.
          ...doomed.flatMap((row) => (row.storage_key && row.content_id === null ? [row.storage_key] : [])),
        ]),
        ...thumbnails.map((t) => t.storage_key),
      ];
      await this.deleting.purges.discard(keys.map(objectAt));
    });
  }

  /**
   * What was put in the trash on its own before a folder above it went there, or while that folder
   * stayed (an entry of the trash of its own), is no part of that folder's deletion for good: it
   * stays in the trash, out of the folder, and is restored to My files as it would be once its
   * folder is gone. Emptying the trash names every entry, so nothing is kept then. Answers what the
   * deletion then takes: the named items and all below them.
   */
  private async keepOtherTrashEntries(ownerId: string, ids: readonly string[]): Promise<ItemRow[]> {
    const named = new Set(ids);
    const below = await this.items.subtree(ownerId, ids);
    const entries = new Set(
      below
        .filter((row) => row.deleted_at !== null && row.trashed_by === row.id && !named.has(row.id))
        .map((row) => row.id),
    );
    if (entries.size === 0) return below;
    const parentOf = new Map(below.map((row) => [row.id, row.parent_id]));
    // An entry inside another kept entry stays where it is, with it.
    const insideEntry = (id: string) => {
      for (let at = parentOf.get(id); at; at = parentOf.get(at)) if (entries.has(at)) return true;
      return false;
    };
    const outermost = [...entries].filter((id) => !insideEntry(id));
    await this.items.move(ownerId, outermost, null);
    return this.items.subtree(ownerId, ids);
  }

  /** The item, and what was trashed with it below it, become a batch of their own. */
  private async detachFromBatch(ownerId: string, item: ItemRow): Promise<void> {
    const below = await this.items.subtree(ownerId, [item.id]);
    const batch = below.filter((row) => row.trashed_by === item.trashed_by).map((row) => row.id);
    await this.items.setTrashBatch(ownerId, batch, item.id);
  }
}
