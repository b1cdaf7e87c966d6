import { ItemName } from '@atelier/contracts';
import { createHash, randomUUID } from 'node:crypto';
import { pipeline, Readable } from 'node:stream';
import { AppError } from '../../lib/app-error';
import { KeyedQueue } from '../../lib/keyed-queue';
import type { ContentReader } from '../files/block-store';
import { contentEtag, type Download, type DownloadService } from '../files/download.service';
import { isOwner, ItemAccess, type Actor, type ActorResolver } from '../files/files.access';
import type { ItemReader, ListingPage } from '../files/files.ports';
import type { AccountLimits, FilesService } from '../files/files.service';
import type { ItemRow } from '../files/files.tables';
import type { OwnerUnits } from '../files/owner-units';
import type { UserRow } from '../../db/schema';
import type { AlongsideFiling, UploadService } from '../files/upload.service';
import {
  conflictsWith,
  covers,
  isBelow,
  listHolds,
  LOCK_TOKEN_PREFIX,
  lockSeconds,
  LOCK_OWNER_MAX_BYTES,
  LOCKS_PER_OWNER_MAX,
  submittedTokens,
  type IfList,
  type ResourceState,
} from './webdav.locks';
import { verifyingChecksum, type ClientChecksum } from './webdav.checksums';
import { isLiveProperty, type ActiveLock, type DavResource } from './webdav.presenter';
import { assertEntityConditions, type EntityConditions } from './webdav.preconditions';
import { DavRefusal, type PropertyOutcome } from './webdav.refusals';
import type { WebdavRepository } from './webdav.repository';
import { propertyBytes, type DavLockRow, type DavPropertyRow, type LockDepth } from './webdav.tables';
import type { LockRequest, PropertyName, PropertyUpdate } from './webdav.xml';

export const DAV_PREFIX = '/dav';
/** Nextcloud's WebDAV addresses, which its sync clients and rclone's `nextcloud` vendor use. */
export const NEXTCLOUD_FILES_PREFIX = '/remote.php/dav/files';
export const NEXTCLOUD_WEBDAV_PREFIX = '/remote.php/webdav';

/** The signed-in user a request acts for. */
export type DavUser = Pick<UserRow, 'id' | 'email'>;

/**
 * Where a tree of items is served. `dav`: Atelier's own `/dav/` with `files/` (My files) and
 * `shared/{name}/` (team folders) below it. `nextcloud`: Nextcloud's layout, My files at the mount
 * itself with the user's team folders of others among its members, where Nextcloud shows shared mounts.
 */
export interface DavMount {
  layout: 'dav' | 'nextcloud';
  /** The hrefs of the mount start with it; no trailing slash (`/remote.php/dav/files/{user}`). */
  prefix: string;
}

/** A tree of items reached over WebDAV: My files, or one team folder the user is a member of. */
interface Tree {
  actor: Actor;
  mount: DavMount;
  /** The tree root's href: `/dav/files/`, `/dav/shared/{name}/`, `/remote.php/webdav/{name}/`… */
  href: string;
  /** The folder the tree starts at (null: the owner's root) and its path in the owner's tree. */
  base: ItemRow | null;
  path: string;
}

/** Where a request URL points inside a tree; `item` is null when nothing is there (yet). */
export interface TreeLocation {
  space: 'tree';
  tree: Tree;
  href: string;
  /** The path in the owner's tree, which locks are taken on. */
  path: string;
  name: string;
  isRoot: boolean;
  exists: boolean;
  item: ItemRow | null;
  /** The folder holding it (null: the owner's root), or undefined when that folder does not exist. */
  parent: ItemRow | null | undefined;
}

export type DavLocation = { space: 'root'; href: string } | { space: 'shared'; href: string } | TreeLocation;

/** What a sync client says of the bytes it PUTs: their modification time (X-OC-MTime) and checksum (OC-Checksum). */
export interface ClientFileState {
  modifiedAt: Date | null;
  checksum: ClientChecksum | null;
}

/** An item (null: the owner's root) a PROPFIND describes, and where it is seen. */
interface Described {
  href: string;
  row: ItemRow | null;
  path: string;
  dead: DavPropertyRow[];
  /** The root of its tree: My files, or a team folder seen by a member. */
  isRoot: boolean;
  /** Team folders shown among its members (Nextcloud's layout of My files). */
  mounted: readonly { folder: ItemRow; resource: DavResource }[];
}

/** What a writing request brings: its user and its parsed `If` header. */
export interface WriteContext {
  user: DavUser;
  ifLists: IfList[] | null;
  /** If-Match and If-None-Match, on the request's own resource. */
  entity?: EntityConditions;
}

/**
 * What one resource may keep in dead properties: clients keep a few small ones (Windows its file
 * times, macOS a handful of attributes), and each byte sits in the database and in every PROPFIND
 * that lists the resource. A property counts the bytes of its namespace, name and value.
 */
export const PROPERTY_LIMITS = { count: 64, bytes: 64 * 1024, propertyBytes: 16 * 1024 } as const;
/** The members of a folder a PROPFIND reads at once: with their dead properties, a few megabytes at most. */
const PROPFIND_PAGE = 100;

/**
 * WebDAV over the product's own files: every path resolves to items of the actor the API would use,
 * and every change goes through the files services (access, restrictions, upload rules, quota, trash),
 * so the listing versions and everything the web watches move exactly as for the API.
 */
export class WebdavService {
  private readonly access: ItemAccess;
  private readonly folderCreations = new KeyedQueue();

  constructor(
    private readonly deps: {
      dav: WebdavRepository;
      items: ItemReader;
      files: FilesService;
      uploads: UploadService;
      downloads: DownloadService;
      /** Files' bytes, whatever their layout (the files module's block store). */
      contents: ContentReader;
      limits: AccountLimits;
      /** Runs a unit of work on an owner's rows after holding the owner's account (see OwnerUnits). */
      owners: OwnerUnits;
      actors: ActorResolver;
      now: () => Date;
    },
  ) {
    this.access = new ItemAccess(deps.items);
  }

  // ---- resolving URLs ----------------------------------------------------------------------

  /**
   * The location of a URL path under one of the mounts (`/dav/…`, `/remote.php/webdav/…`,
   * `/remote.php/dav/files/{user}/…`); not found for anything outside the user's trees, a
   * `{user}` that names someone else included.
   */
  async locate(user: DavUser, urlPath: string): Promise<DavLocation> {
    const { mount, rest } = mountOf(user, urlPath.split('?', 1)[0]!);
    const segments = decodeSegments(rest);
    if (mount.layout === 'nextcloud') return this.locateNextcloud(user, mount, segments);
    if (segments.length === 0) return { space: 'root', href: `${DAV_PREFIX}/` };
    const [space, ...below] = segments;
    if (space === 'files') {
      const actor = await this.deps.actors.of(user.id, []);
      return this.walk({ actor, mount, href: `${DAV_PREFIX}/files/`, base: null, path: '/' }, below);
    }
    if (space === 'shared') {
      if (below.length === 0) return { space: 'shared', href: `${DAV_PREFIX}/shared/` };
      const folder = (await this.teamFolders(user.id)).get(below[0]!);
      if (!folder) throw new DavRefusal('not_found');
      return this.walkTeamFolder(user, mount, `${DAV_PREFIX}/shared/`, below[0]!, folder, below.slice(1));
    }
    throw new DavRefusal('not_found');
  }

