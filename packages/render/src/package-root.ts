import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Whether this package runs from its TypeScript sources (tests, tsx) rather than from a build. */
export const runsFromSource = import.meta.url.endsWith('.ts');

/** The package's root directory, however this module was loaded (source, its dist, or another app's bundle). */
export function packageRoot(): string {
  if (runsFromSource) return fileURLToPath(new URL('../', import.meta.url));
  // Bundled into another app (the server): find the workspace package the usual way.
  return join(dirname(createRequire(import.meta.url).resolve('@atelier/render')), '..');
}
