import {
  Archive,
  File,
  FileAudio,
  FileCode,
  FileImage,
  FileText,
  FileVideo,
  type LucideIcon,
} from 'lucide-react';
import type { ThumbnailSize } from '@atelier/contracts';
import { isModelFileName } from '@atelier/contracts/constants';
import type { FileItem } from './files-api';
import { numberFormat } from '../../lib/intl-formats';

/** How a file can be shown in the preview. */
export type PreviewKind = 'image' | 'video' | 'audio' | 'pdf' | 'text' | 'none';

const TEXT_EXTENSIONS = new Set([
  'txt',
  'md',
  'csv',
  'json',
  'xml',
  'yml',
  'yaml',
  'log',
  'ini',
  'ts',
  'js',
  'css',
  'html',
]);
const ARCHIVE_EXTENSIONS = new Set(['zip', 'rar', '7z', 'tar', 'gz']);

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** A 3D or CAD model the studio renders. */
export function isModelFile(item: FileItem): boolean {
  return item.type === 'file' && isModelFileName(item.attributes.name);
}

export function previewKind(item: FileItem): PreviewKind {
  if (item.type !== 'file') return 'none';
  const mime = (item.attributes.mimetype ?? '').toLowerCase();
  const extension = extensionOf(item.attributes.name);
  if (mime.startsWith('image/') && mime !== 'image/svg+xml') return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime === 'application/pdf' || extension === 'pdf') return 'pdf';
  if (mime.startsWith('text/') || mime === 'application/json' || TEXT_EXTENSIONS.has(extension))
    return 'text';
  return 'none';
}

export function fileIcon(item: FileItem): LucideIcon {
  switch (previewKind(item)) {
    case 'image':
      return FileImage;
    case 'video':
      return FileVideo;
    case 'audio':
      return FileAudio;
    case 'pdf':
      return FileText;
    case 'text':
      return FileCode;
    default:
      return ARCHIVE_EXTENSIONS.has(extensionOf(item.attributes.name)) ? Archive : File;
  }
}

/** The server-made thumbnail of an image or video, once its background job is done. */
export function thumbnailUrl(item: FileItem, size: ThumbnailSize): string | null {
  return item.attributes.thumbnail?.[size] ?? null;
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

export function formatBytes(bytes: number, locale?: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  const format = numberFormat(locale, { maximumFractionDigits: digits });
  return `${format.format(value)} ${UNITS[unit]}`;
}
