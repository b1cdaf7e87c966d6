import { THUMBNAIL_MIMETYPE } from '@atelier/contracts';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { UnitOfWork } from '../../db/database';
import { PermanentJobError } from '../../jobs/job-definition';
import type { ContentReader } from './block-store';
import type { FilesRepository } from './files.repository';
import type { ThumbnailRow } from './files.tables';
import type { ItemChanges } from './item-changes';
import type { Thumbnail } from './thumbnail.generator';
import type { UploadService } from './upload.service';

/**
 * Makes the thumbnails of a stored file; run by the background job, safe to repeat. A file owed
 * thumbnails has a request (written with its job); the job settles it once the file has them or
 * never will, and the sweep enqueues the job again for a request its lost job left behind.
 */
export class ThumbnailService {
  constructor(
    private readonly items: FilesRepository,
    /** Reservations of no bytes that hold the thumbnails' objects until their rows are kept. */
    private readonly uploads: Pick<UploadService, 'reserve'>,
    /** The file's bytes, whatever their layout. */
    private readonly contents: ContentReader,
    private readonly changes: ItemChanges,
    private readonly units: UnitOfWork,
  ) {}

  /**
   * True when thumbnails exist afterwards; false for types that get none or items gone meanwhile.
   * Either way the file's request is settled; a failure that may pass (storage away) leaves it.
   */
  async generate(itemId: string): Promise<boolean> {
    try {
      const made = await this.make(itemId);
      // Bytes replaced while their picture was made: the request is the new bytes' (their own job settles it).
      if (made === 'stale') return false;
      await this.items.thumbnailsSettled(itemId);
      return made;
    } catch (error) {
      if (error instanceof PermanentJobError) await this.items.thumbnailsSettled(itemId);
      throw error;
    }
  }

  /**
   * Enqueues the job again for files owed thumbnails since more than `ageMs` before `at` and swept
   * fewer than `tries` times, at most `batch` of them, each in a unit of work with its request's new
   * time; answers how many.
   */
  async sweep(
    at: Date,
    { ageMs, tries, batch }: { ageMs: number; tries: number; batch: number },
    enqueue: (itemId: string) => Promise<void>,
  ): Promise<number> {
    const before = new Date(at.getTime() - ageMs).toISOString();
    const overdue = await this.items.overdueThumbnails(before, tries, batch);
    for (const itemId of overdue)
      await this.units.transaction(async () => {
        await this.items.thumbnailsRequestedAgain(itemId, at.toISOString());
        await enqueue(itemId);
      });
    return overdue.length;
  }

  private async make(itemId: string): Promise<boolean | 'stale'> {
    const item = await this.items.findFile(itemId);
    // sharp and ffmpeg load only in processes that actually make thumbnails.
    const generator = await import('./thumbnail.generator');
    const source = item?.mimetype ? generator.thumbnailSource(item.mimetype) : null;
    if (!item?.storage_key || !source) return false;
    if ((await this.items.thumbnailsOf([item.id])).length > 0) return true;

    const key = item.storage_key;
    const thumbnails =
      source === 'image'
        ? await unreadableIsFinal(item.id, generator.makeImageThumbnails(await this.contents.read(key)))
        : await this.withLocalCopy(key, async (path) => {
            const poster = await unreadableIsFinal(item.id, generator.makeVideoPoster(path));
            return unreadableIsFinal(item.id, generator.makeImageThumbnails(poster));
          });

    return this.save(item.id, thumbnails, key);
  }

  /**
   * Stores made thumbnails of a file (also those another module renders, like 3D previews); false
   * when the file was deleted meanwhile, and then nothing of them is kept. `madeFrom`: the object
   * they were made from; `stale`, keeping nothing, when the file holds other bytes by now (a replace
   * or restore while they were made: the old picture would stay for good).
   */
  async save(itemId: string, thumbnails: readonly Thumbnail[]): Promise<boolean>;
  async save(itemId: string, thumbnails: readonly Thumbnail[], madeFrom: string): Promise<boolean | 'stale'>;
  async save(
    itemId: string,
    thumbnails: readonly Thumbnail[],
    madeFrom?: string,
  ): Promise<boolean | 'stale'> {
    const owner = await this.items.findAny(itemId);
    if (!owner) return false;
    // The objects are recorded with a reservation of no bytes (thumbnails count against no quota)
    // before they are written, and taken back in the unit of work that keeps their rows: release
    // deletes the others, and the upload sweep does after a process killed before the keeping.
    const reservation = await this.uploads.reserve(owner.user_id, 0);
    if (!reservation) throw new Error(`No reservation of no bytes for ${owner.user_id}`);
    try {
      const rows: ThumbnailRow[] = [];
      for (const thumbnail of thumbnails) {
        const { key } = await reservation.put(thumbnail.data, { contentType: THUMBNAIL_MIMETYPE });
        rows.push({
          item_id: itemId,
          size: thumbnail.size,
          storage_key: key,
          width: thumbnail.width,
          height: thumbnail.height,
        });
      }
      const current = await reservation.filing(async () => {
        const file = await this.items.findFile(itemId);
        if (madeFrom !== undefined && file?.storage_key !== madeFrom) return 'stale' as const;
        // Another run for the file (a retry beside a stalled run, a sweep's job) may have kept its
        // thumbnails first: this run's objects of those sizes are named by no row, and release deletes them.
        const kept = await this.items.insertThumbnails(rows);
        await reservation.keep([...kept]);
        return kept;
      });
      if (current === 'stale') return (await this.items.findFile(itemId)) ? 'stale' : false;
    } catch (error) {
      // The file was deleted while its thumbnails were made: they go too (on release).
      if (!(await this.items.findFile(itemId))) return false;
      throw error;
    } finally {
      await reservation.release();
    }
    // Open listings show the file's picture once it exists.
    const item = await this.items.findAny(itemId);
    if (item) await this.changes.announce(item.user_id, [item.id]);
    return true;
  }

  /** ffmpeg needs to seek in most MP4s, so the video is copied to a temporary file first. */
  private async withLocalCopy<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(join(tmpdir(), 'atelier-poster-'));
    try {
      const path = join(dir, 'video');
      await pipeline(await this.contents.read(key), createWriteStream(path));
      return await use(path);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

/** Bytes sharp or ffmpeg can't read stay unreadable: the job fails at once instead of retrying. */
async function unreadableIsFinal<T>(itemId: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw new PermanentJobError(`No thumbnails for ${itemId}: ${(error as Error).message}`);
  }
}
