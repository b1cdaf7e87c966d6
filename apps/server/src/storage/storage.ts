import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

export type StorageDriverName = 'local' | 's3';

export interface StoredObject {
  key: string;
  size: number;
  etag: string;
}

export interface ObjectStat {
  size: number;
  etag: string;
  modifiedAt: Date;
}

/** An inclusive byte range, as in an HTTP Range header (`bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface PutOptions {
  contentType?: string;
}

/** Where a part of a chunked upload goes: its 1-based number and the byte offset where it starts. */
export interface PartPosition {
  number: number;
  offset: number;
}

/**
 * Object storage for file bytes. Keys are random ids made by `newStorageKey()`, never names or
 * paths a user typed; drivers refuse anything else.
 *
 * Chunked uploads arrive one request per part, in order. `writePart` stores one part (a retried
 * part replaces the earlier attempt at the same number), `completeParts` turns the parts into one
 * object, `abortParts` removes them. A body stream that errors leaves nothing of that part behind.
 * `readPart` gives back a stored part's bytes, so a chunk sent twice can be recognised.
 */
export interface Storage {
  readonly driver: StorageDriverName;
  put(key: string, body: Readable | Uint8Array, options?: PutOptions): Promise<StoredObject>;
  /** The object's bytes, or only `range` of them; rejects with StorageNotFoundError. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * Bytes `range` (inclusive) of the object, `length` of them, in one buffer: a small object's whole
   * read at once (a block of the block store); rejects with StorageNotFoundError, and when the object
   * holds fewer bytes.
   */
  getBytes(key: string, range: ByteRange): Promise<Buffer>;
  stat(key: string): Promise<ObjectStat | null>;
  exists(key: string): Promise<boolean>;
  /** Removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  deleteMany(keys: readonly string[]): Promise<void>;
  writePart(uploadId: string, part: PartPosition, body: Readable): Promise<{ size: number }>;
  /** The bytes of a stored part that holds `size` (> 0) bytes from its offset; rejects with StorageNotFoundError. */
  readPart(uploadId: string, part: PartPosition, size: number): Promise<Readable>;
  completeParts(
    uploadId: string,
    partCount: number,
    key: string,
    options?: PutOptions,
  ): Promise<StoredObject>;
  abortParts(uploadId: string, partCount: number): Promise<void>;
  /** Proves the store is reachable and writable (setup wizard, start-up). */
  check(): Promise<void>;
  close(): Promise<void>;
}

export class StorageNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`Storage object not found: ${key}`);
    this.name = 'StorageNotFoundError';
  }
}

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{7,199}$/;

/** 128 random bits in lowercase base32-ish hex; safe as a file name and an S3 key. */
export function newStorageKey(): string {
  return randomBytes(16).toString('hex');
}

/** Keys come from newStorageKey() or a derivation of one; anything else is a programming error. */
export function assertStorageKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}
