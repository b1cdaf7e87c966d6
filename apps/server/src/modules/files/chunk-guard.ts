import { Transform, type TransformCallback } from 'node:stream';
import { AppError } from '../../lib/app-error';
import { SNIFF_BYTES } from './file-type.detector';

export interface ChunkGuardLimits {
  /** Bytes this one chunk may carry (the chunk size). */
  chunkBytes: number;
  /** Bytes the upload may still grow by before passing the upload limit. */
  uploadBytes: number;
  /** Bytes the owner may still store before passing the quota. */
  quotaBytes: number;
}

/**
 * Lets a chunk's bytes through to storage while checking them as they pass: the limits are checked
 * on every byte count, so a refused chunk never lands beyond its limit, and the head of a first
 * chunk is handed to `inspectHead` (type detection and the blacklist) before more bytes follow.
 */
export class ChunkGuard extends Transform {
  bytes = 0;
  private head: Buffer[] | null;
  private headBytes = 0;

  constructor(
    private readonly limits: ChunkGuardLimits,
    private readonly inspectHead: ((head: Buffer) => Promise<void>) | null,
  ) {
    super();
    this.head = inspectHead ? [] : null;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    const refusal = this.refusal();
    if (refusal) return callback(refusal);
    if (!this.head) return callback(null, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < SNIFF_BYTES) return callback(null, chunk);
    this.inspect().then(() => callback(null, chunk), callback);
  }

  override _flush(callback: TransformCallback): void {
    if (!this.head) return callback();
    this.inspect().then(() => callback(), callback);
  }

  private refusal(): AppError | null {
    const { chunkBytes, uploadBytes, quotaBytes } = this.limits;
    if (this.bytes > chunkBytes || this.bytes > uploadBytes) {
      return new AppError('payload_too_large', 'errors.upload_limit');
    }
    if (this.bytes > quotaBytes)
      return new AppError('storage_limit_exceeded', 'errors.storage_limit_exceeded');
    return null;
  }

  private async inspect(): Promise<void> {
    const head = Buffer.concat(this.head!).subarray(0, SNIFF_BYTES);
    this.head = null;
    await this.inspectHead!(head);
  }
}
