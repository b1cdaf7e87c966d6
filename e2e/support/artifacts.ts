import { fileURLToPath } from 'node:url';

/** The port the journeys' server listens on; E2E_PORT lets two runs share a machine. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8199);

/** A file kept with this run's artifacts: each port has its own folder, so concurrent runs never collide. */
export function artifactPath(name: string): string {
  return fileURLToPath(new URL(`../artifacts/port-${E2E_PORT}/${name}`, import.meta.url));
}
