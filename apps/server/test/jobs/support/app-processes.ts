import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The server's real entry point, as `npm start` runs it. */
export const MAIN_SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src/main.ts');

export interface AppProcess {
  child: ChildProcess;
  /** Every stdout line so far. */
  output: string[];
  /** SIGTERM (a graceful stop) and wait for the exit. */
  stop(): Promise<void>;
}

/** Runs a TypeScript entry point of the server in its own Node process. */
export function startProcess(script: string, env: Record<string, string>): AppProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const output: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => output.push(line));
  return {
    child,
    output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function isListening(app: AppProcess): boolean {
  return app.output.some((line) => line.startsWith('Atelier is running at'));
}
