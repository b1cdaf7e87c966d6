import type { StorageUsage } from '@atelier/contracts';

type Category = StorageUsage['data']['categories'][number]['category'];

const DOCUMENT_TYPES = [
  'application/pdf',
  'application/msword',
  'application/rtf',
  'application/epub+zip',
  'application/json',
  'application/xml',
  'application/vnd.ms-',
  'application/vnd.openxmlformats-officedocument',
  'application/vnd.oasis.opendocument',
  'text/',
];

/** The usage category of a type: images, videos, audios, documents, or others. */
export function categoryOf(mimetype: string | null): Exclude<Category, 'empty'> {
  if (!mimetype) return 'others';
  if (mimetype.startsWith('image/')) return 'images';
  if (mimetype.startsWith('video/')) return 'videos';
  if (mimetype.startsWith('audio/')) return 'audios';
  if (DOCUMENT_TYPES.some((prefix) => mimetype.startsWith(prefix))) return 'documents';
  return 'others';
}
