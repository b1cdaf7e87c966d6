import { isModelFileName } from '@atelier/contracts';
import type { Logger } from 'pino';
import type { Database } from '../../db/database';
import type { Env } from '../../env';
import type { JobQueue } from '../../jobs/job-queue';
import type { Broadcaster } from '../../realtime/realtime.server';
import { StorageProvider } from '../../storage/storage-provider';
import type { I18nService } from '../i18n/i18n.service';
import type { NotificationsService } from '../notifications/notifications.service';
import type { SettingsService } from '../settings/settings.service';
import { modelPreviewJob } from '../projects/model-preview.job';
import { BlockStoreRepository } from './block-store.repository';
import { StoredBlocks, type ContentReader } from './block-store';
import { BlockUploadService } from './block-upload.service';
import { DownloadService } from './download.service';
import { BlockCollector } from './block-collector';
import { BlockPacker } from './block-packer';
import { Blockifier } from './blockify';
import { blockifyJob, blockRepackJob, remoteUploadJob, storagePurgeJob, thumbnailsJob } from './files.jobs';
import type { AccountHolds, ItemReader } from './files.ports';
import { FileEvents } from './file-events';
import type { ItemRow } from './files.tables';
import { FilesRepository } from './files.repository';
import type { ShareLinkQueries, TeamFolderQueries } from './listing-sources';
import { FilesService, type AccountLimits } from './files.service';
import { ItemChanges, type ItemWatchers } from './item-changes';
import { ListingCache } from './listing-cache';
import { OwnerUnits } from './owner-units';
import { RemoteFetcher } from './remote-fetch';
import { RemoteUploadService } from './remote-upload.service';
import { StoragePurges } from './storage-purges';
import { ThumbnailService } from './thumbnail.service';
import { UploadService } from './upload.service';
import { VersionsRepository } from './versions.repository';
import { VersionsService, type AuthorNames } from './versions.service';
import { ZipSlots } from './zip-slots';

export interface FilesModuleDeps {
  env: Env;
  /** The app's clock: items and upload sessions are stamped with it. */
  now: () => Date;
  settings: SettingsService;
  /** The owner's capacity, usage and restrictions, read narrowly for every chunk, download and write. */
  limits: AccountLimits;
  jobs: JobQueue;
  /** The module's tables are read and written through its own repository; its writes join `units.transaction`. */
  database: Database;
  realtime: Broadcaster;
  /** Who besides the owner is told of changes to the owner's items. */
  watchers: ItemWatchers;
  /** The sharing module's links, as listings show them. */
  shareLinks: ShareLinkQueries;
  /** The teams module's team folders, for the team folders' listings. */
  teamFolders: TeamFolderQueries;
  /** The users module's names of who saved a file's versions. */
  authors: AuthorNames;
  /** Held first by every unit of work on an owner's rows (the users module's accounts; see OwnerUnits). */
  accounts: AccountHolds;
  notifications: NotificationsService;
  i18n: I18nService;
  logger: Logger;
  /** Counts bytes a user's files sent or received (metered billing's bandwidth). */
  countTransfer?: (userId: string, bytes: number) => Promise<void>;
}

