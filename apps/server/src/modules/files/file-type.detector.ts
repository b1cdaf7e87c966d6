import { fileTypeFromBuffer } from 'file-type';

/** How much of a file's head is read to recognise its type; enough for every format file-type knows. */
export const SNIFF_BYTES = 64 * 1024;

export interface DetectedType {
  mimetype: string;
  /** The extension the bytes call for, or the name's extension for text and unknown formats. */
  extension: string | null;
}

// Text formats carry no magic number, so for bytes that decode as text the name decides among these.
const TEXT_TYPES: Record<string, string> = {
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  xml: 'application/xml',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/plain',
  svg: 'image/svg+xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  rtf: 'application/rtf',
  step: 'model/step',
  stp: 'model/step',
  iges: 'model/iges',
  igs: 'model/iges',
  obj: 'model/obj',
  stl: 'model/stl',
  gltf: 'model/gltf+json',
};

/** The type of a file as its bytes show it, never as its name claims (except among text formats). */
export async function detectFileType(head: Uint8Array, fileName: string): Promise<DetectedType> {
  const found = await fileTypeFromBuffer(head);
  if (found) return { mimetype: found.mime, extension: found.ext };
  const extension = extensionOf(fileName);
  if (looksLikeText(head)) {
    return { mimetype: (extension && TEXT_TYPES[extension]) || 'text/plain', extension };
  }
  return { mimetype: 'application/octet-stream', extension };
}

/** The lowercase extension of a file name, or null when it has none worth the name. */
export function extensionOf(fileName: string): string | null {
  const match = /\.([A-Za-z0-9]{1,16})$/.exec(fileName.trim());
  return match?.[1] ? match[1].toLowerCase() : null;
}

function looksLikeText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  try {
    // stream: true tolerates a character cut in half at the end of the sniffed head.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * True when a blacklist entry names one of the extensions or the type: entries are extensions
 * (`exe`, `.php`), full types (`application/x-msdownload`) or whole families (`video/*`).
 */
export function isBlacklisted(
  blacklist: readonly string[],
  candidate: { extensions: readonly (string | null)[]; mimetype?: string | null },
): boolean {
  const entries = new Set(blacklist.map((e) => e.trim().toLowerCase().replace(/^\./, '')).filter(Boolean));
  if (candidate.extensions.some((ext) => ext !== null && entries.has(ext.toLowerCase()))) return true;
  const mimetype = candidate.mimetype?.toLowerCase();
  if (!mimetype) return false;
  return entries.has(mimetype) || entries.has(`${mimetype.split('/')[0]}/*`);
}
