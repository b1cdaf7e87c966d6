import { execFile } from 'node:child_process';
import { statfs } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { ServerStatus } from '@atelier/contracts';
import type { Database } from '../../db/database';
import { databaseVersion } from '../../db/database-version';
import type { JobQueue } from '../../jobs/job-queue';
import { jobDefinitions } from '../../jobs/job-registry';
import type { ErrorLog } from '../../lib/error-log';
import type { StorageProvider } from '../../storage/storage-provider';
import { ffmpegVersion, reasonOf } from '../setup/setup.checks';

const run = promisify(execFile);

export interface ServerStatusDeps {
  dataDir: string;
  database: Database;
  storage: StorageProvider;
  jobs: JobQueue;
  errorLog: ErrorLog;
}

/** A probe's answer for the status page: its detail, or why it failed, never a thrown error. */
async function check(probe: () => Promise<string>): Promise<{ ok: boolean; detail: string }> {
  try {
    return { ok: true, detail: await probe() };
  } catch (error) {
    return { ok: false, detail: reasonOf(error) };
  }
}

/** The Chromium the studio renders with, found as the render engine finds it, and its version. */
async function chromiumVersion(): Promise<string> {
  const { findChromium } = await import('@atelier/render/chromium');
  const { path } = await findChromium();
  const { stdout } = await run(path, ['--version'], { timeout: 10_000 });
  return stdout.trim();
}

/** What the admin's server tab shows about this process and the services it depends on. */
export class ServerStatusService {
  constructor(private readonly deps: ServerStatusDeps) {}

  async status(): Promise<ServerStatus> {
    const { dataDir, database, storage, jobs, errorLog } = this.deps;
    const memory = process.memoryUsage();
    const driver = await storage.driver();
    const [disk, version, queue, ffmpeg, chromium] = await Promise.all([
      driver === 'local' ? diskOf(dataDir) : null,
      databaseVersion(database),
      jobs.counts(jobDefinitions.map((definition) => definition.id)),
      check(ffmpegVersion),
      check(chromiumVersion),
    ]);
    return {
      runtime: {
        node: process.versions.node,
        platform: `${process.platform} ${process.arch}`,
        uptime_seconds: Math.round(process.uptime()),
        memory: { rss: memory.rss, heap_used: memory.heapUsed, heap_total: memory.heapTotal },
      },
      disk,
      storage: { driver },
      database: { dialect: database.dialect, version },
      queue: { driver: jobs.driver, ...queue },
      ffmpeg,
      chromium,
      errors: errorLog.recent(),
    };
  }
}

async function diskOf(path: string): Promise<ServerStatus['disk']> {
  const stats = await statfs(path);
  return { path, free: stats.bavail * stats.bsize, total: stats.blocks * stats.bsize };
}
