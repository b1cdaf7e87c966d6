import type { Readable } from 'node:stream';
import type { SettingsImageName } from '@atelier/contracts';
import sharp, { type Sharp } from 'sharp';
import { AppError } from '../../lib/app-error';
import { detectImageType, MAX_INPUT_PIXELS } from '../../lib/image-form';
import { newStorageKey, StorageNotFoundError } from '../../storage/storage';
import type { StorageProvider } from '../../storage/storage-provider';
import { objectAt, type StoragePurges } from '../files/storage-purges';
import type { UploadService } from '../files/upload.service';
import type { Settings } from './settings.defaults';
import type { SettingsService } from './settings.service';

export type ImageVariant = 'main' | 'touch';

interface Rendition {
  variant: ImageVariant;
  contentType: 'image/png' | 'image/jpeg';
  encode: (image: Sharp) => Sharp;
}

const LOGO: Rendition[] = [
  {
    variant: 'main',
    contentType: 'image/png',
    encode: (i) => i.resize(512, 512, { fit: 'inside', withoutEnlargement: true }).png(),
  },
];
const HORIZONTAL_LOGO: Rendition[] = [
  {
    variant: 'main',
    contentType: 'image/png',
    encode: (i) => i.resize(960, 240, { fit: 'inside', withoutEnlargement: true }).png(),
  },
];

/**
 * What each image becomes: logos (light and dark) keep their shape and transparency within a bound,
 * the favicon is a 32 px tab icon plus the 180 px home-screen icon, the OpenGraph image the 1200x630
 * card crawlers show.
 */
const RENDITIONS: Record<SettingsImageName, Rendition[]> = {
  app_logo: LOGO,
  app_logo_dark: LOGO,
  app_logo_horizontal: HORIZONTAL_LOGO,
  app_logo_horizontal_dark: HORIZONTAL_LOGO,
  app_favicon: [
    {
      variant: 'main',
      contentType: 'image/png',
      encode: (i) => i.resize(32, 32, { fit: 'contain', background: '#0000' }).png(),
    },
    {
      variant: 'touch',
      contentType: 'image/png',
      encode: (i) => i.resize(180, 180, { fit: 'contain', background: '#0000' }).png(),
    },
  ],
  app_og_image: [
    {
      variant: 'main',
      contentType: 'image/jpeg',
      encode: (i) => i.resize(1200, 630, { fit: 'cover' }).jpeg({ quality: 85 }),
    },
  ],
};

const IMAGE_NAMES = Object.keys(RENDITIONS) as SettingsImageName[];

const objectKey = (key: string, variant: ImageVariant) => `app-image-${key}-${variant}`;

/** The public address of one stored image; the key changes with every upload, so it caches forever. */
export function appImageUrl(key: string | null, variant: ImageVariant = 'main'): string | null {
  return key ? `/api/app-images/${key}/${variant}` : null;
}

export interface SettingsImagesDeps {
  settings: SettingsService;
  storage: StorageProvider;
  /** Stores a new image's renditions, held until the setting names them. */
  uploads: Pick<UploadService, 'storeNamed'>;
  /** The renditions of the image a change lets go, deleted once it commits. */
  purges: Pick<StoragePurges, 'discard'>;
}

/** The instance's logos, favicon and OpenGraph image: re-encoded by sharp, kept in the file storage. */
export class SettingsImagesService {
  constructor(private readonly deps: SettingsImagesDeps) {}

  /**
   * Stores the image's renditions under a new key, makes it the setting, and deletes the previous
   * one. Renditions no setting names (the change failed, its process was killed) are deleted too,
   * held meanwhile under the uploading admin (`adminId`, see UploadService.storeNamed).
   */
  async replace(adminId: string, name: SettingsImageName, bytes: Buffer): Promise<string> {
    await detectImageType(bytes, 'image', 'validation.settings_image_type');
    const renditions = await encode(name, bytes);
    const key = newStorageKey();
    await this.deps.uploads.storeNamed(
      adminId,
      renditions.map((r) => ({ key: objectKey(key, r.variant), body: r.bytes, contentType: r.contentType })),
      () => this.swap(name, key),
    );
    return appImageUrl(key)!;
  }

  /** In the caller's unit of work: clears the setting; its renditions go once that commits. */
  clear(name: SettingsImageName): Promise<void> {
    return this.swap(name, null);
  }

  /**
   * `key` becomes the image's, and the renditions of the one it replaces, read from the database
   * under a lock (the cache may not yet hold another process's change), are recorded with the job
   * that deletes them once the unit of work commits.
   */
  private async swap(name: SettingsImageName, key: string | null): Promise<void> {
    const previous = await this.deps.settings.swap(name, key);
    if (previous)
      await this.deps.purges.discard(RENDITIONS[name].map((r) => objectAt(objectKey(previous, r.variant))));
  }

  /** One rendition of an image the instance uses now; any other key is 404, so no other object is reachable. */
  /** Whether any of the instance's images is stored (a logo, the favicon, the OpenGraph image). */
  async holdsAny(): Promise<boolean> {
    const settings = await this.deps.settings.all();
    return IMAGE_NAMES.some((name) => settings[name] !== null);
  }

  async open(key: string, variant: ImageVariant): Promise<{ stream: Readable; contentType: string }> {
    const settings = await this.deps.settings.all();
    const name = IMAGE_NAMES.find((n) => settings[n] === key);
    const rendition = name && RENDITIONS[name].find((r) => r.variant === variant);
    if (!rendition) throw new AppError('not_found', 'errors.not_found');
    try {
      return {
        stream: await (await this.deps.storage.current()).get(objectKey(key, variant)),
        contentType: rendition.contentType,
      };
    } catch (error) {
      if (error instanceof StorageNotFoundError) throw new AppError('not_found', 'errors.not_found');
      throw error;
    }
  }
}

/** Every rendition of the upload, upright and without metadata; bytes that do not decode are a 422. */
async function encode(
  name: SettingsImageName,
  bytes: Buffer,
): Promise<Array<{ variant: ImageVariant; contentType: string; bytes: Buffer }>> {
  const decoder = sharp(bytes, {
    failOn: 'error',
    animated: false,
    limitInputPixels: MAX_INPUT_PIXELS,
  }).rotate();
  try {
    return await Promise.all(
      RENDITIONS[name].map(async (r) => ({
        variant: r.variant,
        contentType: r.contentType,
        bytes: await r.encode(decoder.clone()).toBuffer(),
      })),
    );
  } catch {
    throw AppError.invalid('image', 'validation.settings_image_unreadable');
  }
}

/** The image settings an update clears. */
export function clearedImages(values: Partial<Settings>): SettingsImageName[] {
  return IMAGE_NAMES.filter((name) => name in values && values[name] === null);
}