  /** In Nextcloud's layout: an item of My files, or, where none has the first name, a team folder of that name. */
  private async locateNextcloud(user: DavUser, mount: DavMount, segments: string[]): Promise<TreeLocation> {
    const actor = await this.deps.actors.of(user.id, []);
    const own = await this.walk({ actor, mount, href: `${mount.prefix}/`, base: null, path: '/' }, segments);
    if (segments.length === 0 || (segments.length === 1 ? own.exists : own.parent !== undefined)) return own;
    const folder = (await this.mountedTeamFolders(actor)).get(segments[0]!);
    if (!folder) return own;
    return this.walkTeamFolder(user, mount, `${mount.prefix}/`, segments[0]!, folder, segments.slice(1));
  }

  private async walkTeamFolder(
    user: DavUser,
    mount: DavMount,
    hrefAbove: string,
    name: string,
    folder: ItemRow,
    segments: string[],
  ): Promise<TreeLocation> {
    const actor = await this.deps.actors.of(user.id, [folder.id]);
    const path = `/${(await this.deps.items.namesDownTo(actor.ownerId, folder.id)).join('/')}`;
    return this.walk(
      { actor, mount, href: `${hrefAbove}${encodeSegment(name)}/`, base: folder, path },
      segments,
    );
  }

  /** A Destination header's target: same host, inside a tree (a foreign destination elsewhere, as RFC 4918 says). */
  async locateDestination(
    user: DavUser,
    destination: string | undefined,
    host: string | undefined,
  ): Promise<TreeLocation> {
    if (!destination) throw new DavRefusal('malformed');
    let url: URL;
    try {
      url = new URL(destination, `http://${host ?? 'localhost'}`);
    } catch {
      throw new DavRefusal('malformed');
    }
    // Hosts compared as URLs do, so `example.com:80` and `example.com` are the same server.
    if (host && url.host !== new URL(`http://${host}`).host) throw new DavRefusal('foreign_destination');
    if (!isMounted(url.pathname)) throw new DavRefusal('foreign_destination');
    const location = await this.locate(user, url.pathname);
    if (location.space !== 'tree') throw new DavRefusal('outside_tree');
    return location;
  }

  private async walk(tree: Tree, segments: string[]): Promise<TreeLocation> {
    const owner = tree.actor.ownerId;
    if (segments.length === 0)
      return {
        space: 'tree',
        tree,
        href: tree.href,
        path: tree.path,
        name: '',
        isRoot: true,
        exists: true,
        item: tree.base,
        parent: undefined,
      };
    let parent: ItemRow | null | undefined = tree.base;
    let href = tree.href;
    for (const name of segments.slice(0, -1)) {
      const folder: ItemRow | undefined =
        parent === undefined
          ? undefined
          : await this.deps.items.findLiveChild(owner, parent?.id ?? null, name);
      parent = folder?.type === 'folder' ? folder : undefined;
      href += `${encodeSegment(name)}/`;
    }
    const name = segments.at(-1)!;
    const item =
      parent === undefined ? undefined : await this.deps.items.findLiveChild(owner, parent?.id ?? null, name);
    const path = `${tree.path === '/' ? '' : tree.path}/${segments.join('/')}`;
    return {
      space: 'tree',
      tree,
      href: `${href}${encodeSegment(name)}${item?.type === 'folder' ? '/' : ''}`,
      path,
      name,
      isRoot: false,
      exists: item !== undefined,
      item: item ?? null,
      parent,
    };
  }

  /** The user's team folders by the name each has under /dav/shared/ (a repeated name gets ` (2)`). */
  private async teamFolders(userId: string): Promise<Map<string, ItemRow>> {
    return byFreeName(await this.deps.files.memberTeamFolders(userId), async () => false);
  }

  /**
   * The team folders Nextcloud's layout shows among the members of My files, by name; one whose name
   * an item of My files (or a team folder before it) has takes ` (2)`, ` (3)`…
   */
  private async mountedTeamFolders(actor: Actor): Promise<Map<string, ItemRow>> {
    return byFreeName(
      await this.deps.files.memberTeamFolders(actor.ownerId),
      async (name) => (await this.deps.items.findLiveChild(actor.ownerId, null, name)) !== undefined,
    );
  }

  // ---- reading -----------------------------------------------------------------------------

  /**
   * The resources a PROPFIND answers, read as they are written out: a folder's members come a page
   * at a time with their dead properties, so a big folder is never held in memory whole.
   */
  async propfind(
    user: DavUser,
    location: DavLocation,
    depth: '0' | '1',
  ): Promise<AsyncIterable<DavResource>> {
    if (location.space === 'root') {
      const self = virtualCollection(location.href, 'dav');
      if (depth === '0') return each([self]);
      return each([
        self,
        virtualCollection(`${DAV_PREFIX}/files/`, 'files'),
        virtualCollection(`${DAV_PREFIX}/shared/`, 'shared'),
      ]);
    }
    if (location.space === 'shared') {
      const self = virtualCollection(location.href, 'shared');
      if (depth === '0') return each([self]);
      return each([self, ...teamFolderResources(location.href, await this.teamFolders(user.id))]);
    }
    if (!location.exists) throw new DavRefusal('not_found');
    const { tree } = location;
    const owner = tree.actor.ownerId;
    const item = location.item;
    const listed = depth === '1' && (item === null || item.type === 'folder');
    const [own, locks, quota] = await Promise.all([
      this.deps.dav.properties(owner, item ? [item.id] : []),
      this.deps.dav.liveLocks(owner, this.deps.now().toISOString()),
      this.quotaOf(tree),
    ]);
    const locksOn = (path: string): ActiveLock[] =>
      locks
        .filter((lock) => covers(lock, path))
        .map((lock) => ({ lock, rootHref: this.hrefOf(tree, lock.path) }));
    // Nextcloud's layout shows the team folders of others among the members of My files.
    const mounted =
      location.isRoot && tree.base === null && tree.mount.layout === 'nextcloud'
        ? await this.mountedTrees(user, tree)
        : [];
    const [self] = await this.describe(tree, [
      {
        href: location.href,
        row: item,
        path: location.path,
        dead: own,
        isRoot: location.isRoot,
        mounted,
      },
    ]);
    const below = location.path === '/' ? '' : location.path;
    const members = this.members(tree.actor, item);
    const describe = (entries: Described[]) => this.describe(tree, entries);
    const withQuota = (resource: DavResource): DavResource => ({
      ...resource,
      ...(resource.collection ? { quota } : {}),
      locks: [],
    });
    const { dav } = this.deps;
    return (async function* () {
      yield { ...withQuota(self!), locks: locksOn(location.path) };
      if (!listed) return;
      for await (const page of members) {
        const properties = await dav.properties(
          owner,
          page.map((child) => child.id),
        );
        const deadOf = new Map<string, DavPropertyRow[]>();
        for (const property of properties)
          deadOf.set(property.item_id, [...(deadOf.get(property.item_id) ?? []), property]);
        const resources = await describe(
          page.map((child) => ({
            href: `${location.href}${encodeSegment(child.name)}${child.type === 'folder' ? '/' : ''}`,
            row: child,
            path: `${below}/${child.name}`,
            dead: deadOf.get(child.id) ?? [],
            isRoot: false,
            mounted: [],
          })),
        );
        for (const [i, resource] of resources.entries())
          yield { ...withQuota(resource), locks: locksOn(`${below}/${page[i]!.name}`) };
      }
      for (const mount of mounted) yield withQuota(mount.resource);
    })();
  }

