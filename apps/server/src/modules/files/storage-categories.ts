import type { StorageUsage } from '@atelier/contracts';
import type { StoredBytes } from './files.repository';

type Category = StorageUsage['data']['categories'][number]['category'];
type FileCategory = Exclude<Category, 'empty'>;

const FILE_CATEGORIES: readonly FileCategory[] = ['images', 'videos', 'audios', 'documents', 'others'];

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
export function categoryOf(mimetype: string | null): FileCategory {
  if (!mimetype) return 'others';
  if (mimetype.startsWith('image/')) return 'images';
  if (mimetype.startsWith('video/')) return 'videos';
  if (mimetype.startsWith('audio/')) return 'audios';
  if (DOCUMENT_TYPES.some((prefix) => mimetype.startsWith(prefix))) return 'documents';
  return 'others';
}

/**
 * The owner's used bytes by category, adding up to what the quota counts: files by their type, and
 * under `others` also what counts without being a file's bytes (the dead properties WebDAV clients
 * keep on files and folders, migration 0028).
 */
export function bytesByCategory(stored: StoredBytes): {
  used: number;
  categories: Map<FileCategory, number>;
} {
  const categories = new Map<FileCategory, number>(FILE_CATEGORIES.map((category) => [category, 0]));
  let files = 0;
  for (const row of stored.files) {
    const category = categoryOf(row.mimetype);
    categories.set(category, categories.get(category)! + row.bytes);
    files += row.bytes;
  }
  const rest = Math.max(0, stored.used - files);
  categories.set('others', categories.get('others')! + rest);
  return { used: files + rest, categories };
}
