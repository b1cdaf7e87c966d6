import { z } from 'zod';

/** Thumbnail sizes: the longest side in pixels of each webp the server makes for images and videos. */
export const THUMBNAIL_SIZES = { xs: 96, sm: 256, md: 640, lg: 1280 } as const;
export const ThumbnailSize = z.enum(['xs', 'sm', 'md', 'lg']);
export type ThumbnailSize = z.infer<typeof ThumbnailSize>;
