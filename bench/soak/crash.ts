import { runServerSuite } from '../lib/server-suite';

/**
 * The server's crash-consistency suite (apps/server/test/crash) with many kill rounds, each at a
 * random point of 20 concurrent uploads, instead of the few of `npm test`; it runs on PostgreSQL as
 * well when TEST_DATABASE_URL is set.
 */
export function run(): Promise<void> {
  return runServerSuite('apps/server/test/crash/', { CRASH_ROUNDS: process.env.CRASH_ROUNDS ?? '25' });
}
