import { fileURLToPath } from 'node:url';

/** The port of the journeys' first server; E2E_PORT lets two runs share a machine. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8199);

/**
 * How many journeys run at once (one by default): each Playwright worker has a server, data folder
 * and database of its own (serve.mjs), the n-th (its parallel index) listening on E2E_PORT + n, so no
 * journey meets another's instance and every spec starts from an instance it may have to install
 * (ensureInstalled). Two concurrent runs on one machine need ports at least this far apart.
 */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS ?? 1);

/** A file kept with this run's artifacts: each port has its own folder, so concurrent runs never collide. */
export function artifactPath(name: string): string {
  return fileURLToPath(new URL(`../artifacts/port-${E2E_PORT}/${name}`, import.meta.url));
}

/** The origin of the server of the worker with this parallel index. */
export const serverOrigin = (server: number): string => `http://127.0.0.1:${E2E_PORT + server}`;

/** A file of that server's (serve.mjs writes them), kept with this run's artifacts. */
export const serverFile = (server: number, name: string): string => artifactPath(`server-${server}/${name}`);
