import { AVATAR_SIZES, AVATAR_TYPES, type AvatarSize } from '@atelier/contracts';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AppError } from '../../lib/app-error';

/** A photo up to about 40 megapixels; a file declaring more is refused before it is decoded. */
const MAX_INPUT_PIXELS = 40_000_000;

/** The image type its bytes show (never its name's), or a 422 for anything but png, jpeg and webp. */
export async function avatarType(bytes: Buffer): Promise<(typeof AVATAR_TYPES)[number]> {
  const found = await fileTypeFromBuffer(bytes);
  const type = AVATAR_TYPES.find((allowed) => allowed === found?.mime);
  if (!type) throw AppError.invalid('avatar', 'validation.avatar_type');
  return type;
}

/**
 * Every avatar size as a square WebP, cropped from the centre and upright per EXIF. Re-encoding
 * without `withMetadata` leaves EXIF, GPS and XMP behind; bytes that do not decode are a 422.
 */
export async function encodeAvatar(bytes: Buffer): Promise<Record<AvatarSize, Buffer>> {
  const decoder = sharp(bytes, {
    failOn: 'error',
    animated: false,
    limitInputPixels: MAX_INPUT_PIXELS,
  }).rotate();
  try {
    const encoded = await Promise.all(
      (Object.entries(AVATAR_SIZES) as [AvatarSize, number][]).map(
        async ([size, side]) =>
          [
            size,
            await decoder.clone().resize(side, side, { fit: 'cover' }).webp({ quality: 85 }).toBuffer(),
          ] as const,
      ),
    );
    return Object.fromEntries(encoded) as Record<AvatarSize, Buffer>;
  } catch {
    throw AppError.invalid('avatar', 'validation.avatar_unreadable');
  }
}