/** The files services, wired once; services.ts spreads them into the app's dependencies. */
export function createFilesServices({
  env,
  now,
  settings,
  limits,
  jobs,
  database,
  realtime,
  watchers,
  shareLinks,
  teamFolders,
  authors,
  accounts,
  notifications,
  i18n,
  logger,
  countTransfer,
}: FilesModuleDeps) {
  /** Replaces and restores of a file's bytes (the studio); folders deleted for good, trashed and restored (teams). */
  const fileEvents = new FileEvents();
  const items = new FilesRepository(database, now, { shareLinks, teamFolders });
  const reader: ItemReader = items;
  const units = database;
  const owners = new OwnerUnits(units, accounts);
  const storage = new StorageProvider(env, settings);
  const itemChanges = new ItemChanges({ watchers, items, realtime, units, logger });
  const contents = new VersionsRepository(database);
  /** Contents as blocks (issue 24): the one reader of every file's bytes, and the delta upload's store. */
  const blockRows = new BlockStoreRepository(database);
  const blockStore = new StoredBlocks({ repository: blockRows, storage, units, now });
  /** The block packer's work for some contents of an owner's, enqueued in the caller's unit of work. */
  const repack = async (userId: string, contentIds: readonly string[]) => {
    await jobs.enqueue(blockRepackJob, { userId, contentIds: [...contentIds] });
  };
  const blockifier = new Blockifier({
    repository: blockRows,
    blocks: blockStore,
    storage,
    units,
    repack,
    now,
  });
  const blockCollector = new BlockCollector({ repository: blockRows, storage, units });
  const blockPacker = new BlockPacker({ repository: blockRows, storage, now });
  const storagePurges = new StoragePurges({
    database,
    units,
    storage,
    purgeLater: async (purgeId) => {
      await jobs.enqueue(storagePurgeJob, { purge_id: purgeId });
    },
    now,
  });
  const files = new FilesService(items, storage, limits, settings, itemChanges, now, contents, {
    purges: storagePurges,
    owners,
    blocks: blockRows,
    listener: fileEvents,
  });
  /** The work made in the background from a file's current bytes, enqueued in the unit of work that files them. */
  const filed = async (file: ItemRow) => {
    // Its bytes become blocks (or, filed from blocks, get their whole-file hash) in the background.
    if (file.storage_key) await jobs.enqueue(blockifyJob, { storageKey: file.storage_key });
    if (/^(image|video)\//.test(file.mimetype ?? '')) {
      // Owed until the job settles it: the sweep enqueues the job again should it be lost.
      await items.requestThumbnails(file.id, now().toISOString());
      await jobs.enqueue(thumbnailsJob, { itemId: file.id });
    } else if (isModelFileName(file.name)) await jobs.enqueue(modelPreviewJob, { itemId: file.id });
  };
  const downloads = new DownloadService(items, storage, blockStore, limits, countTransfer);
  const versions = new VersionsService({
    versions: contents,
    authors,
    purges: storagePurges,
    items,
    files,
    downloads,
    limits,
    storage,
    settings,
    changes: itemChanges,
    notifications,
    i18n,
    owners,
    filed,
    repack,
    replacements: fileEvents,
    now,
  });
  const uploads = new UploadService(
    items,
    files,
    storage,
    limits,
    settings,
    itemChanges,
    {
      filed,
      received: async (file) => {
        await countTransfer?.(file.user_id, Number(file.size));
      },
    },
    units,
    now,
    versions,
    blockStore,
    storagePurges,
    owners,
  );
  const thumbnails = new ThumbnailService(items, uploads, blockStore, itemChanges, units);
  const blockUploads = new BlockUploadService({ blocks: blockStore, uploads, items, now, countTransfer });
  const listings = new ListingCache(items);
  const remoteUploads = new RemoteUploadService({
    items,
    uploads,
    limits,
    settings,
    fetcher: new RemoteFetcher({ allowed: env.REMOTE_UPLOAD_ALLOWED_PRIVATE_ADDRESSES }),
    realtime,
    notifications,
    i18n,
    logger,
    enqueue: async (batch) => {
      await jobs.enqueue(remoteUploadJob, batch);
    },
  });
  const zipSlots = new ZipSlots({
    perLink: env.ZIP_CONCURRENCY_PER_LINK,
    perClient: env.ZIP_CONCURRENCY_PER_CLIENT,
  });
  return {
    /** For services.ts to join other modules to, not a dependency to spread into theirs. */
    fileEvents,
    /** What other modules read of items; they never see the repository. */
    items: reader,
    storage,
    blockStore,
    blockifier,
    blockCollector,
    blockPacker,
    /** What other modules read of files' bytes, whatever their layout. */
    contents: blockStore as ContentReader,
    limits,
    itemChanges,
    files,
    uploads,
    blockUploads,
    downloads,
    versions,
    /** Units of work on an owner's rows, the owner's account held first: other modules' too (WebDAV's). */
    owners,
    thumbnails,
    listings,
    remoteUploads,
    zipSlots,
    storagePurges,
  };
}

/** The background jobs of the files module, for the worker's list. */
export const filesJobDefinitions = [
  thumbnailsJob,
  remoteUploadJob,
  storagePurgeJob,
  blockifyJob,
  blockRepackJob,
];
