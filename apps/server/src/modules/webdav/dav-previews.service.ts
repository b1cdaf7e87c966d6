import { THUMBNAIL_SIZES, type ThumbnailSize } from '@atelier/contracts';
import { AppError } from '../../lib/app-error';
import type { Download, DownloadService } from '../files/download.service';
import type { Actor, ActorResolver } from '../files/files.access';
import { DavRefusal } from './webdav.refusals';
import { encodeSegment, NEXTCLOUD_WEBDAV_PREFIX, type DavUser, type WebdavService } from './webdav.service';

/** Which file a preview is asked of: by id (`fileId`) or by its path in the user's files (`file`). */
export type PreviewTarget = { fileId: string } | { path: string };

/**
 * Nextcloud's previews (`/index.php/core/preview`) answered with the thumbnails the files module
 * made: the smallest that covers the asked box, else the largest there is. A file the user may not
 * read, or one without thumbnails, has none (404).
 */
export class DavPreviewsService {
  constructor(
    private readonly deps: { downloads: DownloadService; actors: ActorResolver; webdav: WebdavService },
  ) {}

  async preview(user: DavUser, target: PreviewTarget, side: number): Promise<Download> {
    const { actor, fileId } = await this.fileOf(user, target);
    for (const size of sizesFor(side)) {
      try {
        return await this.deps.downloads.thumbnail(actor, size, fileId);
      } catch (error) {
        // This size was not made (a model's preview has fewer): the next nearest may be.
        if (!(error instanceof AppError && error.code === 'not_found')) throw error;
      }
    }
    throw new DavRefusal('not_found');
  }

  private async fileOf(user: DavUser, target: PreviewTarget): Promise<{ actor: Actor; fileId: string }> {
    if ('fileId' in target)
      return { actor: await this.deps.actors.of(user.id, [target.fileId]), fileId: target.fileId };
    // The path as the files mount serves it, team folders included.
    const segments = target.path.split('/').filter((segment) => segment !== '');
    const url = `${NEXTCLOUD_WEBDAV_PREFIX}/${segments.map(encodeSegment).join('/')}`;
    const location = await this.deps.webdav.locate(user, url);
    if (location.space !== 'tree' || location.item?.type !== 'file') throw new DavRefusal('not_found');
    return { actor: location.tree.actor, fileId: location.item.id };
  }
}

/** The thumbnail sizes to try for a box of `side` pixels: those that cover it, smallest first, then smaller ones, largest first. */
function sizesFor(side: number): ThumbnailSize[] {
  const sizes = (Object.entries(THUMBNAIL_SIZES) as [ThumbnailSize, number][]).sort((a, b) => a[1] - b[1]);
  const covering = sizes.filter(([, pixels]) => pixels >= side).map(([size]) => size);
  const smaller = sizes
    .filter(([, pixels]) => pixels < side)
    .map(([size]) => size)
    .reverse();
  return [...covering, ...smaller];
}
