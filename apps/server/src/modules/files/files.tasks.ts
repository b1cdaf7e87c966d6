import type { PeriodicTask } from '../../jobs/scheduler';
import type { BlockCollector } from './block-collector';
import type { BlockPacker } from './block-packer';
import type { Blockifier } from './blockify';
import type { JobQueue } from '../../jobs/job-queue';
import { blockifyJob, thumbnailsJob } from './files.jobs';
import type { ThumbnailService } from './thumbnail.service';
import type { UploadService } from './upload.service';
import type { VersionsService } from './versions.service';

/** An upload nobody continued for a day is abandoned. */
export const ABANDONED_UPLOAD_MS = 24 * 60 * 60_000;

/** A content still stored as one object this long after it was filed is blockified by the sweep. */
export const BLOCKIFY_SWEEP_AGE_MS = 10 * 60_000;
/** Contents one sweep enqueues at most. */
export const BLOCKIFY_SWEEP_BATCH = 500;

/** A file still owed thumbnails this long after its job was enqueued has lost it: the sweep enqueues it again. */
export const THUMBNAIL_SWEEP_AGE_MS = 10 * 60_000;
/** Times the sweep enqueues a file's thumbnail job again before it leaves the file without (a job that kills its worker). */
export const THUMBNAIL_SWEEP_TRIES = 3;
/** Files one thumbnail sweep enqueues at most. */
export const THUMBNAIL_SWEEP_BATCH = 500;

/**
 * The files module's periodic work, every hour: abandoned chunked uploads are removed, and versions
 * past their retention are let go of; every ten minutes, contents left as one object (a lost job, or
 * files stored before the block store) are handed to the blockify job, a batch at a time, and files
 * still owed thumbnails long after their job was enqueued (a job lost) get it again, and blocks only
 * versions name are compressed (those a restore makes current again expanded); every hour, blocks no
 * file names any more are collected.
 */
export function filesTasks(services: {
  uploads: UploadService;
  versions: VersionsService;
  blockifier: Blockifier;
  blockCollector: BlockCollector;
  blockPacker: BlockPacker;
  thumbnails: ThumbnailService;
  jobs: JobQueue;
}): PeriodicTask[] {
  return [
    {
      name: 'files.upload-sweep',
      everyMs: 60 * 60_000,
      run: (at) => services.uploads.sweepAbandoned(ABANDONED_UPLOAD_MS, at),
    },
    {
      name: 'files.version-retention',
      everyMs: 60 * 60_000,
      run: (at) => services.versions.thin(at),
    },
    {
      name: 'files.blockify-sweep',
      everyMs: 10 * 60_000,
      run: (at) =>
        services.blockifier.sweep(at, BLOCKIFY_SWEEP_AGE_MS, BLOCKIFY_SWEEP_BATCH, async (storageKey) => {
          await services.jobs.enqueue(blockifyJob, { storageKey });
        }),
    },
    {
      name: 'files.thumbnail-sweep',
      everyMs: 10 * 60_000,
      run: (at) =>
        services.thumbnails.sweep(
          at,
          { ageMs: THUMBNAIL_SWEEP_AGE_MS, tries: THUMBNAIL_SWEEP_TRIES, batch: THUMBNAIL_SWEEP_BATCH },
          async (itemId) => {
            await services.jobs.enqueue(thumbnailsJob, { itemId });
          },
        ),
    },
    {
      name: 'files.block-packing',
      everyMs: 10 * 60_000,
      run: () => services.blockPacker.pack(),
    },
    {
      name: 'files.block-collection',
      everyMs: 60 * 60_000,
      run: (at) => services.blockCollector.collect(at),
    },
  ];
}
