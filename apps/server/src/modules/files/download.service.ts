import { THUMBNAIL_MIMETYPE, type ThumbnailSize } from '@atelier/contracts';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError } from '../../lib/app-error';
import { zipStream, type ZipEntry } from '../../lib/zip-stream';
import type { StorageProvider } from '../../storage/storage-provider';
import type { ContentReader } from './block-store';
import { ItemAccess, notFound, refusalReasonFor, type Actor } from './files.access';
import type { FilesRepository } from './files.repository';
import type { AccountLimits } from './files.service';
import type { ItemRow, ItemType } from './files.tables';
import { trimCharacters } from '../../lib/trim-characters';

/** Bytes to send: the whole object or one range of it. */
export interface Download {
  name: string;
  mimetype: string;
  size: number;
  etag: string;
  modifiedAt: string;
  /** Opens the bytes; only called when a body is actually sent. */
  open(range?: { start: number; end: number }): Promise<Readable>;
}

// Compressing these gains nothing, and storing them keeps a zip as fast as a raw read.
const COMPRESSIBLE =
  /^(text\/|application\/(json|xml|javascript|rtf|x-sh)|image\/svg\+xml|model\/(step|iges|obj|stl))/;

/** Serving files and thumbnails, and streaming zips of whole trees. */
export class DownloadService {
  private readonly access: ItemAccess;

  constructor(
    private readonly items: FilesRepository,
    private readonly storage: StorageProvider,
    /** Files' bytes, whatever their layout (one object or blocks). */
    private readonly contents: ContentReader,
    private readonly limits: AccountLimits,
    /** Counts the bytes a download sends, for the owner's bandwidth (metered billing). */
    private readonly countTransfer?: (ownerId: string, bytes: number) => Promise<void>,
  ) {
    this.access = new ItemAccess(items);
  }

  async file(actor: Actor, id: string): Promise<Download> {
    const item = await this.access.reachOne(actor, id, 'any', 'file');
    return this.bytes(actor, item.name, {
      storage_key: item.storage_key!,
      size: item.size,
      mimetype: item.mimetype,
      created_at: item.updated_at,
    });
  }

  /** Stored bytes of a file the actor reached (its current ones or a version's), under the file's name. */
  async bytes(
    actor: Actor,
    name: string,
    content: { storage_key: string; size: number; mimetype: string | null; created_at: string },
  ): Promise<Download> {
    await this.assertCanDownload(actor);
    const size = Number(content.size);
    return {
      name,
      mimetype: content.mimetype ?? 'application/octet-stream',
      size,
      etag: contentEtag(content.storage_key),
      modifiedAt: content.created_at,
      open: async (range) => {
        await this.countTransfer?.(actor.ownerId, range ? range.end - range.start + 1 : size);
        return this.contents.read(content.storage_key, range);
      },
    };
  }

  async thumbnail(actor: Actor, size: ThumbnailSize, id: string): Promise<Download> {
    this.access.assertCanReadBytes(actor);
    const item = await this.access.reachOne(actor, id, 'any', 'file');
    const thumbnail = await this.items.findThumbnail(item.id, size);
    if (!thumbnail) throw notFound();
    const storage = await this.storage.current();
    const stat = await storage.stat(thumbnail.storage_key);
    if (!stat) throw notFound();
    return {
      name: `${item.name}-${size}.webp`,
      mimetype: THUMBNAIL_MIMETYPE,
      size: stat.size,
      etag: `"${digest(thumbnail.storage_key)}"`,
      modifiedAt: item.updated_at,
      open: (range) => storage.get(thumbnail.storage_key, range),
    };
  }

  /**
   * A zip of files and folders (their live contents, tree kept), written as it is read from
   * storage: one object open at a time, nothing buffered whole, no temporary file.
   */
  async zip(
    actor: Actor,
    refs: { id: string; type: ItemType }[],
  ): Promise<{ name: string; archive: Readable }> {
    const chosen = await this.access.reach(actor, refs, 'live');
    await this.assertCanDownload(actor);
    const below = await this.items.subtree(
      actor.ownerId,
      chosen.filter((item) => item.type === 'folder').map((item) => item.id),
    );
    const children = new Map<string, ItemRow[]>();
    for (const row of below) {
      if (row.deleted_at !== null || !row.parent_id) continue;
      // Pushed, not copied: a copy per row made a folder of 40,000 files cost seconds of the event loop.
      const siblings = children.get(row.parent_id);
      if (siblings) siblings.push(row);
      else children.set(row.parent_id, [row]);
    }
    const entries: { path: string; item: ItemRow }[] = [];
    const walk = (items: ItemRow[], prefix: string) => {
      const names = new UniqueNames();
      for (const item of items) {
        const path = prefix + names.take(item.name, item.type);
        entries.push({ path, item });
        if (item.type === 'folder') walk(children.get(item.id) ?? [], `${path}/`);
      }
    };
    walk(chosen, '');

    const zipEntries = entries.map(({ path, item }): ZipEntry => {
      const modifiedAt = new Date(item.updated_at);
      if (item.type === 'folder') return { kind: 'folder', name: path, modifiedAt };
      return {
        kind: 'file',
        name: path,
        modifiedAt,
        size: Number(item.size),
        compress: COMPRESSIBLE.test(item.mimetype ?? ''),
        open: async () => {
          await this.countTransfer?.(actor.ownerId, Number(item.size));
          return this.contents.read(item.storage_key!);
        },
      };
    });
    const archive = zipStream(zipEntries);

    const single =
      chosen.length === 1 && chosen[0]!.type === 'folder' ? sanitizeName(chosen[0]!.name) : 'archive';
    return { name: `${single}.zip`, archive };
  }

  /**
   * Bytes leave only for an actor that reads them, of an account whose plan lets it download; why
   * not (an unpaid bill) is told to the owner alone.
   */
  async assertCanDownload(actor: Actor): Promise<void> {
    this.access.assertCanReadBytes(actor);
    const refusal = await this.limits.downloadRefusal(actor.ownerId);
    if (refusal !== null)
      throw new AppError('forbidden', refusalReasonFor(actor, refusal || null) ?? 'errors.download_disabled');
  }
}

/** Bytes at a storage key never change, so the key identifies one version of a file's content. */
export function contentEtag(storageKey: string): string {
  return `"${digest(storageKey)}"`;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 27);
}

/** A name safe as one path segment on every system's unzip: no separators, reserved or control characters. */
export function sanitizeName(name: string): string {
  const cleaned = trimCharacters(
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
    name.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, '_'),
    '. ',
  ).trim();
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? '_' : cleaned;
}

/**
 * Names within one folder of a zip, made unique (`a.txt`, `a (1).txt`) without regard to case. Each
 * name's count goes on from the number it last gave: many names that clean to one (`x?`, `x*`, `x:`
 * all become `x_`) cost one try each, not one for every name before them.
 */
export class UniqueNames {
  private readonly taken = new Set<string>();
  private readonly nextNumber = new Map<string, number>();

  take(name: string, type: ItemType): string {
    const safe = sanitizeName(name);
    const dot = type === 'file' ? safe.lastIndexOf('.') : -1;
    const [stem, extension] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
    const key = safe.toLowerCase();
    let candidate = safe;
    let n = this.nextNumber.get(key) ?? 1;
    for (; this.taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
    if (candidate !== safe) this.nextNumber.set(key, n);
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
