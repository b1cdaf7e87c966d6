import type { ItemResource, VersionResource } from '@atelier/contracts';
import { AppError } from '../../lib/app-error';
import type { StorageProvider } from '../../storage/storage-provider';
import type { I18nService } from '../i18n/i18n.service';
import type { NotificationsService } from '../notifications/notifications.service';
import type { SettingsService } from '../settings/settings.service';
import type { Download, DownloadService } from './download.service';
import { ItemAccess, notFound, type Actor } from './files.access';
import type { FilesRepository } from './files.repository';
import type { BytesReplacedListener } from './files.ports';
import type { AccountLimits, FilesService } from './files.service';
import type { ItemRow, NewContent } from './files.tables';
import type { ItemChanges } from './item-changes';
import type { OwnerUnits } from './owner-units';
import { objectAt, type StoragePurges } from './storage-purges';
import { presentVersions } from './versions.presenter';
import type { DoomedVersion, VersionsRepository } from './versions.repository';

const DAY_MS = 24 * 60 * 60_000;
/** A version this recent is never let go of to make room: the person may still want it back. */
export const PROTECTED_VERSION_MS = DAY_MS;
/** Versions read at once by retention and by making room. */
const BATCH = 500;

/** Who saved bytes, by name: the users module reads its accounts. */
export interface AuthorNames {
  /** The names of the accounts of these ids that exist. */
  namesOf(userIds: readonly string[]): Promise<Map<string, string>>;
}

export interface VersionsDeps {
  versions: VersionsRepository;
  authors: AuthorNames;
  /** Records the objects of the contents let go, in their unit of work, for deletion once it commits. */
  purges: StoragePurges;
  items: FilesRepository;
  files: FilesService;
  downloads: DownloadService;
  /** The owner's capacity, which a restore must not take usage past. */
  limits: AccountLimits;
  storage: StorageProvider;
  settings: SettingsService;
  changes: ItemChanges;
  notifications: NotificationsService;
  i18n: I18nService;
  /** Every change of versions is a unit of work on their owner's rows, the account held first. */
  owners: OwnerUnits;
  /** The background work made from a file's new current bytes (thumbnails), inside the unit of work. */
  filed(file: ItemRow): Promise<void>;
  /**
   * Enqueues the block packer's work for these contents of the owner's (its repack job), inside the
   * unit of work: a restored content's blocks stored as they are, the displaced one's compressed.
   */
  repack(userId: string, contentIds: readonly string[]): Promise<void>;
  /** Other modules told of every replace and restore, inside the unit of work. */
  replacements?: BytesReplacedListener;
  now: () => Date;
}

/**
 * Every earlier content a file keeps: listing, reading, restoring and deleting them, keeping the bytes
 * a file had when it takes new ones, and letting old ones go (retention, and room for an upload).
 * Readers of a file read its versions; those who may change it restore and delete them.
 */
export class VersionsService {
  private readonly access: ItemAccess;

  constructor(private readonly deps: VersionsDeps) {
    this.access = new ItemAccess(deps.items);
  }

  async list(actor: Actor, fileId: string): Promise<VersionResource[]> {
    const file = await this.readable(actor, fileId);
    const current = await this.currentView(file);
    const kept = await this.deps.versions.list(file.user_id, file.id);
    const authorIds = [current, ...kept].flatMap((content) => (content.author_id ? [content.author_id] : []));
    return presentVersions(current, kept, await this.deps.authors.namesOf([...new Set(authorIds)]));
  }

  /** The bytes of one version, the current one included, under the file's name. */
  async open(actor: Actor, fileId: string, versionId: string): Promise<Download> {
    const file = await this.readable(actor, fileId);
    const content =
      versionId === file.content_id
        ? await this.currentView(file)
        : await this.deps.versions.find(file.user_id, file.id, versionId);
    if (!content) throw notFound();
    return this.deps.downloads.bytes(actor, file.name, content);
  }

