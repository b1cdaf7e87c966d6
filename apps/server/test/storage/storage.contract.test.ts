import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from '../../src/storage/create-storage';
import { newStorageKey, StorageNotFoundError, type Storage } from '../../src/storage/storage';
import { startS3Server, type TestS3Server } from './s3-server';

interface Harness {
  storage: Storage;
  /** Every object the driver holds, so tests can prove nothing was left behind. */
  listAll(): Promise<string[]>;
  stop(): Promise<void>;
}

async function localHarness(): Promise<Harness> {
  const dataDir = await mkdtemp(join(tmpdir(), 'atelier-storage-'));
  const storage = createStorage({ driver: 'local', dataDir });
  const root = join(dataDir, 'storage');
  return {
    storage,
    async listAll() {
      const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
      return entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name)));
    },
    async stop() {
      await storage.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function s3Harness(): Promise<Harness> {
  const server: TestS3Server = await startS3Server();
  const storage = createStorage({ driver: 's3', ...server.config });
  const inspector = new S3Client({
    endpoint: server.config.endpoint,
    region: server.config.region,
    forcePathStyle: true,
    credentials: { accessKeyId: server.config.accessKeyId, secretAccessKey: server.config.secretAccessKey },
  });
  return {
    storage,
    async listAll() {
      const listed = await inspector.send(new ListObjectsV2Command({ Bucket: server.config.bucket }));
      return (listed.Contents ?? []).map((o) => o.Key ?? '');
    },
    async stop() {
      inspector.destroy();
      await storage.close();
      await server.stop();
    },
  };
}

const MiB = 1024 * 1024;
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const streamOf = (...parts: Buffer[]) => Readable.from(parts);
/** A body that sends some bytes and then fails, like a client that drops mid-request. */
const failingStream = (bytesBeforeFailure: number) =>
  Readable.from(
    (async function* () {
      yield randomBytes(bytesBeforeFailure);
      throw new Error('client went away');
    })(),
  );

describe.each([
  ['local', localHarness],
  ['s3', s3Harness],
] as const)('%s storage', (_name, makeHarness) => {
  let harness: Harness;
  let storage: Storage;

  beforeAll(async () => {
    harness = await makeHarness();
    storage = harness.storage;
  });
  afterAll(() => harness.stop());

  it('stores a stream and reads back the same bytes, size and etag', async () => {
    const data = randomBytes(300_000);
    const key = newStorageKey();
    const stored = await storage.put(key, streamOf(data.subarray(0, 1000), data.subarray(1000)));
    expect(stored).toMatchObject({ key, size: data.length });
    expect(stored.etag).toMatch(/^".+"$/);

    expect(sha(await buffer(await storage.get(key)))).toBe(sha(data));
    const info = await storage.stat(key);
    expect(info).toMatchObject({ size: data.length, etag: stored.etag });
    expect(await storage.exists(key)).toBe(true);
  });

  it('stores a buffer', async () => {
    const key = newStorageKey();
    const stored = await storage.put(key, Buffer.from('hello'), { contentType: 'text/plain' });
    expect(stored.size).toBe(5);
    expect((await buffer(await storage.get(key))).toString()).toBe('hello');
  });

  it('streams a large object through in parts and keeps every byte', async () => {
    const data = randomBytes(12 * MiB + 17);
    const key = newStorageKey();
    const pieces = Array.from({ length: Math.ceil(data.length / 65536) }, (_, i) =>
      data.subarray(i * 65536, (i + 1) * 65536),
    );
    const stored = await storage.put(key, streamOf(...pieces));
    expect(stored.size).toBe(data.length);
    expect(sha(await buffer(await storage.get(key)))).toBe(sha(data));
  });

  it('answers byte ranges exactly, including the first and the last byte', async () => {
    const data = randomBytes(10_000);
    const key = newStorageKey();
    await storage.put(key, data);
    expect(await buffer(await storage.get(key, { start: 0, end: 0 }))).toEqual(data.subarray(0, 1));
    expect(await buffer(await storage.get(key, { start: 100, end: 1099 }))).toEqual(data.subarray(100, 1100));
    expect(await buffer(await storage.get(key, { start: 9990, end: 9999 }))).toEqual(data.subarray(9990));
  });

  it('reads a range into one buffer, and refuses a missing object or one shorter than the range', async () => {
    const data = randomBytes(3 * MiB + 5);
    const key = newStorageKey();
    await storage.put(key, data);
    expect((await storage.getBytes(key, { start: 0, end: data.length - 1 })).equals(data)).toBe(true);
    expect(await storage.getBytes(key, { start: 100, end: 1099 })).toEqual(data.subarray(100, 1100));
    expect(await storage.getBytes(key, { start: data.length - 1, end: data.length - 1 })).toEqual(
      data.subarray(-1),
    );
    await expect(storage.getBytes(key, { start: 10, end: data.length })).rejects.toThrow('holds fewer');
    await expect(storage.getBytes(newStorageKey(), { start: 0, end: 9 })).rejects.toBeInstanceOf(
      StorageNotFoundError,
    );
  });

  it('reports a missing object as missing', async () => {
    const key = newStorageKey();
    expect(await storage.stat(key)).toBeNull();
    expect(await storage.exists(key)).toBe(false);
    await expect(storage.get(key)).rejects.toBeInstanceOf(StorageNotFoundError);
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('deletes one object or many, and nothing else', async () => {
    const keys = [newStorageKey(), newStorageKey(), newStorageKey()];
    const keep = newStorageKey();
    for (const key of [...keys, keep]) await storage.put(key, Buffer.from(key));

    await storage.delete(keys[0]!);
    expect(await storage.exists(keys[0]!)).toBe(false);
    await storage.deleteMany([keys[1]!, keys[2]!, newStorageKey()]);
    for (const key of keys) expect(await storage.exists(key)).toBe(false);
    expect((await buffer(await storage.get(keep))).toString()).toBe(keep);
  });

  it('leaves nothing behind when the body fails half-way', async () => {
    const before = await harness.listAll();
    const key = newStorageKey();
    await expect(storage.put(key, failingStream(6 * MiB))).rejects.toThrow('client went away');
    expect(await storage.exists(key)).toBe(false);
    expect(await harness.listAll()).toEqual(before);
  });

  it('refuses keys that are not storage ids', async () => {
    for (const bad of ['../../etc/passwd', 'a/b/c/d/e/f/g', '', 'short', 'name with spaces.txt']) {
      await expect(storage.put(bad, Buffer.from('x'))).rejects.toThrow('Invalid storage key');
      await expect(storage.get(bad)).rejects.toThrow('Invalid storage key');
    }
  });

  it('assembles a chunked upload in order, whatever the part sizes', async () => {
    const before = await harness.listAll();
    const parts = [randomBytes(6 * MiB), randomBytes(1234), randomBytes(5 * MiB + 1), randomBytes(10)];
    const uploadId = newStorageKey();
    let offset = 0;
    for (const [index, part] of parts.entries()) {
      const written = await storage.writePart(uploadId, { number: index + 1, offset }, streamOf(part));
      expect(written.size).toBe(part.length);
      offset += part.length;
    }
    const key = newStorageKey();
    const stored = await storage.completeParts(uploadId, parts.length, key);
    expect(stored.size).toBe(offset);
    expect(sha(await buffer(await storage.get(key)))).toBe(sha(Buffer.concat(parts)));
    // Only the final object remains: the parts are gone.
    expect((await harness.listAll()).length).toBe(before.length + 1);
    await expect(storage.completeParts(uploadId, parts.length, newStorageKey())).rejects.toThrow();
  });

  it('replaces a part whose first attempt failed', async () => {
    const first = randomBytes(2000);
    const second = randomBytes(3000);
    const uploadId = newStorageKey();
    await storage.writePart(uploadId, { number: 1, offset: 0 }, streamOf(first));
    await expect(
      storage.writePart(uploadId, { number: 2, offset: first.length }, failingStream(5000)),
    ).rejects.toThrow('client went away');
    await storage.writePart(uploadId, { number: 2, offset: first.length }, streamOf(second));
    const key = newStorageKey();
    const stored = await storage.completeParts(uploadId, 2, key);
    expect(stored.size).toBe(5000);
    expect(await buffer(await storage.get(key))).toEqual(Buffer.concat([first, second]));
  });

  it('replaces a longer part that an attempt stored and never reported (a process killed after writing it)', async () => {
    const first = randomBytes(2000);
    const uploadId = newStorageKey();
    await storage.writePart(uploadId, { number: 1, offset: 0 }, streamOf(first));
    await storage.writePart(uploadId, { number: 2, offset: first.length }, streamOf(randomBytes(5000)));
    const second = randomBytes(3000);
    await storage.writePart(uploadId, { number: 2, offset: first.length }, streamOf(second));
    const key = newStorageKey();
    expect((await storage.completeParts(uploadId, 2, key)).size).toBe(5000);
    expect(await buffer(await storage.get(key))).toEqual(Buffer.concat([first, second]));
  });

  it('reads a stored part back, and a part of an upload that is gone as missing', async () => {
    const parts = [randomBytes(3000), randomBytes(2000)];
    const uploadId = newStorageKey();
    await storage.writePart(uploadId, { number: 1, offset: 0 }, streamOf(parts[0]!));
    await storage.writePart(uploadId, { number: 2, offset: 3000 }, streamOf(parts[1]!));
    expect(await buffer(await storage.readPart(uploadId, { number: 2, offset: 3000 }, 2000))).toEqual(
      parts[1],
    );
    expect(await buffer(await storage.readPart(uploadId, { number: 1, offset: 0 }, 3000))).toEqual(parts[0]);
    await storage.abortParts(uploadId, 2);
    await expect(storage.readPart(uploadId, { number: 2, offset: 3000 }, 2000)).rejects.toBeInstanceOf(
      StorageNotFoundError,
    );
  });

  it('aborts a chunked upload without a trace', async () => {
    const before = await harness.listAll();
    const uploadId = newStorageKey();
    await storage.writePart(uploadId, { number: 1, offset: 0 }, streamOf(randomBytes(4000)));
    await storage.writePart(uploadId, { number: 2, offset: 4000 }, streamOf(randomBytes(4000)));
    await storage.abortParts(uploadId, 2);
    expect(await harness.listAll()).toEqual(before);
    await expect(storage.completeParts(uploadId, 2, newStorageKey())).rejects.toThrow();
  });

  it('passes its own health check', async () => {
    await expect(storage.check()).resolves.toBeUndefined();
  });
});
