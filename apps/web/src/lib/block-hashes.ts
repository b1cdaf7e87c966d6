import { Chunker } from '@atelier/chunker';
import { sha256Hex } from './sha256';

/** One block of a file: where it lies and the SHA-256 of its bytes (lowercase hex). */
export interface FileBlock {
  hash: string;
  offset: number;
  size: number;
}

/** Cuts a file into the block store's blocks and hashes each; reports the bytes read so far. */
export type HashBlocks = (
  file: Blob,
  onProgress: (bytesRead: number) => void,
  signal: AbortSignal,
) => Promise<FileBlock[]>;

/** How much of the file is read at a time: a few blocks' worth, so memory stays small for any size. */
const READ_SIZE = 8 * 1024 * 1024;

/** The bytes of a slice of a file (jsdom's Blob has no arrayBuffer(); its FileReader reads them). */
function readBytes(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

/**
 * Reads the file in pieces, cuts it with the block store's chunker and hashes each block: the list
 * the server compares with what it holds. Runs in a web worker (block-hash.worker.ts) or, where there
 * are none, on the page.
 */
export const hashFileBlocks: HashBlocks = async (file, onProgress, signal) => {
  const chunker = new Chunker();
  const blocks: FileBlock[] = [];
  let offset = 0;
  const hashAll = async (chunks: Uint8Array<ArrayBuffer>[]) => {
    for (const chunk of chunks) {
      blocks.push({ hash: await sha256Hex(chunk), offset, size: chunk.length });
      offset += chunk.length;
    }
  };
  for (let start = 0; start < file.size; start += READ_SIZE) {
    signal.throwIfAborted();
    const bytes = new Uint8Array(await readBytes(file.slice(start, Math.min(file.size, start + READ_SIZE))));
    await hashAll(chunker.push(bytes));
    onProgress(Math.min(file.size, start + READ_SIZE));
  }
  await hashAll(chunker.finish());
  signal.throwIfAborted();
  return blocks;
};