  /**
   * RFC 4331's quota of a tree's collections. The owner's own: what the account uses and has left. A
   * member's of a team folder: what the team folder holds (never the rest of the owner's account), and
   * for an editor the room left to write into it; a viewer, who writes nothing, is shown none.
   */
  private async quotaOf(tree: Tree): Promise<{ used: number; available: number | null }> {
    const owner = tree.actor.ownerId;
    const usage = await this.deps.limits.of(owner);
    const available = usage.capacity === null ? null : usage.capacity - usage.used;
    if (tree.base === null) return { used: usage.used, available };
    const held = (await this.deps.items.subtreeStates(owner, [tree.base.id])).get(tree.base.id);
    return { used: held?.bytes ?? 0, available: tree.actor.canWrite ? available : 0 };
  }

  /**
   * The resources of items of a tree (null: the owner's root) with what sync clients read: a folder's
   * ETag and size from its live subtree, a file's time and checksums as its client gave them.
   */
  private async describe(tree: Tree, entries: Described[]): Promise<DavResource[]> {
    const owner = tree.actor.ownerId;
    const rows = entries.flatMap((entry) => (entry.row ? [entry.row] : []));
    const ids = rows.map((row) => row.id);
    const [states, root, meta, marks] = await Promise.all([
      this.deps.items.subtreeStates(
        owner,
        rows.filter((row) => row.type === 'folder').map((row) => row.id),
      ),
      entries.some((entry) => entry.row === null) ? this.deps.items.rootState(owner) : null,
      this.deps.dav.fileMeta(rows),
      this.deps.items.syncMarksOf(owner, tree.actor.userId, ids),
    ]);
    // Links are their owner's: a member sees none on a team folder's items.
    const { favourites } = marks;
    const linked = tree.base === null ? marks.linked : new Set<string>();
    return entries.map(({ href, row, dead, isRoot, mounted }) => {
      const state = row ? states.get(row.id) : root!;
      const file = row?.type === 'file' ? meta.get(row.id) : undefined;
      const base = row ? itemResource(href, row) : virtualCollection(href, 'files');
      // A tree's root with team folders mounted in it changes with them too; a member's view of a
      // team folder with their permission, which its items' oc:permissions say (clients re-read a
      // folder only when its ETag changed).
      const version = [
        state?.version ?? '',
        ...(tree.base !== null && !isOwner(tree.actor) ? [tree.actor.canWrite ? 'editor' : 'viewer'] : []),
        ...mounted.map((m) => `${m.folder.id}:${m.resource.etag}`),
      ].join('/');
      return {
        ...base,
        modifiedAt: file?.modified_at ?? base.modifiedAt,
        etag: row?.type === 'file' ? base.etag : folderEtag(version),
        dead,
        sync: {
          fileId: row?.id ?? owner,
          id: ocId(row?.id ?? owner),
          permissions: permissionsOf(tree, row?.type ?? 'folder', isRoot),
          size: row?.type === 'file' ? Number(row.size) : (state?.bytes ?? 0) + sumOf(mounted),
          checksums: file?.checksums ?? null,
          favorite: row ? favourites.has(row.id) : false,
          shareTypes: row && linked.has(row.id) ? [SHARE_TYPE_LINK] : [],
          hasPreview: row?.type === 'file' && (row.mimetype?.startsWith('image/') ?? false),
        },
      };
    });
  }

  /** The team folders mounted in a member's My files, each described as the root of its tree. */
  private async mountedTrees(
    user: DavUser,
    tree: Tree,
  ): Promise<{ folder: ItemRow; resource: DavResource }[]> {
    const mounted: { folder: ItemRow; resource: DavResource }[] = [];
    for (const [name, folder] of await this.mountedTeamFolders(tree.actor)) {
      const location = await this.walkTeamFolder(user, tree.mount, tree.href, name, folder, []);
      const [resource] = await this.describe(location.tree, [
        { href: location.href, row: folder, path: location.path, dead: [], isRoot: true, mounted: [] },
      ]);
      mounted.push({ folder, resource: { ...resource!, displayName: name } });
    }
    return mounted;
  }

  /** A file's bytes for GET and HEAD; a collection has none to give. */
  async download(location: DavLocation): Promise<Download> {
    if (location.space !== 'tree' || location.item?.type !== 'file') {
      throw new DavRefusal(location.space === 'tree' && !location.exists ? 'not_found' : 'not_a_file');
    }
    const [download, meta] = await Promise.all([
      this.deps.downloads.file(location.tree.actor, location.item.id),
      this.deps.dav.fileMeta([location.item]),
    ]);
    // The time PROPFIND answers: a client sets its copy's time from this Last-Modified and compares
    // the two on its next run (Nextcloud's engine downloads a file again when they differ).
    const modifiedAt = meta.get(location.item.id)?.modified_at;
    return modifiedAt ? { ...download, modifiedAt } : download;
  }

  // ---- writing -----------------------------------------------------------------------------

