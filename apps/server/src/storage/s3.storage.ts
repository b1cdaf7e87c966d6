import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { pipeline, Readable } from 'node:stream';
import { ByteCounter, ByteLimit } from './byte-counter';
import {
  assertStorageKey,
  newStorageKey,
  StorageNotFoundError,
  type ByteRange,
  type ObjectStat,
  type PartPosition,
  type PutOptions,
  type Storage,
  type StoredObject,
} from './storage';

export interface S3StorageConfig {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/** S3 refuses multipart parts under 5 MiB (except the last); this is also the most one upload buffers. */
const PART_SIZE = 5 * 1024 * 1024;
const DELETE_BATCH = 1000;

/**
 * Objects in one bucket of any S3-compatible store. Large bodies go up as multipart uploads
 * (lib-storage), so memory stays at a couple of parts whatever the size. Parts of a chunked
 * upload are kept as `uploads/<uploadId>/<n>` and joined on completion by streaming them into
 * the final object (UploadPartCopy would avoid the copy but has the same 5 MiB floor per part,
 * which small chunk sizes can't meet).
 */
export class S3Storage implements Storage {
  readonly driver = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3StorageConfig) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // Many S3-compatible stores reject the SDK's default trailing CRC32 checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable | Uint8Array, options?: PutOptions): Promise<StoredObject> {
    assertStorageKey(key);
    return this.upload(key, body, options);
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertStorageKey(key);
    return this.read(key, range);
  }

  async getBytes(key: string, range: ByteRange): Promise<Buffer> {
    assertStorageKey(key);
    const length = range.end - range.start + 1;
    const bytes = Buffer.allocUnsafe(length);
    let filled = 0;
    for await (const chunk of (await this.read(key, range)) as AsyncIterable<Buffer>) {
      if (filled + chunk.byteLength > length) throw new Error(`Object ${key} gave more than ${length} bytes`);
      filled += chunk.copy(bytes, filled);
    }
    if (filled !== length) throw new Error(`Object ${key} holds fewer than ${range.end + 1} bytes`);
    return bytes;
  }

  async stat(key: string): Promise<ObjectStat | null> {
    assertStorageKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        size: head.ContentLength ?? 0,
        etag: head.ETag ?? '""',
        modifiedAt: head.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    keys.forEach(assertStorageKey);
    await this.deleteRaw(keys);
  }

  async writePart(uploadId: string, part: PartPosition, body: Readable): Promise<{ size: number }> {
    const stored = await this.upload(partKey(uploadId, part.number), body);
    return { size: stored.size };
  }

  /** A part is an object of its own, so it is read whole. */
  async readPart(uploadId: string, part: PartPosition): Promise<Readable> {
    return this.read(partKey(uploadId, part.number));
  }

  async completeParts(
    uploadId: string,
    partCount: number,
    key: string,
    options?: PutOptions,
  ): Promise<StoredObject> {
    assertStorageKey(key);
    const parts = partKeys(uploadId, partCount);
    const read = (partKeyName: string) => this.read(partKeyName);
    async function* joined() {
      for (const name of parts) yield* await read(name);
    }
    const stored = await this.upload(key, Readable.from(joined()), options);
    await this.deleteRaw(parts);
    return stored;
  }

  async abortParts(uploadId: string, partCount: number): Promise<void> {
    await this.deleteRaw(partKeys(uploadId, partCount));
  }

  async check(): Promise<void> {
    const probe = `check-${newStorageKey()}`;
    await this.put(probe, Buffer.from('ok'));
    await this.delete(probe);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private async upload(
    key: string,
    body: Readable | Uint8Array,
    options?: PutOptions,
  ): Promise<StoredObject> {
    let size: () => number;
    let payload: Readable | Uint8Array;
    if (body instanceof Uint8Array) {
      payload = body;
      size = () => body.byteLength;
    } else {
      const counter = new ByteCounter();
      // pipeline() destroys the counter when the source fails, which makes the upload reject and abort.
      payload = pipeline(body, counter, () => undefined);
      size = () => counter.bytes;
    }
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: payload, ContentType: options?.contentType },
      partSize: PART_SIZE,
      queueSize: 2,
    });
    const result = await upload.done();
    return { key, size: size(), etag: result.ETag ?? '""' };
  }

  private async read(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const body = object.Body as Readable;
      // Some S3-compatible stores answer `bytes=0-0` with the whole object; never pass on more than asked.
      return range ? pipeline(body, new ByteLimit(range.end - range.start + 1), () => undefined) : body;
    } catch (error) {
      if (isNotFound(error)) throw new StorageNotFoundError(key);
      throw error;
    }
  }

  private async deleteRaw(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const result = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = (result.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0)
        throw new Error(`S3 refused to delete ${failed.length} object(s): ${failed[0]?.Code}`);
    }
  }
}

function partKey(uploadId: string, number: number): string {
  assertStorageKey(uploadId);
  return `uploads/${uploadId}/${number}`;
}

function partKeys(uploadId: string, partCount: number): string[] {
  return Array.from({ length: partCount }, (_, i) => partKey(uploadId, i + 1));
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}
