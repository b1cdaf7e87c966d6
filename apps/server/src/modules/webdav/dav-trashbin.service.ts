import type { ItemResource } from '@atelier/contracts';
import type { Download, DownloadService } from '../files/download.service';
import { ItemAccess, type Actor, type ActorResolver } from '../files/files.access';
import type { ItemReader } from '../files/files.ports';
import type { FilesService } from '../files/files.service';
import type { ItemRow } from '../files/files.tables';
import { computedProperty } from './dav-resources';
import { NC, type DavResource } from './webdav.presenter';
import { DavRefusal } from './webdav.refusals';
import { each, ocId, virtualCollection } from './webdav.service';

/**
 * Where a path below `/remote.php/dav/trashbin/{user}/` points: the home, its `restore` and `trash`
 * collections, or an entry of the trash (a trashed item, or what a trashed folder held, by id).
 */
export type TrashLocation =
  { kind: 'home' | 'restore' | 'trash'; href: string } | { kind: 'entry'; href: string; item: ItemRow };

/** Trashed items read at once for a listing. */
const TRASH_PAGE = 500;

/** A trashed item as the listing shows it, read from the trash's page or from its row. */
interface TrashEntry {
  id: string;
  type: 'file' | 'folder';
  name: string;
  parentId: string | null;
  deletedAt: string;
  size: number | null;
  mimetype: string | null;
  createdAt: string;
  updatedAt: string;
  hasPreview: boolean;
}

/**
 * The person's trash as Nextcloud's clients read it over WebDAV (its files_trashbin app): `trash/`
 * lists what was deleted, each entry named by its item's id and carrying its name, where it was and
 * when it went; MOVE of an entry into `restore/` restores it, DELETE deletes it for good, DELETE of
 * `trash/` empties the trash. Everything goes through the files services as the owner: the trash is
 * the owner's alone, so a team member sees only their own.
 */
export class DavTrashbinService {
  private readonly access: ItemAccess;

  constructor(
    private readonly deps: {
      files: FilesService;
      items: ItemReader;
      downloads: DownloadService;
      actors: ActorResolver;
    },
  ) {
    this.access = new ItemAccess(deps.items);
  }

  /** The location of the segments below the home (`home` is its href, ending in `/`). */
  async locate(userId: string, home: string, segments: readonly string[]): Promise<TrashLocation> {
    const [collection, ...ids] = segments;
    if (collection === undefined) return { kind: 'home', href: home };
    if (collection === 'restore' && ids.length === 0) return { kind: 'restore', href: `${home}restore/` };
    if (collection !== 'trash') throw new DavRefusal('not_found');
    if (ids.length === 0) return { kind: 'trash', href: `${home}trash/` };
    // Each id once: a path down a trashed folder never names the same item twice.
    if (new Set(ids).size !== ids.length) throw new DavRefusal('not_found');
    const actor = await this.owner(userId);
    const rows = await this.access.reach(
      actor,
      ids.map((id) => ({ id })),
      'trashed',
    );
    // The first is an item deleted on its own (a trash entry), each next one held by the one before.
    const [top] = rows;
    if (top!.trashed_by !== top!.id) throw new DavRefusal('not_found');
    for (let i = 1; i < rows.length; i++)
      if (rows[i]!.parent_id !== rows[i - 1]!.id || rows[i - 1]!.type !== 'folder')
        throw new DavRefusal('not_found');
    const item = rows.at(-1)!;
    return { kind: 'entry', href: `${home}trash/${ids.join('/')}${item.type === 'folder' ? '/' : ''}`, item };
  }

  /** The resources a PROPFIND answers: the location, and with depth 1 what it holds. */
  async propfind(
    userId: string,
    location: TrashLocation,
    depth: '0' | '1',
  ): Promise<AsyncIterable<DavResource>> {
    const { files, items } = this.deps;
    const actor = await this.owner(userId);
    if (location.kind === 'home') {
      const self = virtualCollection(location.href, 'trashbin');
      return each(
        depth === '0'
          ? [self]
          : [
              self,
              virtualCollection(`${location.href}restore/`, 'restore'),
              virtualCollection(`${location.href}trash/`, 'trash'),
            ],
      );
    }
    if (location.kind === 'restore') return each([virtualCollection(location.href, 'restore')]);
    const item = location.kind === 'entry' ? location.item : null;
    const self = item
      ? entryResource(location.href, await this.entryOf(item), await this.originalLocation(item))
      : virtualCollection(location.href, 'trash');
    // The trash lists its entries, a trashed folder what it held; a file has nothing below it.
    const folderId = item === null ? null : item.type === 'folder' ? item.id : undefined;
    const paths = new Map<string, string>();
    const originalOf = async (entry: TrashEntry) => {
      if (entry.parentId === null) return entry.name;
      if (!paths.has(entry.parentId))
        paths.set(entry.parentId, (await items.namesDownTo(actor.ownerId, entry.parentId)).join('/'));
      return `${paths.get(entry.parentId)}/${entry.name}`;
    };
    return (async function* () {
      yield self;
      if (depth === '0' || folderId === undefined) return;
      for (let page = 1; ; page++) {
        const { data } = await files.browseTrash(actor, folderId ?? undefined, {
          sort: 'created_at',
          direction: 'asc',
          page,
          per_page: TRASH_PAGE,
        });
        for (const resource of data) {
          const entry = entryOfResource(resource);
          const href = `${location.href}${entry.id}${entry.type === 'folder' ? '/' : ''}`;
          yield entryResource(href, entry, await originalOf(entry));
        }
        if (data.length < TRASH_PAGE) return;
      }
    })();
  }