  /**
   * Stores a PUT's body at the location through the upload rules; an existing file keeps its id,
   * favourites and share and takes the new bytes, keeping the ones it had as a version.
   * `expectedBytes` (Content-Length) lets a body past the quota be refused before any byte is read,
   * unless versions old enough to go could make room for it.
   */
  async put(
    context: WriteContext,
    location: DavLocation,
    body: Readable,
    expectedBytes: number | null,
    client: ClientFileState = { modifiedAt: null, checksum: null },
  ): Promise<{ created: boolean; etag: string; fileId: string }> {
    const target = this.writable(location);
    if (target.item?.type === 'folder') throw new DavRefusal('not_a_file');
    const parent = this.parentOf(target);
    await this.guard(context, target, [
      { path: target.path, deep: false },
      ...(target.exists ? [] : [{ path: parentPath(target.path), deep: false }]),
    ]);
    await this.assertEntity(context, target);
    const actor = target.tree.actor;
    this.access.assertCanWrite(actor);
    // A checksum is verified as the bytes pass: a mismatch fails the body at its end, before the
    // upload files it, so nothing is stored.
    const verified = client.checksum ? pipeline(body, verifyingChecksum(client.checksum), () => {}) : body;
    // Onto an existing file, a replace: the file keeps its id, favourites and share, and the bytes it
    // had become a version.
    // The client's time and checksum commit with the content they describe, in the filing's unit of
    // work: two writes of one file leave the meta of the one filed last.
    const alongside: AlongsideFiling = async (file) => {
      if (client.modifiedAt || client.checksum)
        await this.deps.dav.saveFileMeta({
          item_id: file.id,
          content_id: file.content_id!,
          modified_at: client.modifiedAt?.toISOString() ?? null,
          checksums: client.checksum?.text ?? null,
        });
    };
    // The same bytes and time sent again (nextcloudcmd 3.7 sends a bulk batch twice when its next
    // batch starts before the first is answered) leave the file as it is, with the ETag already given.
    alongside.keeps = async (existing, bytes) => {
      if (!client.checksum || !client.modifiedAt || existing.content_id === null) return false;
      if (Number(existing.size) !== bytes) return false;
      const meta = (await this.deps.dav.fileMeta([existing])).get(existing.id);
      return (
        meta?.checksums === client.checksum.text &&
        meta.modified_at !== null &&
        new Date(meta.modified_at).getTime() === client.modifiedAt.getTime()
      );
    };
    // Conditions on the file's ETag held when the request began; its body may take minutes, and
    // a write that lands meanwhile makes them false: checked again as the file is filed.
    if (namesEntityTag(context)) {
      const checked = etagOf(target.item);
      alongside.expects = (existing) => {
        if (etagOf(existing) !== checked) throw new DavRefusal('precondition_failed');
      };
    }
    const stored = await this.deps.uploads.receiveWhole(
      actor,
      parent?.id ?? null,
      validName(target.name),
      verified,
      'replace',
      expectedBytes,
      alongside,
    );
    return { created: !target.item, etag: contentEtag(stored.storage_key!), fileId: ocId(stored.id) };
  }

  /** What the OC-FileId and OC-ETag headers of a write's answer name: the item now at a location. */
  async identify(user: DavUser, location: TreeLocation): Promise<{ fileId: string; etag: string } | null> {
    const now = await this.locate(user, location.href);
    if (now.space !== 'tree' || !now.exists) return null;
    const [resource] = await this.describe(now.tree, [
      { href: now.href, row: now.item, path: now.path, dead: [], isRoot: now.isRoot, mounted: [] },
    ]);
    return resource?.sync && resource.etag ? { fileId: resource.sync.id, etag: resource.etag } : null;
  }

  /** DELETE: to the owner's trash, where it can be restored; the locks on it and below it go. */
  async delete(context: WriteContext, location: DavLocation): Promise<void> {
    const target = this.writable(location);
    if (!target.exists) throw new DavRefusal('not_found');
    // A tree's root (My files, or a team folder seen by a member) is no item to trash.
    if (target.isRoot) throw new DavRefusal('tree_root');
    await this.guard(context, target, [
      { path: target.path, deep: true },
      { path: parentPath(target.path), deep: false },
    ]);
    await this.assertEntity(context, target);
    const item = target.item!;
    await this.deps.files.remove(target.tree.actor, [{ id: item.id, type: item.type, force_delete: false }]);
    await this.releaseLocksUnder(target.tree.actor.ownerId, target.path);
  }

  async mkcol(context: WriteContext, location: DavLocation): Promise<void> {
    const target = this.writable(location);
    if (target.exists) throw new DavRefusal('already_exists');
    const parent = this.parentOf(target);
    await this.guard(context, target, [{ path: parentPath(target.path), deep: false }]);
    await this.assertEntity(context, target);
    const actor = target.tree.actor;
    const parentId = parent?.id ?? null;
    // Clients make a folder from several connections at once (rclone's transfers each make their
    // parents). This process makes one folder of a name at a time, so the second MKCOL finds the
    // first's folder instead of making a twin a file could be put into before it goes again.
    await this.folderCreations.run(`${actor.ownerId}/${parentId}/${target.name}`, async () => {
      if (await this.deps.items.findLiveChild(actor.ownerId, parentId, target.name))
        throw new DavRefusal('already_exists');
      const created = await this.deps.files.createFolder(actor, {
        name: validName(target.name),
        parent_id: parentId,
      });
      // Processes of a scaled-out instance can still race: the first found by name stays.
      const first = await this.deps.items.findLiveChild(actor.ownerId, parentId, target.name);
      if (first && first.id !== created.id) {
        await this.deps.files.withdrawFolder(actor, { id: created.id, parent_id: parentId });
        throw new DavRefusal('already_exists');
      }
    });
  }

