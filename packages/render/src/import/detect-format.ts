import { extname } from 'node:path';
import { RenderError, type ModelFormat } from '../types';

const BY_EXTENSION: Record<string, ModelFormat> = {
  '.step': 'step',
  '.stp': 'step',
  '.iges': 'iges',
  '.igs': 'iges',
  '.brep': 'brep',
  '.brp': 'brep',
  '.stl': 'stl',
  '.obj': 'obj',
  '.ply': 'ply',
  '.gltf': 'gltf',
  '.glb': 'glb',
  '.3mf': '3mf',
};

export const SUPPORTED_EXTENSIONS = Object.keys(BY_EXTENSION);

function head(bytes: Uint8Array, length = 512): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(length, bytes.byteLength)).toString('latin1');
}

/** Recognises a format from its first bytes; undefined when the content has no signature. */
function sniff(bytes: Uint8Array): ModelFormat | undefined {
  const text = head(bytes);
  if (text.startsWith('glTF')) return 'glb';
  if (text.startsWith('PK\x03\x04')) return '3mf';
  if (/^ply\r?\n/.test(text)) return 'ply';
  if (/^\s*ISO-10303-21;/.test(text)) return 'step';
  if (/^\s*DBRep_DrawableShape|^\s*CASCADE Topology V/.test(text)) return 'brep';
  // IGES: fixed 80-column records, the first in the Start section ("S" in column 73).
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  if (firstLine.length >= 80 && firstLine[72] === 'S' && /^\s*\d+$/.test(firstLine.slice(73, 80)))
    return 'iges';
  if (/^\s*\{[\s\S]*"asset"/.test(text)) return 'gltf';
  if (/^\s*solid\b[\s\S]*\bfacet\b/.test(text)) return 'stl';
  if (bytes.byteLength >= 84) {
    const count = new DataView(bytes.buffer, bytes.byteOffset + 80, 4).getUint32(0, true);
    if (count > 0 && 84 + count * 50 === bytes.byteLength) return 'stl';
  }
  return undefined;
}

/**
 * The format of a model file, by its signature first and its extension second. A known signature
 * under another extension wins (renamed files are common); text formats without one (OBJ, ASCII STL
 * with an odd header) go by extension.
 */
export function detectFormat(fileName: string, bytes: Uint8Array): ModelFormat {
  const byExtension = BY_EXTENSION[extname(fileName).toLowerCase()];
  const bySignature = sniff(bytes);
  if (bySignature === '3mf' && byExtension && byExtension !== '3mf') {
    throw new RenderError('unsupported_format', `${fileName} is a zip archive, not a ${byExtension} file`);
  }
  const format = bySignature ?? byExtension;
  if (!format) {
    throw new RenderError(
      'unsupported_format',
      `${fileName} is not a supported model (supported: ${SUPPORTED_EXTENSIONS.join(', ')})`,
    );
  }
  return format;
}