  /** GET of a trashed file: its bytes, as the files module serves them to their owner. */
  async download(userId: string, location: TrashLocation): Promise<Download> {
    if (location.kind !== 'entry' || location.item.type !== 'file') throw new DavRefusal('not_a_file');
    return this.deps.downloads.file(await this.owner(userId), location.item.id);
  }

  /** DELETE: an entry goes for good with what it holds; the trash itself is emptied. */
  async delete(userId: string, location: TrashLocation): Promise<void> {
    const actor = await this.owner(userId);
    if (location.kind === 'trash') return this.deps.files.dumpTrash(actor);
    if (location.kind !== 'entry') throw new DavRefusal('method_not_allowed');
    const { item } = location;
    await this.deps.files.remove(actor, [{ id: item.id, type: item.type, force_delete: true }]);
  }

  /**
   * MOVE of an entry into `restore/` (under any name, as Nextcloud takes it): the item goes back where
   * it was (to My files when that folder is gone), keeping its id, versions and share.
   */
  async restore(
    userId: string,
    source: TrashLocation,
    destination: readonly string[],
    mode: 'copy' | 'move',
  ): Promise<void> {
    // An entry leaves the trash as it is restored: a copy would leave it there too.
    if (source.kind !== 'entry' || mode !== 'move') throw new DavRefusal('method_not_allowed');
    if (destination.length !== 2 || destination[0] !== 'restore') throw new DavRefusal('outside_tree');
    const { item } = source;
    await this.deps.files.restore(await this.owner(userId), false, [{ id: item.id, type: item.type }]);
  }

  private owner(userId: string): Promise<Actor> {
    return this.deps.actors.of(userId, []);
  }

  private async entryOf(item: ItemRow): Promise<TrashEntry> {
    const thumbnails = await this.deps.items.thumbnailsOf([item.id]);
    return {
      id: item.id,
      type: item.type,
      name: item.name,
      parentId: item.parent_id,
      deletedAt: item.deleted_at!,
      size: item.type === 'file' ? Number(item.size) : null,
      mimetype: item.mimetype,
      createdAt: item.created_at,
      updatedAt: item.updated_at,
      hasPreview: thumbnails.length > 0,
    };
  }

  private async originalLocation(item: ItemRow): Promise<string> {
    return (await this.deps.items.namesDownTo(item.user_id, item.id)).join('/');
  }
}

function entryOfResource(resource: ItemResource): TrashEntry {
  const { attributes } = resource;
  return {
    id: resource.id,
    type: resource.type,
    name: attributes.name,
    parentId: attributes.parent_id,
    deletedAt: attributes.deleted_at!,
    size: attributes.filesize,
    mimetype: attributes.mimetype,
    createdAt: attributes.created_at,
    updatedAt: attributes.updated_at,
    hasPreview: attributes.thumbnail !== null,
  };
}

/** A trash entry with the properties Nextcloud's trash bin answers. */
function entryResource(href: string, entry: TrashEntry, originalLocation: string): DavResource {
  const deletedAt = Math.floor(new Date(entry.deletedAt).getTime() / 1000);
  return {
    ...virtualCollection(href, entry.name),
    collection: entry.type === 'folder',
    createdAt: entry.createdAt,
    modifiedAt: entry.updatedAt,
    size: entry.size,
    mimetype: entry.mimetype,
    etag: `"${entry.id}-${deletedAt}"`,
    dead: [
      computedProperty(NC, 'trashbin-filename', entry.name),
      computedProperty(NC, 'trashbin-original-location', originalLocation),
      computedProperty(NC, 'trashbin-deletion-time', String(deletedAt)),
    ],
    sync: {
      fileId: entry.id,
      id: ocId(entry.id),
      // Nextcloud's trash entries may be read and deleted, nothing else.
      permissions: 'GD',
      size: entry.size ?? 0,
      checksums: null,
      favorite: false,
      shareTypes: [],
      hasPreview: entry.hasPreview,
    },
  };
}