  /**
   * COPY and MOVE (Depth 0 copies a collection without its members). Within one owner's tree a MOVE
   * keeps the items (ids, shares, dead properties); into another owner's tree (a team folder) it is
   * a copy into that owner's quota followed by a delete. True when the destination was created.
   */
  async transfer(
    context: WriteContext,
    mode: 'copy' | 'move',
    location: DavLocation,
    destination: TreeLocation,
    options: { overwrite: boolean; depth: '0' | 'infinity' },
  ): Promise<boolean> {
    const source = this.writableOrReadable(location, mode);
    if (!source.exists) throw new DavRefusal('not_found');
    // A move takes the item away from where it is: refused before anything is copied or replaced.
    if (mode === 'move') this.access.assertCanWrite(source.tree.actor);
    if (destination.isRoot) throw new DavRefusal('tree_root');
    const destParent = this.parentOf(destination);
    const sameTree = source.tree.actor.ownerId === destination.tree.actor.ownerId;
    if (sameTree && (destination.path === source.path || isBelow(destination.path, source.path)))
      throw new DavRefusal('into_itself');
    // An untagged If list names the request's resource, the source (RFC 4918 10.4.1).
    await this.guard(context, source, [
      { path: destination.path, deep: true, location: destination },
      { path: parentPath(destination.path), deep: false, location: destination },
      ...(mode === 'move'
        ? [
            { path: source.path, deep: true },
            { path: parentPath(source.path), deep: false },
          ]
        : []),
    ]);
    // If-Match and If-None-Match name the request's resource too: the source.
    await this.assertEntity(context, source);
    const name = validName(destination.name);
    const destActor = destination.tree.actor;
    this.access.assertCanWrite(destActor);
    const destParentId = destParent?.id ?? null;
    /** What holds the name is looked at again inside the unit that takes it, holding the folder's names. */
    const clearDestination = async () => {
      const doomed = await this.deps.items.findLiveChild(destActor.ownerId, destParentId, name);
      if (!doomed) return false;
      if (!options.overwrite) throw new DavRefusal('precondition_failed');
      await this.deps.files.remove(destActor, [{ id: doomed.id, type: doomed.type, force_delete: false }]);
      await this.releaseLocksUnder(destActor.ownerId, destination.path);
      return true;
    };
    const item = source.item!;
    // One actor reaches both ends when both are in the same tree seen from the same place.
    if (mode === 'move' && sameTree && source.tree.actor.rootId === destActor.rootId) {
      // Emptying the name and moving the item there are one unit holding the folder's names, so a
      // PUT, a MOVE or an upload of that name at the same moment never leaves two live items of it.
      const replaced = await this.deps.files.withFolderNames(destActor.ownerId, destParentId, async () => {
        const cleared = await clearDestination();
        await this.deps.files.move(destActor, destParentId, [{ id: item.id, type: item.type }], { name });
        return cleared;
      });
      await this.releaseLocksUnder(source.tree.actor.ownerId, source.path);
      return !replaced;
    }
    // Bytes copied out of their owner's tree leave it as a download would: not while the owner's
    // account may not download (checked before the destination is cleared, so a refusal changes nothing).
    if (source.tree.actor.ownerId !== destActor.ownerId)
      await this.deps.downloads.assertCanDownload(source.tree.actor);
    // A copy files its items under a free name (`name (1)` when another took it meanwhile). The
    // destination is cleared only once the copy may be made (its rules and quota), so a refused copy
    // leaves it where it was. A move in one tree checks its new name itself (FilesService.move).
    if (item.type === 'file' && name !== item.name) await this.deps.files.assertFileNameAllowed(name);
    await this.copyTree(
      source.tree.actor,
      item,
      destActor,
      destParent ?? null,
      name,
      mode === 'copy' ? options.depth : 'infinity',
      () => (destination.exists ? clearDestination() : Promise.resolve(false)),
    );
    if (mode === 'move')
      await this.deps.files.remove(source.tree.actor, [
        { id: item.id, type: item.type, force_delete: false },
      ]);
    if (mode === 'move') await this.releaseLocksUnder(source.tree.actor.ownerId, source.path);
    return !destination.exists;
  }

  /**
   * Sets and removes dead properties all or nothing; live properties are protected, the rest then
   * not applied. A patch that would pass PROPERTY_LIMITS or the owner's quota stores nothing: its sets
   * are over the limit (Insufficient Storage, RFC 4918 §9.2.1), the rest not applied. A patch that shrinks what the item
   * holds always passes, so an owner over a limit can still clean up.
   */
  async proppatch(
    context: WriteContext,
    location: DavLocation,
    updates: PropertyUpdate[],
  ): Promise<{ property: PropertyName; outcome: PropertyOutcome }[]> {
    const target = this.writable(location);
    if (!target.exists) throw new DavRefusal('not_found');
    await this.guard(context, target, [{ path: target.path, deep: false }]);
    await this.assertEntity(context, target);
    this.access.assertCanWrite(target.tree.actor);
    const failAll = (failed: (u: PropertyUpdate) => boolean, outcome: PropertyOutcome) =>
      updates.map((u) => ({ property: u.property, outcome: failed(u) ? outcome : 'not_applied' }));
    // A tree's root stays as its owner made it: My files, or a team folder seen by a member.
    const refused = (u: PropertyUpdate) => isLiveProperty(u.property) || target.isRoot;
    if (updates.some(refused)) return failAll(refused, 'protected');
    const oversized = (u: PropertyUpdate) =>
      u.action === 'set' && propertyBytes({ ...u.property, value: u.value }) > PROPERTY_LIMITS.propertyBytes;
    if (updates.some(oversized)) return failAll(oversized, 'over_limit');
    const sets = new Map<string, { namespace: string; name: string; value: string }>();
    const removes = new Map<string, PropertyName>();
    for (const update of updates) {
      const key = `${update.property.namespace}\n${update.property.name}`;
      if (update.action === 'set') {
        removes.delete(key);
        sets.set(key, { ...update.property, value: update.value });
      } else {
        sets.delete(key);
        removes.set(key, update.property);
      }
    }
    const ownerId = target.tree.actor.ownerId;
    const itemId = target.item!.id;
    const [held, { capacity }] = await Promise.all([
      this.deps.dav.properties(ownerId, [itemId]),
      this.deps.limits.of(ownerId),
    ]);
    const before = { count: held.length, bytes: held.reduce((sum, p) => sum + p.bytes, 0) };
    // The patch's deletes lock the owner's usage before its inserts name the item: the account goes
    // first, so that a deletion of the account under way waits for the patch, or refuses it.
    const patched = await this.deps.owners.transaction(ownerId, () =>
      this.deps.dav.patchProperties(
        ownerId,
        itemId,
        [...sets.values()],
        [...removes.values()],
        (after) =>
          (after.count <= PROPERTY_LIMITS.count || after.count <= before.count) &&
          (after.bytes <= before.bytes ||
            (after.bytes <= PROPERTY_LIMITS.bytes && (capacity === null || after.ownerBytes <= capacity))),
      ),
    );
    if (!patched) return failAll((u) => u.action === 'set', 'over_limit');
    return updates.map((u) => ({ property: u.property, outcome: 'applied' as const }));
  }

  // ---- locks -------------------------------------------------------------------------------

