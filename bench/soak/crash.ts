import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Kill rounds per database and storage driver, each at a random point of 20 concurrent uploads. */
const ROUNDS = process.env.CRASH_ROUNDS ?? '25';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The server's crash-consistency suite (apps/server/test/crash) with many kill rounds instead of the
 * few of `npm test`; it runs on PostgreSQL as well when TEST_DATABASE_URL is set.
 */
export async function run(): Promise<void> {
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('npx', ['vitest', 'run', 'apps/server/test/crash/'], {
      cwd: ROOT,
      env: { ...process.env, CRASH_ROUNDS: ROUNDS },
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0) throw new Error(`the crash-consistency suite failed (exit code ${code})`);
}
