import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../../src/app';
import type { UserRow } from '../../../src/db/schema';
import { openPreparedDatabase } from '../../../src/db/prepare';
import { parseEnv } from '../../../src/env';
import { createSession, createUser, type UserOverrides } from '../../support/factories';
import { deleteRedisKeys, scratchRedisPrefix } from '../../support/redis-scratch';
import {
  freePort,
  isListening,
  MAIN_SCRIPT,
  startProcess,
  type AppProcess,
} from '../../jobs/support/app-processes';
import { waitFor } from '../../jobs/support/wait-for';
import { WORKER_READY_LINE } from './worker-app';

export interface RealtimeCluster {
  /** The base URLs of the two API processes. */
  apiUrls: string[];
  worker: AppProcess;
  /** The seeded users, in the order asked for, each with the cookie value of one live session. */
  users: Array<{ user: UserRow; session: string }>;
  /** Stops every process and removes the data folder (the database stays with its creator). */
  stop(): Promise<void>;
}

export interface RealtimeClusterOptions {
  /** An empty database of the caller's; the processes share it. */
  databaseUrl: string;
  redisUrl: string;
  /** A worker-role entry point built with `startWorkerApp`. */
  workerScript: string;
  users: UserOverrides[];
}

/**
 * The scaled-out shape on one machine: two SERVICES=api processes of the real entry point and one
 * worker process, on one Redis and one database, with users and sessions made through the app's own
 * services before the processes start. Resolves once every process is ready.
 */
export async function startRealtimeCluster(options: RealtimeClusterOptions): Promise<RealtimeCluster> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'atelier-cluster-'));
  const setupApp = await buildApp({
    env: parseEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    database: await openPreparedDatabase(options.databaseUrl),
    databasePinned: true,
    logger: false,
  });
  const users: RealtimeCluster['users'] = [];
  try {
    await setupApp.deps.settings.set({ installed: true, contact_email: 'ops@atelier.test' });
    for (const overrides of options.users) {
      const { user } = await createUser(setupApp.deps, overrides);
      users.push({ user, session: await createSession(setupApp.deps, user) });
    }
  } finally {
    await setupApp.close();
  }

  const redisPrefix = scratchRedisPrefix();
  const shared = {
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    REDIS_PREFIX: redisPrefix,
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
  };
  const apis: AppProcess[] = [];
  const apiUrls: string[] = [];
  for (let i = 0; i < 2; i += 1) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    apis.push(
      startProcess(MAIN_SCRIPT, {
        ...shared,
        SERVICES: 'api',
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_URL: url,
      }),
    );
    apiUrls.push(url);
  }
  const worker = startProcess(options.workerScript, { ...shared, SERVICES: 'worker' });
  const processes = [...apis, worker];
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await deleteRedisKeys(options.redisUrl, redisPrefix);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      'both API processes and the worker',
      () => apis.every(isListening) && worker.output.includes(WORKER_READY_LINE),
      60_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { apiUrls, worker, users, stop };
}