  /**
   * LOCK: a new write lock (an unmapped URL becomes an empty file, RFC 4918 §7.3), or, without a
   * body, a refresh of the lock the `If` header names.
   */
  async lock(
    context: WriteContext,
    location: DavLocation,
    request: LockRequest | null,
    options: { depth: LockDepth; timeout: string | undefined },
  ): Promise<{ active: ActiveLock; created: boolean }> {
    const target = this.writable(location);
    const seconds = lockSeconds(options.timeout);
    const now = this.deps.now();
    const expiresAt = new Date(now.getTime() + seconds * 1000).toISOString();
    const ownerId = target.tree.actor.ownerId;
    // A lock is a write's: neither taken nor kept (refreshed) by someone who may not write there.
    this.access.assertCanWrite(target.tree.actor);
    await this.assertEntity(context, target);
    // Nor taken by a member on the team folder itself: it would keep every other person out of it.
    if (target.isRoot && target.tree.base !== null) throw new DavRefusal('tree_root');
    if (!request) {
      const tokens = context.ifLists ? submittedTokens(context.ifLists) : new Set<string>();
      const lock = (await this.deps.dav.liveLocks(ownerId, now.toISOString())).find(
        (l) => tokens.has(l.token) && covers(l, target.path) && l.principal_id === context.user.id,
      );
      if (!lock) throw new DavRefusal('no_lock_to_refresh');
      await this.deps.dav.refreshLock(lock.token, seconds, expiresAt);
      return {
        active: {
          lock: { ...lock, timeout_seconds: seconds, expires_at: expiresAt },
          rootHref: this.hrefOf(target.tree, lock.path),
        },
        created: false,
      };
    }
    if (Buffer.byteLength(request.ownerXml) > LOCK_OWNER_MAX_BYTES) throw new DavRefusal('body_too_large');
    const lock: DavLockRow = {
      token: `${LOCK_TOKEN_PREFIX}${randomUUID()}`,
      owner_id: ownerId,
      path: target.path,
      // A file has nothing below it, and an unmapped name becomes a file.
      depth: target.item?.type === 'folder' ? options.depth : '0',
      scope: request.scope,
      principal_id: context.user.id,
      owner_xml: request.ownerXml,
      timeout_seconds: seconds,
      expires_at: expiresAt,
    };
    // Refused before anything is made: a lock in the way whose item a web rename, move or delete took
    // away goes (see stillPlaced) rather than keeping the path from everyone.
    const inTheWay = (await this.deps.dav.liveLocks(ownerId, now.toISOString())).filter((held) =>
      conflictsWith([held], lock, now.toISOString()),
    );
    if ((await this.stillPlaced(ownerId, inTheWay)).length > 0) throw new DavRefusal('lock_conflict');
    let created = false;
    if (!target.exists) {
      const parent = this.parentOf(target);
      await this.guard(context, target, [{ path: parentPath(target.path), deep: false }]);
      await this.deps.uploads.receiveWhole(
        target.tree.actor,
        parent?.id ?? null,
        validName(target.name),
        Readable.from([]),
      );
      created = true;
    }
    // Deleting the owner's expired locks comes before the new one names the accounts, the owner's
    // and its taker's (a team member's): the accounts first.
    const taken = await this.deps.owners.transaction(
      ownerId,
      () =>
        this.deps.dav.insertLock(
          lock,
          now.toISOString(),
          (held) => conflictsWith(held, lock, now.toISOString()),
          LOCKS_PER_OWNER_MAX,
        ),
      context.user.id,
    );
    if (taken === 'conflict') throw new DavRefusal('lock_conflict');
    if (taken === 'full') throw new DavRefusal('insufficient_storage');
    return { active: { lock, rootHref: target.href }, created };
  }

  /**
   * UNLOCK by the user who took the lock, or by the tree's owner: RFC 4918 §9.11 leaves who may
   * remove a lock to the server, and the owner must not wait a day for a member's forgotten lock to
   * expire. Lock discovery shows the owner the token (tokens are not secrets, §6.5).
   */
  async unlock(userId: string, location: DavLocation, token: string | undefined): Promise<void> {
    const target = this.writable(location);
    const ownerId = target.tree.actor.ownerId;
    const lock = (await this.deps.dav.liveLocks(ownerId, this.deps.now().toISOString())).find(
      (l) => l.token === token && covers(l, target.path),
    );
    if (!lock) throw new DavRefusal('lock_not_on_resource');
    if (lock.principal_id !== userId && ownerId !== userId) throw new DavRefusal('not_lock_holder');
    await this.deps.dav.deleteLocks([lock.token]);
  }

  /**
   * Ends the locks the users took in the owner's team folder and below it. The teams module calls it
   * when they leave the team or are removed from it: they can no longer refresh or release those
   * locks, which would otherwise hold the owner off until they expire.
   */
  async endLocksOf(ownerId: string, folderId: string, userIds: readonly string[]): Promise<void> {
    if (userIds.length === 0) return;
    const folder = `/${(await this.deps.items.namesDownTo(ownerId, folderId)).join('/')}`;
    const locks = await this.deps.dav.locksTakenBy(ownerId, userIds);
    await this.deps.dav.deleteLocks(
      locks.filter((l) => l.path === folder || isBelow(l.path, folder)).map((l) => l.token),
    );
  }

  // ---- helpers -----------------------------------------------------------------------------

  /**
   * Refuses a write whose `If` header does not hold, then one a lock forbids unless the
   * request submits a token of each lock in the way. `deep` also counts the locks below the path.
   */
  private async guard(
    context: WriteContext,
    location: TreeLocation,
    targets: { path: string; deep: boolean; location?: TreeLocation }[],
  ): Promise<void> {
    const now = this.deps.now().toISOString();
    const tokens = context.ifLists ? submittedTokens(context.ifLists) : new Set<string>();
    const locksByOwner = new Map<string, DavLockRow[]>();
    const locksOf = async (ownerId: string) => {
      if (!locksByOwner.has(ownerId)) locksByOwner.set(ownerId, await this.deps.dav.liveLocks(ownerId, now));
      return locksByOwner.get(ownerId)!;
    };
    const held = (lock: DavLockRow) => tokens.has(lock.token) && lock.principal_id === context.user.id;
    if (context.ifLists) {
      let holds = false;
      for (const list of context.ifLists) {
        const locks = await locksOf(location.tree.actor.ownerId);
        const state = await this.stateOf(context.user, list.resource, location, locks);
        if (state && listHolds(list, state)) holds = true;
      }
      if (!holds) throw new DavRefusal('precondition_failed');
    }
    for (const target of targets) {
      const ownerId = (target.location ?? location).tree.actor.ownerId;
      const locks = await locksOf(ownerId);
      const covering = locks.filter((lock) => covers(lock, target.path));
      const below = target.deep ? locks.filter((lock) => isBelow(lock.path, target.path)) : [];
      // Only a lock that would refuse the write is looked at twice (see stillPlaced).
      if (covering.length > 0 && !covering.some(held)) {
        const placed = await this.stillPlaced(ownerId, covering);
        if (placed.length > 0 && !placed.some(held)) throw new DavRefusal('locked');
      }
      const lockedBelow = await this.stillPlaced(
        ownerId,
        below.filter((lock) => !held(lock)),
      );
      if (lockedBelow.length > 0) throw new DavRefusal('locked');
    }
  }

  /**
   * Those of the locks whose item is still where they were taken: every lock names an item (a LOCK
   * of a free name makes an empty file), and one whose item a web rename, move or delete took away
   * would hold the path against everyone while nobody could see it to release it; such a lock goes.
   */
  private async stillPlaced(ownerId: string, locks: DavLockRow[]): Promise<DavLockRow[]> {
    const stale: string[] = [];
    for (const lock of locks) if (!(await this.pathNamesItem(ownerId, lock.path))) stale.push(lock.token);
    if (stale.length > 0) await this.deps.dav.deleteLocks(stale);
    return locks.filter((lock) => !stale.includes(lock.token));
  }

  /** Whether a path of the owner's tree names a live item. */
  private async pathNamesItem(ownerId: string, path: string): Promise<boolean> {
    let parentId: string | null = null;
    for (const name of path.split('/').filter(Boolean)) {
      const item = await this.deps.items.findLiveChild(ownerId, parentId, name);
      if (!item) return false;
      parentId = item.id;
    }
    return true;
  }

