import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app';
import { resolveDatabaseUrl } from '../../../src/db/database-url';
import { openPreparedDatabase } from '../../../src/db/prepare';
import { parseEnv } from '../../../src/env';
import { startWorkerRole } from '../../../src/jobs/worker-role';

/** The stdout line of a worker process started by `startWorkerApp`, once it takes work. */
export const WORKER_READY_LINE = 'worker ready';

/**
 * The app of a worker-role process, built exactly as main.ts builds one for SERVICES=worker (no HTTP
 * server): its realtime events can only reach browsers through Redis. Closing the app stops the worker.
 */
export async function startWorkerApp(): Promise<FastifyInstance> {
  const env = parseEnv();
  const choice = resolveDatabaseUrl(env);
  const app = await buildApp({
    env,
    database: await openPreparedDatabase(choice.url),
    databasePinned: choice.pinned,
  });
  await app.ready();
  startWorkerRole(app.deps);
  process.stdout.write(`${WORKER_READY_LINE}\n`);
  return app;
}
