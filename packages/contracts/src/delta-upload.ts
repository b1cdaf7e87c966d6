import { z } from 'zod';
import { BLOCKS_MAX_HASHES } from './constants';
import { FolderRef, ItemName } from './files';
import { UploadConflict } from './versions';

/**
 * The delta upload (issue 24): the client cuts a file into content-defined blocks, asks which of
 * them the server lacks (`POST /api/upload/blocks/missing`), sends only those
 * (`PUT /api/upload/blocks/{sha256}`) and files the file as the list of its blocks
 * (`POST /api/upload/blocks/commit`). See docs/delta-upload.md.
 */

/** A block's name: the SHA-256 of its bytes, in lowercase hex. */
export const BlockHash = z.string().regex(/^[0-9a-f]{64}$/, 'validation.block_hash');
export type BlockHash = z.infer<typeof BlockHash>;

const BlockList = z
  .array(BlockHash, 'validation.block_count')
  .min(1, 'validation.block_count')
  .max(BLOCKS_MAX_HASHES, 'validation.block_count');

/** `POST /api/upload/blocks/missing`: which of these blocks must be sent for a file in the folder. */
export const BlocksMissingBody = z.object({
  hashes: BlockList,
  parent_id: FolderRef,
});
export type BlocksMissingBody = z.infer<typeof BlocksMissingBody>;

/** The blocks to send, in the order asked, each once. */
export const BlocksMissing = z.object({ data: z.object({ missing: z.array(z.string()) }) });
export type BlocksMissing = z.infer<typeof BlocksMissing>;

/** `PUT /api/upload/blocks/{sha256}`: where the block's file will go (its folder decides whose it is). */
export const BlockParams = z.object({ sha256: BlockHash });
export const BlockQuery = z.object({ parent_id: FolderRef });

/**
 * `POST /api/upload/blocks/commit`: the file `name` in the folder is the blocks, in order; `size` is
 * the sum of their sizes. `conflict` as the chunk forms' (keep-both by default).
 */
export const BlocksCommitBody = z.object({
  name: ItemName,
  parent_id: FolderRef,
  conflict: UploadConflict.default('keep-both'),
  size: z.number().int().min(1, 'validation.empty_file').max(Number.MAX_SAFE_INTEGER),
  blocks: BlockList,
});
export type BlocksCommitBody = z.infer<typeof BlocksCommitBody>;