  /** The entity tag and lock tokens an `If` list is checked against: the request's resource or a tagged one. */
  private async stateOf(
    user: DavUser,
    resource: string | null,
    location: TreeLocation,
    locks: DavLockRow[],
  ): Promise<ResourceState | null> {
    let target: DavLocation = location;
    if (resource !== null) {
      const path = new URL(resource, 'http://localhost').pathname;
      target = await this.locate(user, path).catch(() => location);
      if (target.space !== 'tree') return null;
    }
    const ownerLocks =
      target.tree.actor.ownerId === location.tree.actor.ownerId
        ? locks
        : await this.deps.dav.liveLocks(target.tree.actor.ownerId, this.deps.now().toISOString());
    return {
      etag: await this.entityTagOf(target),
      lockTokens: new Set(ownerLocks.filter((lock) => covers(lock, target.path)).map((lock) => lock.token)),
    };
  }

  /** RFC 9110's If-Match and If-None-Match on the request's resource, against the tag PROPFIND shows. */
  private async assertEntity(context: WriteContext, target: TreeLocation): Promise<void> {
    if (!context.entity?.ifMatch && !context.entity?.ifNoneMatch) return;
    assertEntityConditions(context.entity, { exists: target.exists, etag: await this.entityTagOf(target) });
  }

  /** The entity tag PROPFIND shows for a resource: a file's by its content, a folder's by its subtree. */
  private async entityTagOf(target: TreeLocation): Promise<string | null> {
    if (!target.exists || target.item?.type === 'file') return etagOf(target.item);
    const [resource] = await this.describe(target.tree, [
      {
        href: target.href,
        row: target.item,
        path: target.path,
        dead: [],
        isRoot: target.isRoot,
        mounted: [],
      },
    ]);
    return resource?.etag ?? null;
  }

  private async releaseLocksUnder(ownerId: string, path: string): Promise<void> {
    const locks = await this.deps.dav.liveLocks(ownerId, this.deps.now().toISOString());
    await this.deps.dav.deleteLocks(
      locks.filter((l) => l.path === path || isBelow(l.path, path)).map((l) => l.token),
    );
  }

  /** Copies an item (with everything below it, unless `depth` is 0) into a folder of a tree, as a new item under `name`. */
  private async copyTree(
    from: Actor,
    item: ItemRow,
    to: Actor,
    parent: ItemRow | null,
    name: string,
    depth: '0' | 'infinity',
    clearDestination: () => Promise<unknown>,
  ): Promise<void> {
    const rows = item.type === 'folder' && depth === 'infinity' ? await this.liveSubtree(from, item) : [item];
    const files = rows.filter((row) => row.type === 'file');
    await this.access.reachOne(from, item.id, 'live');
    const { restrictions } = await this.deps.limits.of(to.ownerId);
    if (files.length > 0 && !restrictions.canUpload)
      throw new AppError('upload_disabled', restrictions.reason ?? 'errors.upload_disabled');
    // The copies' dead properties count against the destination's quota too.
    const reservation = await this.deps.uploads.reserve(
      to.ownerId,
      files.reduce((sum, f) => sum + Number(f.size), 0) +
        (await this.deps.dav.propertyBytesOf(
          from.ownerId,
          rows.map((row) => row.id),
        )),
    );
    if (!reservation) throw new DavRefusal('insufficient_storage');
    const copies = new Map<string, string>();
    const copiedFiles: { source: ItemRow; copy: ItemRow }[] = [];
    try {
      await clearDestination();
      const top =
        item.type === 'folder'
          ? await this.deps.files.createFolder(to, { name, parent_id: parent?.id ?? null })
          : null;
      if (top) copies.set(item.id, top.id);
      for (const row of rows) {
        if (row === item && top) continue;
        const parentId = row === item ? (parent?.id ?? null) : copies.get(row.parent_id!)!;
        const rowName = row === item ? name : row.name;
        if (row.type === 'folder') {
          copies.set(row.id, (await this.deps.files.insertFolder(to, parentId, rowName, row)).id);
          continue;
        }
        const stored = {
          parentId,
          name: rowName,
          mimetype: row.mimetype,
          size: row.size,
          now: this.deps.now().toISOString(),
        };
        // Within one owner, a file made of blocks is copied by naming its blocks: no byte is written.
        let copy = await reservation.copy(row.storage_key!, stored);
        if (!copy) {
          // Recorded with the reservation first: bytes not filed go on release, or by the upload
          // sweep after a process killed before the filing.
          const { key } = await reservation.put(await this.deps.contents.read(row.storage_key!), {
            contentType: row.mimetype ?? undefined,
          });
          copy = await reservation.file({ ...stored, storageKey: key });
        }
        copies.set(row.id, copy.id);
        copiedFiles.push({ source: row, copy });
      }
      await this.deps.dav.copyProperties(from.ownerId, to.ownerId, copies);
      await this.deps.dav.copyFileMeta(copiedFiles);
    } finally {
      await reservation.release();
    }
  }

  /**
   * A folder's members (null: the actor's root) as the API lists them, a page at a time by name,
   * each page after the last member of the one before.
   */
  private async *members(actor: Actor, folder: ItemRow | null): AsyncGenerator<ItemRow[]> {
    const byName = { sort: 'sort_name', direction: 'asc', limit: PROPFIND_PAGE } as const;
    let from: ListingPage['from'] = { offset: 0 };
    for (;;) {
      const { page } = await this.deps.files.listFolder(actor, folder?.id ?? null, { ...byName, from });
      if (page.rows.length > 0) yield page.rows;
      if (page.rows.length < PROPFIND_PAGE) return;
      const last = page.rows.at(-1)!;
      from = { after: { type: last.type, key: last.sort_name, id: last.id } };
    }
  }

  /** The live items of a folder's subtree, each folder before what it holds. */
  private async liveSubtree(actor: Actor, folder: ItemRow): Promise<ItemRow[]> {
    const rows: ItemRow[] = [folder];
    for (let i = 0; i < rows.length; i++) {
      if (rows[i]!.type === 'folder')
        for await (const page of this.members(actor, rows[i]!)) rows.push(...page);
    }
    return rows;
  }

  private writable(location: DavLocation): TreeLocation {
    if (location.space !== 'tree') throw new DavRefusal('outside_tree');
    return location;
  }

  private writableOrReadable(location: DavLocation, mode: 'copy' | 'move'): TreeLocation {
    const target = this.writable(location);
    if (mode === 'move' && target.isRoot) throw new DavRefusal('tree_root');
    return target;
  }

  /** The folder a new item goes into; refused when it does not exist (RFC 4918: no intermediate collections). */
  private parentOf(location: TreeLocation): ItemRow | null {
    if (location.isRoot) throw new DavRefusal('tree_root');
    if (location.parent === undefined) throw new DavRefusal('missing_parent');
    return location.parent;
  }

