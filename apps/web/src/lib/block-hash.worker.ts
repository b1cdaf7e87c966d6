import { hashFileBlocks, type FileBlock } from './block-hashes';

/** What the page asks: the blocks of this file. */
export interface BlockHashRequest {
  file: Blob;
}

/** What the worker answers: progress as it reads, then the blocks or why it could not. */
export type BlockHashMessage =
  | { type: 'progress'; bytes: number }
  | { type: 'done'; blocks: FileBlock[] }
  | { type: 'failed'; message: string };

const post = (message: BlockHashMessage) => self.postMessage(message);

// The page ends the worker to cancel; nothing here needs to stop it.
self.onmessage = (event: MessageEvent<BlockHashRequest>) => {
  hashFileBlocks(
    event.data.file,
    (bytes) => post({ type: 'progress', bytes }),
    new AbortController().signal,
  ).then(
    (blocks) => post({ type: 'done', blocks }),
    (error: unknown) =>
      post({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
};
