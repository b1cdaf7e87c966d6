import type { VersionResource } from '@atelier/contracts';
import { AppError } from '../../lib/app-error';
import type { Download } from '../files/download.service';
import type { Actor, ActorResolver } from '../files/files.access';
import type { FilesService } from '../files/files.service';
import type { VersionsService } from '../files/versions.service';
import { computedProperty } from './dav-resources';
import { NC, OC, type DavResource } from './webdav.presenter';
import { DavRefusal } from './webdav.refusals';
import { each, virtualCollection } from './webdav.service';

/**
 * Where a path below `/remote.php/dav/versions/{user}/` points: the home, its `versions` and
 * `restore` collections, one file's versions (`versions/{fileid}/`) or one version of it.
 */
export type VersionsLocation =
  | { kind: 'home'; href: string }
  | { kind: 'versions'; href: string }
  | { kind: 'restore'; href: string }
  | { kind: 'file'; href: string; fileId: string }
  | { kind: 'version'; href: string; fileId: string; versionId: string };

/**
 * A file's versions as Nextcloud's clients read them over WebDAV (its files_versions app), through
 * the versions service of the files module: whoever may read the file (its owner, a member of a team
 * folder holding it) lists and downloads them, whoever may change it restores one by COPY or MOVE
 * into `restore/`, the bytes it had becoming a version.
 */
export class DavVersionsService {
  constructor(
    private readonly deps: { versions: VersionsService; files: FilesService; actors: ActorResolver },
  ) {}

  /** Where the segments below the home point; nothing is read until a method acts on it. */
  async locate(_userId: string, home: string, segments: readonly string[]): Promise<VersionsLocation> {
    const [collection, fileId, versionId, ...rest] = segments;
    if (collection === undefined) return { kind: 'home', href: home };
    if (collection === 'restore' && fileId === undefined) return { kind: 'restore', href: `${home}restore/` };
    if (collection !== 'versions' || rest.length > 0) throw new DavRefusal('not_found');
    if (fileId === undefined) return { kind: 'versions', href: `${home}versions/` };
    const folder = `${home}versions/${encodeURIComponent(fileId)}/`;
    if (versionId === undefined) return { kind: 'file', href: folder, fileId };
    return { kind: 'version', href: `${folder}${encodeURIComponent(versionId)}`, fileId, versionId };
  }

  async propfind(
    userId: string,
    location: VersionsLocation,
    depth: '0' | '1',
  ): Promise<AsyncIterable<DavResource>> {
    if (location.kind === 'home') {
      const self = virtualCollection(location.href, 'versions');
      if (depth === '0') return each([self]);
      return each([
        self,
        virtualCollection(`${location.href}restore/`, 'restore'),
        virtualCollection(`${location.href}versions/`, 'versions'),
      ]);
    }
    // Nextcloud lists no file under `versions/`: a file's versions are reached by its id.
    if (location.kind === 'versions' || location.kind === 'restore')
      return each([virtualCollection(location.href, location.kind)]);
    const actor = await this.actorFor(userId, location.fileId);
    const [file, versions] = await Promise.all([
      this.deps.files.show(actor, location.fileId, 'file'),
      this.deps.versions.list(actor, location.fileId),
    ]);
    const resource = (version: VersionResource) =>
      versionResource(
        `${folderHref(location)}${encodeURIComponent(version.id)}`,
        version,
        file.attributes.mimetype,
      );
    if (location.kind === 'version') {
      const version = versions.find((v) => v.id === location.versionId);
      if (!version) throw new DavRefusal('not_found');
      return each([resource(version)]);
    }
    const self = {
      ...virtualCollection(location.href, file.attributes.name),
      dead: [computedProperty(OC, 'fileid', file.id)],
    };
    return each(depth === '0' ? [self] : [self, ...versions.map(resource)]);
  }

  /** GET of a version: its bytes under the file's name. */
  async download(userId: string, location: VersionsLocation): Promise<Download> {
    if (location.kind !== 'version') throw new DavRefusal('not_a_file');
    const actor = await this.actorFor(userId, location.fileId);
    return this.deps.versions.open(actor, location.fileId, location.versionId);
  }

  /**
   * COPY or MOVE of a version into `restore/` (Nextcloud's clients name it `target`): the version
   * becomes the file's bytes, the ones it had a version. The current version is already the file's.
   */
  async restore(userId: string, source: VersionsLocation, destination: readonly string[]): Promise<void> {
    if (source.kind !== 'version') throw new DavRefusal('method_not_allowed');
    if (destination.length !== 2 || destination[0] !== 'restore') throw new DavRefusal('outside_tree');
    const actor = await this.actorFor(userId, source.fileId);
    try {
      await this.deps.versions.restore(actor, source.fileId, source.versionId);
    } catch (error) {
      // The current version is already the file's bytes: nothing to change (the editor's right was checked first).
      if (!(error instanceof AppError && error.message === 'errors.version_current')) throw error;
    }
  }

  /** DELETE of a kept version (never the current one) by whoever may change the file. */
  async delete(userId: string, location: VersionsLocation): Promise<void> {
    if (location.kind !== 'version') throw new DavRefusal('method_not_allowed');
    const actor = await this.actorFor(userId, location.fileId);
    await this.deps.versions.remove(actor, location.fileId, location.versionId);
  }

  /** Who the user acts as on the file: its owner, or a member of a team folder that holds it. */
  private actorFor(userId: string, fileId: string): Promise<Actor> {
    return this.deps.actors.of(userId, [fileId]);
  }
}

function folderHref(location: { href: string; kind: string }): string {
  return location.kind === 'version'
    ? location.href.slice(0, location.href.lastIndexOf('/') + 1)
    : location.href;
}

/** A version with the properties Nextcloud's versions answer. */
function versionResource(href: string, version: VersionResource, mimetype: string | null): DavResource {
  const { size, created_at: savedAt, author } = version.attributes;
  return {
    ...virtualCollection(href, version.id),
    collection: false,
    createdAt: savedAt,
    modifiedAt: savedAt,
    size,
    mimetype,
    etag: `"${version.id}"`,
    dead: [
      computedProperty(NC, 'version-label', ''),
      computedProperty(NC, 'version-author', author.name ?? ''),
    ],
  };
}