  /** The href a lock's path has in the tree it is seen through (a lock above a team folder: the folder). */
  private hrefOf(tree: Tree, path: string): string {
    if (path === tree.path || !isBelow(path, tree.path)) return tree.href;
    const rest = path.slice(tree.path === '/' ? 1 : tree.path.length + 1);
    return tree.href + rest.split('/').map(encodeSegment).join('/');
  }
}

/** Rows by their names, a name already given or `taken` becoming `name (2)`, `name (3)`… */
async function byFreeName(
  rows: readonly ItemRow[],
  taken: (name: string) => Promise<boolean>,
): Promise<Map<string, ItemRow>> {
  const byName = new Map<string, ItemRow>();
  for (const row of rows) {
    let name = row.name;
    for (let n = 2; byName.has(name) || (await taken(name)); n++) name = `${row.name} (${n})`;
    byName.set(name, row);
  }
  return byName;
}

export async function* each<T>(values: readonly T[]): AsyncIterable<T> {
  yield* values;
}

/** Nextcloud's oc:id is the file id followed by the instance's id; one Atelier is one instance. */
const INSTANCE_ID = 'ocatelier';
const SHARE_TYPE_LINK = 3;

/**
 * Nextcloud's permission letters for what the tree's actor may do with an item. The owner may also
 * share (R); a member's team folder is shared with them and mounted (S, M at its root, S below), and
 * its root can be neither deleted, renamed nor moved by them. Without W (or C and K) a client keeps
 * a local edit to itself instead of uploading it.
 */
/** `oc:permissions` of an item of a tree, as Nextcloud spells them. */
export function permissionsOf(tree: Tree, type: 'file' | 'folder', isRoot: boolean): string {
  const write = tree.actor.canWrite;
  const member = tree.base !== null;
  const rights =
    type === 'file' ? (write ? 'GDNVW' : 'G') : write ? (isRoot && member ? 'GCK' : 'GDNVCK') : 'G';
  if (!member) return `R${rights}`;
  return `${isRoot ? 'SM' : 'S'}${rights}`;
}

export function ocId(fileId: string): string {
  return `${fileId}${INSTANCE_ID}`;
}

/** A folder's ETag: a digest of what its subtree holds, so it changes with anything below it. */
function folderEtag(version: string): string {
  return `"${createHash('sha256').update(version).digest('base64url').slice(0, 27)}"`;
}

function sumOf(mounted: readonly { resource: DavResource }[]): number {
  return mounted.reduce((sum, m) => sum + (m.resource.sync?.size ?? 0), 0);
}

function teamFolderResources(hrefAbove: string, folders: Map<string, ItemRow>): DavResource[] {
  return [...folders].map(([name, folder]) => ({
    ...itemResource(`${hrefAbove}${encodeSegment(name)}/`, folder),
    displayName: name,
  }));
}

/** Whether a write is conditional on an entity tag: If-Match, If-None-Match, or an ETag in its If header. */
function namesEntityTag(context: WriteContext): boolean {
  return (
    !!context.entity?.ifMatch ||
    !!context.entity?.ifNoneMatch ||
    !!context.ifLists?.some((list) => list.conditions.some((condition) => condition.etag !== undefined))
  );
}

/** A file's entity tag, named by its content; none for a folder, or no item. */
function etagOf(item: ItemRow | null | undefined): string | null {
  return item?.type === 'file' && item.storage_key ? contentEtag(item.storage_key) : null;
}

function itemResource(href: string, item: ItemRow): DavResource {
  return {
    href,
    collection: item.type === 'folder',
    displayName: item.name,
    createdAt: item.created_at,
    modifiedAt: item.updated_at,
    size: item.type === 'file' ? Number(item.size) : null,
    mimetype: item.mimetype,
    etag: etagOf(item),
    quota: null,
    dead: [],
    locks: [],
    sync: null,
  };
}

export function virtualCollection(href: string, displayName: string): DavResource {
  return {
    href,
    collection: true,
    displayName,
    createdAt: null,
    modifiedAt: null,
    size: null,
    mimetype: null,
    etag: null,
    quota: null,
    dead: [],
    locks: [],
    sync: null,
  };
}

function parentPath(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

/** A name a new item may take: what the API accepts, exactly as sent (malformed otherwise). */
function validName(name: string): string {
  const parsed = ItemName.safeParse(name);
  if (!parsed.success || parsed.data !== name) throw new DavRefusal('malformed');
  return name;
}

/** The segments of a path below its mount, decoded; malformed for a bad escape or a `.`/`..` segment. */
export function decodeSegments(path: string): string[] {
  return path
    .split('/')
    .filter((raw) => raw !== '')
    .map(decodeSegment);
}

function decodeSegment(raw: string): string {
  let segment: string;
  try {
    segment = decodeURIComponent(raw);
  } catch {
    throw new DavRefusal('malformed');
  }
  if (segment === '.' || segment === '..' || segment.includes('/') || segment.includes('\u0000'))
    throw new DavRefusal('malformed');
  return segment;
}

export function encodeSegment(name: string): string {
  return encodeURIComponent(name);
}

/** Whether a path's `{user}` segment names the user: their id or their e-mail address (in any case). */
export function namesUser(user: DavUser, segment: string): boolean {
  return segment === user.id || segment.toLowerCase() === user.email.toLowerCase();
}

function isMounted(path: string): boolean {
  return [DAV_PREFIX, NEXTCLOUD_WEBDAV_PREFIX, NEXTCLOUD_FILES_PREFIX].some(
    (prefix) => path === prefix || path.startsWith(`${prefix}/`),
  );
}

/**
 * The mount a URL path is under and the path below it. A `{user}` naming someone else is not found:
 * one user's address never reaches another's files.
 */
function mountOf(user: DavUser, path: string): { mount: DavMount; rest: string } {
  const below = (prefix: string) =>
    path === prefix || path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : null;
  const dav = below(DAV_PREFIX);
  if (dav !== null) return { mount: { layout: 'dav', prefix: DAV_PREFIX }, rest: dav };
  const webdav = below(NEXTCLOUD_WEBDAV_PREFIX);
  if (webdav !== null)
    return { mount: { layout: 'nextcloud', prefix: NEXTCLOUD_WEBDAV_PREFIX }, rest: webdav };
  const files = below(NEXTCLOUD_FILES_PREFIX);
  if (files !== null) {
    const [, raw = '', ...rest] = files.split('/');
    const name = raw === '' ? null : decodeSegment(raw);
    if (name === null || !namesUser(user, name)) throw new DavRefusal('not_found');
    // `@` as Nextcloud writes it in its hrefs: e-mail addresses are common user names there.
    const prefix = `${NEXTCLOUD_FILES_PREFIX}/${encodeSegment(name).replaceAll('%40', '@')}`;
    return { mount: { layout: 'nextcloud', prefix }, rest: `/${rest.join('/')}` };
  }
  throw new DavRefusal('not_found');
}
