import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that run longest (minutes each on two cores, where most take seconds), slowest first:
 * started in the first wave when Vitest has no record of their durations (a fresh machine's CI). By
 * size, its order then, the authorization matrix's small files start among the last 30 of 141 server
 * files and run on alone at the end.
 */
const SLOWEST = [
  'apps/server/test/faults/fault-injection.test.ts',
  'apps/server/test/sync/sync-clients.test.ts',
  'apps/server/test/files/blockify.test.ts',
  'apps/server/test/security/schema-fuzz.test.ts',
  'apps/server/test/security/authorization-matrix.test.ts',
  'apps/server/test/crash/crash-consistency.test.ts',
  'apps/server/test/security/authorization-matrix-gate.test.ts',
  'apps/server/test/webdav/webdav-clients.test.ts',
  'apps/server/test/security/authorization-matrix-spellings.test.ts',
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const path = relative(this.ctx.config.root, file.moduleId);
      const recorded = this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`);
      const index = SLOWEST.indexOf(path);
      return recorded || index === -1 ? SLOWEST.length : index;
    };
    // A stable sort: the rest keep Vitest's order (by recorded duration, else by size).
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

// One run covers every workspace's unit, API and component tests; e2e runs separately in Chromium.
export default defineConfig({
  // Vitest starts the files that took longest last time first (files it has no record of by size), so
  // the slowest do not start last and run alone while the other workers idle; CI keeps that record
  // between its runs in a cache folder named here, a fresh clone's node_modules having none.
  cacheDir: process.env.VITEST_CACHE_DIR,
  test: {
    projects: ['packages/chunker', 'packages/contracts', 'packages/render', 'apps/server', 'apps/web'],
    // Most test files wait on databases, sockets and child processes rather than the CPU: one worker
    // more than the cores keeps them busy (Vitest's default, one fewer, runs a single file at a time
    // on a two-core machine).
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: SlowestFirst },
    // CI also keeps the modules Vitest compiled (VITEST_MODULE_CACHE_DIR, keyed by each file's content):
    // every test file evaluates the server's few hundred modules afresh, and from this cache it skips
    // compiling them and most of asking the main process for them (4 small server files: 13-17 s -> 9-10 s).
    ...(process.env.VITEST_MODULE_CACHE_DIR
      ? { experimental: { fsModuleCache: true, fsModuleCachePath: process.env.VITEST_MODULE_CACHE_DIR } }
      : {}),
  },
});
