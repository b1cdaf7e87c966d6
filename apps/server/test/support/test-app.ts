import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { buildApp } from '../../src/app';
import { Database, openConnection } from '../../src/db/database';
import { prepareConnection } from '../../src/db/prepare';
import { parseEnv, type Env } from '../../src/env';
import type { PaymentProvider } from '../../src/modules/billing/payment-provider';
import type { AppDeps } from '../../src/services';
import type { Settings } from '../../src/modules/settings/settings.defaults';
import { createMigratedDatabase, type DatabaseKind } from './databases';
import { deleteRedisKeys, scratchRedisPrefix } from './redis-scratch';

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  env: Env;
  dataDir: string;
  /** Where another process finds the same database. */
  databaseUrl: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  database?: DatabaseKind;
  /** Installed instances skip the setup wizard (the default); pass false to test the wizard. */
  installed?: boolean;
  /** Settings to store before the first request. */
  settings?: Partial<Settings>;
  /** Behave as if DATABASE_URL fixed the database (the setup wizard may not switch it). */
  databasePinned?: boolean;
  /** Use Redis (REDIS_URL of the test run) for throttles and rate limits; ignored when unset. */
  redis?: boolean;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** The clock expiries are checked against, for tests that move time. */
  clock?: () => Date;
  /** Payment providers wired to local peers, instead of the environment's. */
  paymentProviders?: PaymentProvider[];
  /** Kysely plugins every query of the app passes through (the fault-injection suite's). */
  plugins?: KyselyPlugin[];
}

/** A real app on its own fresh database and data folder, for one test file or one test. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'atelier-data-'));
  const scratch = await createMigratedDatabase(options.database ?? 'sqlite');
  const usesRedis = Boolean(options.redis && process.env.REDIS_URL);
  const env = parseEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_URL: 'http://atelier.test',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    // Many requests come from one address in a test run; the global ceiling has its own test.
    RATE_LIMIT_MAX: '100000',
    ...(usesRedis ? { REDIS_URL: process.env.REDIS_URL!, REDIS_PREFIX: scratchRedisPrefix() } : {}),
    ...options.env,
  });
  const database = await openTestDatabase(scratch.url, options.plugins ?? []);
  const app = await buildApp({
    env,
    database,
    databasePinned: options.databasePinned ?? false,
    logger: false,
    clock: options.clock,
    paymentProviders: options.paymentProviders,
  });
  await app.ready();
  const installed = options.installed ?? true;
  await app.deps.settings.set({
    ...(installed ? { installed: true, contact_email: 'contact@atelier.test' } : {}),
    ...options.settings,
  });
  return {
    app,
    deps: app.deps,
    env,
    dataDir,
    databaseUrl: scratch.url,
    close: async () => {
      await app.close();
      if (usesRedis) await deleteRedisKeys(env.REDIS_URL!, env.REDIS_PREFIX);
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The app's database, prepared as at start, its queries passing through `plugins`. */
export async function openTestDatabase(url: string, plugins: KyselyPlugin[]): Promise<Database> {
  const connection = openConnection(url);
  await prepareConnection(connection);
  return new Database({
    ...connection,
    db: plugins.reduce((db, plugin) => db.withPlugin(plugin), connection.db),
  });
}
