import { Transform, type TransformCallback } from 'node:stream';
import { AppError } from '../../lib/app-error';
import { SNIFF_BYTES } from './file-type.detector';

export interface ChunkGuardLimits {
  /** Bytes this one chunk may carry (the chunk size). */
  chunkBytes: number;
  /** Bytes the upload may still grow by before passing the upload limit. */
  uploadBytes: number;
}

/**
 * Holds `bytes` more of the owner's quota for the chunk, atomically; false when they do not fit.
 * `ahead`: more than the bytes that arrived, asked to save round trips, so nothing (no version) is
 * let go to make room for them.
 */
export type ReserveQuota = (bytes: number, ahead: boolean) => Promise<boolean>;

/** The smallest reservation after the whole chunk did not fit; later ones double. */
const FIRST_RESERVATION = 1024 * 1024;

/**
 * Lets a chunk's bytes through to storage while checking them as they pass: the limits are checked
 * on every byte count, no byte passes before the quota holds it, and the head of a first chunk is
 * handed to `inspectHead` (type detection and the blacklist) before more bytes follow.
 */
export class ChunkGuard extends Transform {
  bytes = 0;
  private reserved = 0;
  /** Whether the whole chunk was asked for (its first reservation). */
  private askedWhole = false;
  private head: Buffer[] | null;
  private headBytes = 0;

  constructor(
    private readonly limits: ChunkGuardLimits,
    private readonly reserve: ReserveQuota,
    private readonly inspectHead: ((head: Buffer) => Promise<void>) | null,
  ) {
    super();
    this.head = inspectHead ? [] : null;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    // Most pieces of a chunk are past the head and already held (never more than the limits allow):
    // passed on at once, without a promise each.
    if (!this.head && this.bytes + chunk.length <= this.reserved) {
      this.bytes += chunk.length;
      return callback(null, chunk);
    }
    this.accept(chunk).then(() => callback(null, chunk), callback);
  }

  override _flush(callback: TransformCallback): void {
    if (!this.head) return callback();
    this.inspect()
      .then(() => (this.bytes > this.reserved ? this.reserveMore() : undefined))
      .then(() => callback(), callback);
  }

  /**
   * The head's type is checked before the bytes are held: holding them may make room by letting old
   * versions go, never for an upload that is refused anyway (the head's few bytes pass unheld).
   */
  private async accept(chunk: Buffer): Promise<void> {
    this.bytes += chunk.length;
    if (this.bytes > this.limits.chunkBytes || this.bytes > this.limits.uploadBytes)
      throw new AppError('payload_too_large', 'errors.upload_limit');
    if (this.head) {
      this.head.push(chunk);
      this.headBytes += chunk.length;
      if (this.headBytes < SNIFF_BYTES) return;
      await this.inspect();
    }
    if (this.bytes > this.reserved) await this.reserveMore();
  }

  /**
   * Asks first for all the chunk may carry, so that a chunk takes one round trip to the database; when
   * that does not fit (near the capacity), for about as much as the chunk carried so far, so it holds
   * at most about twice its bytes while on its way, and at last only what it needs (and only for
   * those may room be made). What a chunk held beyond its bytes is let go when it is committed.
   */
  private async reserveMore(): Promise<void> {
    const needed = this.bytes - this.reserved;
    const allowed = Math.min(this.limits.chunkBytes, this.limits.uploadBytes) - this.reserved;
    const asked = this.askedWhole
      ? Math.min(allowed, Math.max(needed, this.reserved, FIRST_RESERVATION))
      : allowed;
    this.askedWhole = true;
    for (const bytes of asked > needed ? [asked, needed] : [needed]) {
      if (await this.reserve(bytes, bytes > needed)) {
        this.reserved += bytes;
        return;
      }
    }
    throw new AppError('storage_limit_exceeded', 'errors.storage_limit_exceeded');
  }

  private async inspect(): Promise<void> {
    const head = Buffer.concat(this.head!).subarray(0, SNIFF_BYTES);
    this.head = null;
    await this.inspectHead!(head);
  }
}