  /** The version's bytes become the file's; the bytes it had become a version, so nothing is lost. */
  async restore(actor: Actor, fileId: string, versionId: string): Promise<ItemResource> {
    const file = await this.changeable(actor, fileId);
    if (versionId === file.content_id) throw currentVersion();
    const version = await this.deps.versions.find(file.user_id, file.id, versionId);
    if (!version) throw notFound();
    const at = this.deps.now().toISOString();
    const { capacity } = await this.deps.limits.of(file.user_id);
    const used = async () => (await this.deps.items.usedBytesOf([file.user_id])).get(file.user_id)!;
    const thumbnails = await this.deps.owners.transaction(file.user_id, async () => {
      const usedBefore = await used();
      // Read before the unit began: a concurrent restore, delete or save since then answers not found,
      // changing nothing, instead of keeping the same bytes twice.
      if (!(await this.deps.versions.removeVersion(file.user_id, version.version_id))) throw notFound();
      const stale = await this.deps.versions.makeCurrent(file, { ...version, id: version.content_id }, at);
      if (stale === null) throw notFound();
      await this.keepCurrent(file, at);
      await this.deps.filed({ ...file, storage_key: version.storage_key, mimetype: version.mimetype });
      // Its blocks were compressed while only a version named them: stored as they are again now,
      // rather than at the packer's next run, so the restored file reads at a plain file's speed.
      await this.deps.repack(
        file.user_id,
        file.content_id ? [version.content_id, file.content_id] : [version.content_id],
      );
      // A version counts only its bytes no other content holds; current, it counts whole. A restore
      // that takes the usage up past the capacity is refused like an upload would be (one that takes
      // it down always passes).
      const usedAfter = await used();
      if (capacity !== null && usedAfter > usedBefore && usedAfter > capacity)
        throw new AppError('storage_limit_exceeded', 'errors.storage_limit_exceeded');
      await this.deps.changes.announce(file.user_id, [file.id]);
      return stale;
    });
    await (await this.deps.storage.current()).deleteMany(thumbnails);
    return this.deps.files.show(actor, file.id);
  }

  async remove(actor: Actor, fileId: string, versionId: string): Promise<void> {
    const file = await this.changeable(actor, fileId);
    if (versionId === file.content_id) throw currentVersion();
    const version = await this.deps.versions.find(file.user_id, file.id, versionId);
    if (!version) throw notFound();
    await this.letGo(
      file.user_id,
      [{ ...version, id: version.version_id, user_id: file.user_id, item_id: file.id }],
      () => this.deps.changes.announce(file.user_id, [file.id]),
    );
  }

  /**
   * Inside the caller's unit of work: `file` takes new bytes (`content`, already in storage) and keeps
   * the ones it had as a version. Answers the storage keys of the thumbnails of the bytes it had, for
   * the caller to delete once the unit of work commits.
   */
  async replaceBytes(file: ItemRow, content: NewContent, at: string): Promise<string[]> {
    await this.deps.versions.insertContent(content);
    return this.takeBytes(file, content, at);
  }

  /**
   * As `replaceBytes`, for a content the unit of work has already recorded (a delta upload's blocks,
   * see block-store.ts): `file` takes it and keeps the bytes it had as a version.
   */
  async takeBytes(
    file: ItemRow,
    content: Pick<NewContent, 'id' | 'storage_key' | 'size' | 'mimetype'>,
    at: string,
  ): Promise<string[]> {
    const stale = await this.deps.versions.makeCurrent(file, content, at);
    if (stale === null) throw notFound();
    await this.keepCurrent(file, at);
    return stale;
  }

  /** Whether the owner keeps a version old enough to be let go for room (makeRoom may free bytes). */
  async mayMakeRoom(ownerId: string): Promise<boolean> {
    const before = new Date(this.deps.now().getTime() - PROTECTED_VERSION_MS).toISOString();
    return (await this.deps.versions.oldestOf(ownerId, before, 1)).length > 0;
  }

  /**
   * Lets go of the owner's oldest versions (never the current bytes, never one kept in the last day)
   * until `bytes` are free, and tells the owner what went. A version frees only the bytes no other
   * version and no current file holds (storage_usage counts versions by their unique bytes), so each
   * is let go and the usage read again, in one unit of work that changes nothing unless enough went.
   * Answers the bytes freed.
   */
  async makeRoom(ownerId: string, bytes: number): Promise<number> {
    const now = this.deps.now();
    const before = new Date(now.getTime() - PROTECTED_VERSION_MS).toISOString();
    const candidates = await this.deps.versions.oldestOf(ownerId, before, BATCH);
    if (candidates.length === 0) return 0;
    const used = async () => (await this.deps.items.usedBytesOf([ownerId])).get(ownerId)!;
    let start = 0;
    let freed = 0;
    const enough = async () => {
      freed = start - (await used());
      return freed >= bytes;
    };
    // Read later by the owner: in their language, in the form its count takes.
    const tell = async (count: number) => {
      const t = (key: string) => this.deps.i18n.translateFor(ownerId, key, { count });
      await this.deps.notifications.notify(ownerId, {
        category: 'versions-removed',
        title: await t('notifications.versions_removed.title'),
        description: await t('notifications.versions_removed.description'),
        action: null,
      });
    };
    try {
      await this.deps.owners.transaction(ownerId, async () => {
        start = await used();
        // Versions go only when their going lets the upload in: never for nothing.
        if (!(await this.letGo(ownerId, candidates, tell, enough))) throw new NotEnoughRoom();
      });
    } catch (error) {
      if (error instanceof NotEnoughRoom) return 0;
      throw error;
    }
    return freed;
  }

