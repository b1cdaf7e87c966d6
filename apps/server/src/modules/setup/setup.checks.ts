import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ffmpegBinary } from '@atelier/render/binaries';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { Redis } from 'ioredis';
import { AppError } from '../../lib/app-error';
import { verifySmtp } from '../mail/mailer';
import type { S3Settings } from '../settings/settings.defaults';

const run = promisify(execFile);

/** The folders under DATA_DIR the product writes to. */
export const DATA_SUBFOLDERS = ['storage', 'mail'] as const;

/** Creates the folder if needed and proves a file can be written and removed in it. */
export async function assertWritable(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  await access(folder, constants.W_OK);
  const probe = path.join(folder, `.write-check-${process.pid}`);
  await writeFile(probe, 'ok');
  await rm(probe);
}

/** The ffmpeg the renders and posters use: the npm package's binary, else the system one. */
export async function ffmpegVersion(): Promise<string> {
  const { stdout } = await run(ffmpegBinary(), ['-version'], { timeout: 10_000 });
  return stdout.split('\n')[0] ?? 'ffmpeg';
}

/** Reaches the bucket with the given credentials (HeadBucket needs read access to it). */
export async function assertS3Reachable(s3: S3Settings): Promise<void> {
  const client = new S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: s3.forcePathStyle,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    maxAttempts: 1,
  });
  try {
    await client.send(new HeadBucketCommand({ Bucket: s3.bucket }), {
      abortSignal: AbortSignal.timeout(10_000),
    });
  } finally {
    client.destroy();
  }
}

export function reasonOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** The services an environment choice names; a part left out is not tested. */
export interface EnvironmentChoice {
  storage?: { driver: 'local' } | ({ driver: 's3' } & S3Settings);
  mail?: { driver: 'log' } | { driver: 'smtp'; url: string };
  broadcasting?: { driver: string };
}

/**
 * Proves each chosen service works before anyone stores the choice (the setup wizard and the admin's
 * environment settings): a failure is a 422 on `fields[part]` with the driver's reason.
 */
export async function probeEnvironment(
  choice: EnvironmentChoice,
  context: { dataDir: string; redis: Redis | null },
  fields: Record<keyof EnvironmentChoice, string> = {
    storage: 'storage',
    mail: 'mail',
    broadcasting: 'broadcasting',
  },
): Promise<void> {
  const attempt = async (part: keyof EnvironmentChoice, probe: () => Promise<unknown>) => {
    try {
      await probe();
    } catch (error) {
      throw AppError.invalid(fields[part], `${part}: ${reasonOf(error)}`);
    }
  };
  const { storage, mail, broadcasting } = choice;
  if (storage)
    await attempt('storage', () =>
      storage.driver === 's3'
        ? assertS3Reachable(storage)
        : assertWritable(path.join(context.dataDir, 'storage')),
    );
  if (mail?.driver === 'smtp') await attempt('mail', () => verifySmtp(mail.url));
  // Socket.IO runs inside the API process; across several nodes it relays through Redis.
  const redis = context.redis;
  if (broadcasting?.driver === 'socket.io' && redis) await attempt('broadcasting', () => redis.ping());
}
