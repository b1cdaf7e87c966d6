import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStorageKey } from '../../src/storage/storage';
import { createTestApp, type TestApp } from '../support/test-app';
import { startS3Server, type TestS3Server } from './s3-server';

describe('the storage in use, when its settings change', () => {
  let s3: TestS3Server;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({ settings: { storage_driver: 's3', s3: s3.config } });
  });
  afterAll(async () => {
    await t.close();
    await s3.stop();
  });

  it('lets a download under way finish on the S3 client it began with, while new ones use the new settings', async () => {
    const bytes = randomBytes(8 * 1024 * 1024);
    const key = newStorageKey();
    const before = await t.deps.storage.current();
    await before.put(key, bytes);
    // A download under way: its first bytes arrived, the rest is still to come.
    const stream: Readable = await before.get(key);
    const received: Buffer[] = [];
    await new Promise<void>((resolve) =>
      stream.once('data', (chunk: Buffer) => {
        received.push(chunk);
        stream.pause();
        resolve();
      }),
    );
    // The admin changes the region (the same bucket, so allowed while files are stored).
    await t.deps.settings.set({ s3: { ...s3.config, region: 'eu-west-1' } });
    const after = await t.deps.storage.current();
    expect(after).not.toBe(before);
    for await (const chunk of stream) received.push(chunk as Buffer);
    expect(Buffer.concat(received).equals(bytes)).toBe(true);
    expect((await after.getBytes(key, { start: 0, end: 15 })).equals(bytes.subarray(0, 16))).toBe(true);
  });
});
