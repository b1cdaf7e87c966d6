import { runServerSuite } from '../lib/server-suite';

/**
 * The schema-driven fuzzer in its long mode: 500 cases per route (FUZZ_RUNS to change) and the
 * check that /api/ping's p99 stays under 100 ms while it runs; PostgreSQL too when TEST_DATABASE_URL is set.
 */
export function run(): Promise<void> {
  return runServerSuite('apps/server/test/security/schema-fuzz.test.ts', { SOAK: '1' });
}
