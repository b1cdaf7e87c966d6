import { AVATAR_SIZES, type AvatarSize } from '@atelier/contracts';
import sharp from 'sharp';
import { AppError } from '../../lib/app-error';
import { detectImageType, MAX_INPUT_PIXELS, type ImageType } from '../../lib/image-form';

/** The image type its bytes show (never its name's), or a 422 for anything but png, jpeg and webp. */
export function avatarType(bytes: Buffer): Promise<ImageType> {
  return detectImageType(bytes, 'avatar', 'validation.avatar_type');
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
