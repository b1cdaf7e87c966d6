import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs one of the server's test suites with extra variables (a longer mode), failing when it fails. */
export async function runServerSuite(path: string, env: Record<string, string>): Promise<void> {
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('npx', ['vitest', 'run', path], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0) throw new Error(`${path} failed (exit code ${code})`);
}
