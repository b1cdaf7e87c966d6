import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/server/src/app';
import { openPreparedDatabase } from '../../apps/server/src/db/prepare';
import { parseEnv } from '../../apps/server/src/env';

export interface BenchApp {
  app: FastifyInstance;
  url: string;
  dataDir: string;
  /** Cookie and XSRF headers of a signed-in user, as a browser would send them. */
  headers: Record<string, string>;
  userId: string;
  close(): Promise<void>;
}

/**
 * The real server on a loopback port: SQLite (or BENCH_DATABASE_URL) and local storage in a
 * scratch data folder, installed, with one signed-in user. Rate limiting is lifted for the load.
 * `env` adds to or replaces its variables (WEB_DIST_DIR to serve the built web app); `addRoutes`
 * registers a benchmark's own routes (a peer to compare with) before the server listens.
 */
export async function startAtelier(
  settings: Record<string, unknown> = {},
  env: Record<string, string> = {},
  addRoutes: (app: FastifyInstance) => void = () => {},
): Promise<BenchApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'atelier-bench-'));
  const parsedEnv = parseEnv({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SERVICES: 'api',
    STORAGE_DRIVER: 'local',
    RATE_LIMIT_MAX: '100000000',
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    ...env,
  });
  const database = await openPreparedDatabase(
    process.env.BENCH_DATABASE_URL ?? `sqlite:${join(dataDir, 'bench.sqlite')}`,
  );
  const app = await buildApp({ env: parsedEnv, database, databasePinned: true, logger: false });
  await app.deps.settings.set({
    installed: true,
    contact_email: 'bench@atelier.test',
    storage_limitation: false,
    ...settings,
  });
  addRoutes(app);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const user = await app.deps.users.create({
    name: 'Bench',
    email: `bench-${Date.now()}@atelier.test`,
    password: 'bench password 1',
  });
  const session = await app.deps.sessions.create(user, { ip: '127.0.0.1', userAgent: 'bench' });
  // The XSRF token is bound to the session, so it is fetched with the session like a browser's page load.
  const ping = await fetch(`${address}/api/ping`, {
    headers: { cookie: `atelier_session=${session.token}` },
  });
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(ping.headers.get('set-cookie') ?? '')?.[1] ?? '';
  return {
    app,
    url: address,
    dataDir,
    userId: user.id,
    headers: {
      cookie: `atelier_session=${session.token}; XSRF-TOKEN=${xsrf}`,
      'x-xsrf-token': decodeURIComponent(xsrf),
    },
    async close() {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Samples this process's resident memory until stopped; returns the peak in bytes. */
export function sampleRss(everyMs = 20): { stop(): number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

export const MiB = 1024 * 1024;
export const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;
export const rate = (bytes: number, ms: number) => `${(bytes / MiB / (ms / 1000)).toFixed(0)} MiB/s`;
