import { ffmpegBinary } from '@atelier/render/binaries';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import type { Response } from 'light-my-request';
import type { Settings } from '../../src/modules/settings/settings.defaults';
import type { TestAgent } from '../support/agent';
import type { DatabaseKind } from '../support/databases';
import { databaseKinds } from '../support/databases';
import { createTestApp, type TestApp } from '../support/test-app';
import { startS3Server, type TestS3Server } from '../storage/s3-server';

export type StorageKind = 'local' | 's3';
export const storageKinds: StorageKind[] = ['local', 's3'];

/** Every pairing of database and storage driver the suite runs on. */
export const filesMatrix: [DatabaseKind, StorageKind][] = databaseKinds.flatMap((db) =>
  storageKinds.map((storage) => [db, storage] as [DatabaseKind, StorageKind]),
);

export interface FilesTestApp extends TestApp {
  /** Every object held by the storage driver, to prove refusals and deletions leave nothing behind. */
  storedObjects(): Promise<string[]>;
}

/** The variables that point the app at local disk, or at the given S3 endpoint. */
export function storageEnv(s3: TestS3Server | null): Record<string, string> {
  return s3
    ? {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: s3.config.endpoint!,
        S3_REGION: s3.config.region,
        S3_BUCKET: s3.config.bucket,
        S3_ACCESS_KEY_ID: s3.config.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.config.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      }
    : { STORAGE_DRIVER: 'local' };
}

export async function createFilesTestApp(
  database: DatabaseKind,
  storage: StorageKind,
  settings: Partial<Settings> = {},
  clock?: () => Date,
  env: Record<string, string> = {},
): Promise<FilesTestApp> {
  const s3: TestS3Server | null = storage === 's3' ? await startS3Server() : null;
  const t = await createTestApp({ database, env: { ...storageEnv(s3), ...env }, settings, clock });
  const inspector = s3
    ? new S3Client({
        endpoint: s3.config.endpoint,
        region: s3.config.region,
        forcePathStyle: true,
        credentials: { accessKeyId: s3.config.accessKeyId, secretAccessKey: s3.config.secretAccessKey },
      })
    : null;
  return {
    ...t,
    async storedObjects() {
      if (inspector && s3) {
        const listed = await inspector.send(new ListObjectsV2Command({ Bucket: s3.config.bucket }));
        return (listed.Contents ?? []).map((o) => o.Key ?? '');
      }
      const root = join(t.dataDir, 'storage');
      const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
      return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(root.length + 1));
    },
    async close() {
      inspector?.destroy();
      await t.close();
      await s3?.stop();
    },
  };
}

/** A multipart body as a browser's FormData makes it, fields and the chunk in the given order. */
export function multipartBody(
  parts: ({ field: string; value: string } | { file: string; filename: string; data: Buffer })[],
) {
  const boundary = `----atelier${randomBytes(8).toString('hex')}`;
  const pieces: Buffer[] = [];
  for (const part of parts) {
    if ('field' in part) {
      pieces.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`,
        ),
      );
    } else {
      pieces.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.file}"; filename="${part.filename}"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n',
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    }
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(pieces),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export interface UploadOptions {
  name: string;
  chunkSize?: number;
  parentId?: string;
  path?: string;
  /** The chunk's multipart filename; the web client makes `<16 random base36>-<name>.part`. */
  key?: string;
  /** Send the chunk before the other fields instead of last. */
  chunkFirst?: boolean;
  /** Where the chunks go; the owner's upload by default (a share link's upload has its own). */
  url?: string;
  /** What to do with a name the folder holds (the form's `conflict`); left out, the server's default. */
  conflict?: 'keep-both' | 'replace';
}

export function chunkRequest(
  agent: TestAgent,
  chunk: Buffer,
  options: UploadOptions & { key: string; last: boolean },
): Promise<Response> {
  const extension = options.name.includes('.') ? options.name.split('.').pop()! : '';
  const fields = [
    { field: 'name', value: options.name },
    { field: 'extension', value: extension },
    { field: 'is_last_chunk', value: options.last ? '1' : '0' },
    ...(options.path ? [{ field: 'path', value: options.path }] : []),
    ...(options.parentId ? [{ field: 'parent_id', value: options.parentId }] : []),
    ...(options.conflict ? [{ field: 'conflict', value: options.conflict }] : []),
  ];
  const file = { file: 'chunk', filename: options.key, data: chunk };
  const { payload, headers } = multipartBody(options.chunkFirst ? [file, ...fields] : [...fields, file]);
  return agent.post(options.url ?? '/api/upload/chunks', payload, { headers });
}

/** Uploads `data` chunk by chunk like the web client; returns every answer, the last one last. */
export async function uploadFile(
  agent: TestAgent,
  data: Buffer,
  options: UploadOptions,
): Promise<Response[]> {
  const chunkSize = options.chunkSize ?? 64 * 1024;
  const key = options.key ?? `${randomBytes(8).toString('hex')}-${options.name}.part`;
  const answers: Response[] = [];
  const count = Math.max(1, Math.ceil(data.length / chunkSize));
  for (let i = 0; i < count; i++) {
    const chunk = data.subarray(i * chunkSize, (i + 1) * chunkSize);
    const answer = await chunkRequest(agent, chunk, { ...options, key, last: i === count - 1 });
    answers.push(answer);
    if (answer.statusCode >= 400) break;
  }
  return answers;
}

/** Uploads a whole file and returns its resource, failing loudly otherwise. */
export async function uploaded(agent: TestAgent, data: Buffer, options: UploadOptions) {
  const answers = await uploadFile(agent, data, options);
  const last = answers.at(-1)!;
  if (last.statusCode !== 201)
    throw new Error(`upload of ${options.name} answered ${last.statusCode}: ${last.body}`);
  return last.json().data as { id: string; type: 'file'; attributes: Record<string, unknown> };
}

/** Reads every entry of a zip (stored or deflated) from its central directory. */
export function readZip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('no end of central directory');
  const entries = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error('bad central directory entry');
    const method = zip.readUInt16LE(offset + 10);
    const compressed = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const local = zip.readUInt32LE(offset + 42);
    const name = zip.subarray(offset + 46, offset + 46 + nameLength).toString('utf8');
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataStart, dataStart + compressed);
    files.set(name, method === 8 ? inflateRawSync(raw) : Buffer.from(raw));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

/**
 * A 320x240 two-second H.264 clip of an ffmpeg test source (`testsrc`, `color=c=red`, …), its index
 * at the end as ffmpeg writes MP4s by default.
 */
export async function writeClip(path: string, source = 'testsrc'): Promise<void> {
  await promisify(execFile)(ffmpegBinary(), [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    `${source}${source.includes('=') ? ':' : '='}s=320x240:d=2:r=25`,
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    path,
  ]);
}
