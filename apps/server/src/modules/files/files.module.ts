import { isModelFileName } from '@atelier/contracts';
import type { Env } from '../../env';
import type { JobQueue } from '../../jobs/job-queue';
import { StorageProvider } from '../../storage/storage-provider';
import type { SettingsService } from '../settings/settings.service';
import type { UsersService } from '../users/users.service';
import { modelPreviewJob } from '../projects/model-preview.job';
import { DownloadService } from './download.service';
import { thumbnailsJob } from './files.jobs';
import type { FilesRepository } from './files.repository';
import { FilesService, type AccountLimits } from './files.service';
import { ListingCache } from './listing-cache';
import { ThumbnailService } from './thumbnail.service';
import { UploadService } from './upload.service';

export interface FilesModuleDeps {
  env: Env;
  settings: SettingsService;
  users: UsersService;
  jobs: JobQueue;
  items: FilesRepository;
}

/** The files services, wired once; services.ts spreads them into the app's dependencies. */
export function createFilesServices({ env, settings, users, jobs, items }: FilesModuleDeps) {
  const storage = new StorageProvider(env, settings);
  // Restrictions and capacity come from the user resource, the one place that derives them.
  const limits: AccountLimits = {
    async of(ownerId) {
      const owner = await users.findById(ownerId);
      if (!owner) throw new Error(`Owner ${ownerId} is gone`);
      const { meta } = await users.resource(owner);
      return { restrictions: meta.restrictions, capacity: meta.usages.capacity, used: meta.usages.used };
    },
  };
  const files = new FilesService(items, storage, limits, settings);
  const thumbnails = new ThumbnailService(items, storage);
  const uploads = new UploadService(items, files, storage, limits, settings, async (file) => {
    if (/^(image|video)\//.test(file.mimetype ?? '')) await jobs.enqueue(thumbnailsJob, { itemId: file.id });
    else if (isModelFileName(file.name)) await jobs.enqueue(modelPreviewJob, { itemId: file.id });
  });
  const downloads = new DownloadService(items, storage, limits);
  const listings = new ListingCache(items);
  return { storage, files, uploads, downloads, thumbnails, listings };
}

/** The background jobs of the files module, for the worker's list. */
export const filesJobDefinitions = [thumbnailsJob];