  /**
   * Retention: every version is kept `versions_keep_all_days`, then the newest of each day of each
   * file until `versions_keep_daily_days`, then none. Answers how many versions went.
   */
  async thin(at: Date): Promise<number> {
    const { versions_keep_all_days: keepAll, versions_keep_daily_days: keepDaily } =
      await this.deps.settings.all();
    const allBefore = new Date(at.getTime() - keepAll * DAY_MS).toISOString();
    const dailyBefore = new Date(at.getTime() - Math.max(keepAll, keepDaily) * DAY_MS).toISOString();
    let removed = 0;
    // Newest first, so the first version of a file's day that is seen is the one kept.
    const kept = new Set<string>();
    for (let after: DoomedVersion | null = null; ;) {
      const batch: DoomedVersion[] = await this.deps.versions.newestBefore(allBefore, BATCH, after);
      if (batch.length === 0) break;
      after = batch.at(-1)!;
      const doomed = batch.filter((version) => {
        if (version.created_at < dailyBefore) return true;
        const day = `${version.item_id}:${version.created_at.slice(0, 10)}`;
        if (kept.has(day)) return true;
        kept.add(day);
        return false;
      });
      const byOwner = new Map<string, DoomedVersion[]>();
      for (const version of doomed)
        byOwner.set(version.user_id, [...(byOwner.get(version.user_id) ?? []), version]);
      for (const [ownerId, theirs] of byOwner) {
        const gone = await this.letGo(ownerId, theirs).then(
          () => theirs.length,
          (error: unknown) => {
            // The account went meanwhile, and its versions with it: none of them is this run's.
            if (error instanceof AppError && error.code === 'not_found') return 0;
            throw error;
          },
        );
        removed += gone;
      }
      if (batch.length < BATCH) break;
    }
    return removed;
  }

  /**
   * Removes the owner's versions and, in the same unit of work, does `alongside` with how many went
   * (an announcement, a notice). With `enough`, stops once it answers true after a removal; false (and
   * nothing done alongside) when it never did.
   */
  private async letGo(
    ownerId: string,
    versions: readonly DoomedVersion[],
    alongside?: (count: number) => Promise<unknown>,
    enough?: () => Promise<boolean>,
  ): Promise<boolean> {
    if (versions.length === 0) return false;
    // The rows, the record of their bytes and the job that deletes them commit together; the bytes go
    // once they have (by the job if this process dies first): never a version without its bytes.
    return this.deps.owners.transaction(ownerId, async () => {
      const gone: string[] = [];
      let count = 0;
      let done = !enough;
      for (const version of versions) {
        await this.deps.versions.removeVersion(version.user_id, version.id);
        gone.push(...(await this.deps.versions.deleteOrphanContents(version.user_id, [version.content_id])));
        count += 1;
        if (enough && (await enough())) {
          done = true;
          break;
        }
      }
      if (!done) return false;
      await alongside?.(count);
      await this.deps.purges.discard(gone.map(objectAt));
      return true;
    });
  }

  /**
   * The file's current bytes become a version (they stay stored where they are), as it takes others:
   * every replace and restore passes here, and the modules listening are told.
   */
  private async keepCurrent(file: ItemRow, at: string): Promise<void> {
    const current = await this.deps.versions.currentContent(file);
    await this.deps.versions.keep(file, current.id, at);
    await this.deps.replacements?.bytesReplaced(file);
  }

  private async currentView(file: ItemRow) {
    const content = await this.deps.versions.currentContent(file);
    return (await this.deps.versions.viewOfContent(file.user_id, content.id))!;
  }

  private async readable(actor: Actor, fileId: string): Promise<ItemRow> {
    this.access.assertCanReadBytes(actor);
    return this.access.reachOne(actor, fileId, 'live', 'file');
  }

  private async changeable(actor: Actor, fileId: string): Promise<ItemRow> {
    this.access.assertCanWrite(actor);
    const [file] = await this.access.reachToChange(actor, [{ id: fileId, type: 'file' }], 'live');
    return file!;
  }
}

/** Thrown to undo a makeRoom whose versions would not have freed enough. */
class NotEnoughRoom extends Error {}

function currentVersion(): AppError {
  return AppError.invalid('version', 'errors.version_current');
}
