import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-queue';
import { applyBillingEventJob } from '../../src/modules/billing/billing.jobs';
import { waitFor } from '../jobs/support/wait-for';
import { describeEachDatabase } from '../support/each-database';
import { createTestApp, type TestApp } from '../support/test-app';
import { operations, STRIPE_WEBHOOK_SECRET, type Operation } from './operations';
import { InjectedFault, WriteFaults } from './write-faults';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The kill -9 cases' process (fixtures/fault-process.ts) as one ES module, made once for the file as
 * the server's build is: workspace packages bundled in, npm packages loaded from node_modules (the
 * folder is inside this package, so they resolve as from its sources). Each case costs a process
 * start, and loading the server's few hundred modules through tsx took about twice the CPU.
 */
let faultProcess: Promise<string> | undefined;
const cache = path.join(here, '../../node_modules/.cache');
mkdirSync(cache, { recursive: true });
const faultProcessDir = mkdtempSync(path.join(cache, 'fault-process-'));
afterAll(() => rmSync(faultProcessDir, { recursive: true, force: true }));
function faultProcessScript(): Promise<string> {
  faultProcess ??= (async () => {
    await build({
      config: false,
      entry: { 'fault-process': path.join(here, 'fixtures/fault-process.ts') },
      outDir: faultProcessDir,
      format: ['esm'],
      platform: 'node',
      target: 'node20',
      skipNodeModulesBundle: true,
      noExternal: [/^@atelier\//],
      outExtension: () => ({ js: '.mjs' }),
      removeNodeProtocol: false,
      silent: true,
    });
    return path.join(faultProcessDir, 'fault-process.mjs');
  })();
  return faultProcess;
}

/**
 * Every operation that writes through several modules, or writes and enqueues, is struck after
 * each of its writes: by a thrown error (the write reached the database, then the operation
 * failed) and by kill -9 of the process running it. Afterwards either nothing happened or
 * everything did, once the outbox and the workers of a running process have done their part:
 * no billing event without the job that applies it, no render without its job, no rendered file
 * without its output record, no upload without its thumbnail job, no file an upload request brought
 * without its owner's notice, and the bytes counted equal to
 * the files'. On SQLite with the database queue, and on PostgreSQL with BullMQ when REDIS_URL is set.
 */
describeEachDatabase('fault injection', (kind) => {
  const faults = new WriteFaults();
  let t: TestApp;
  let worker: JobWorker;

  beforeAll(async () => {
    t = await createTestApp({
      database: kind,
      redis: kind === 'postgres',
      plugins: [faults],
      settings: { stripe_webhook_secret: STRIPE_WEBHOOK_SECRET },
    });
    // Only the apply job runs here; the other jobs stay waiting, counted against what they are for.
    worker = t.deps.jobs.startWorker({ definitions: [applyBillingEventJob], services: t.deps });
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
  });

  /**
   * The state once it has settled: a stored event applied, outbox rows forwarded. Until then the
   * operation's check fails; if it never passes, its reason is the test's failure.
   */
  const settled = async (operation: Operation, input: Record<string, string>) => {
    try {
      return await waitFor(
        `${operation.name} to settle`,
        () => operation.outcome(t, input).catch(() => undefined),
        15_000,
      );
    } catch {
      return operation.outcome(t, input);
    }
  };

  /**
   * Runs the operation once without a fault; answers how many writes it makes. Once per operation:
   * its thrown-error and kill -9 cases both start from the count (each run costs a whole operation).
   */
  const writeCounts = new Map<Operation, Promise<number>>();
  const writesOf = (operation: Operation) => {
    let counted = writeCounts.get(operation);
    if (!counted) {
      counted = (async () => {
        const input = await operation.prepare(t);
        const { writes, error } = await faults.run(0, 'throw', () => operation.act(t, input));
        expect(error).toBeNull();
        expect(await settled(operation, input)).toBe('everything');
        return writes;
      })();
      writeCounts.set(operation, counted);
    }
    return counted;
  };

  /** The environment of the app, for a process of its own on the same database, data and queue. */
  const childEnv = () => ({
    NODE_ENV: 'test',
    DATA_DIR: t.dataDir,
    APP_URL: t.env.APP_URL,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: t.env.WEB_DIST_DIR,
    RATE_LIMIT_MAX: '100000',
    ...(t.env.REDIS_URL ? { REDIS_URL: t.env.REDIS_URL, REDIS_PREFIX: t.env.REDIS_PREFIX } : {}),
  });

  for (const operation of operations) {
    it(`${operation.name}: nothing or everything, whichever write a thrown error follows`, async () => {
      const writes = await writesOf(operation);
      expect(writes).toBeGreaterThan(1);
      let struck = 0;
      for (let after = 1; after <= writes; after++) {
        const input = await operation.prepare(t);
        const run = await faults.run(after, 'throw', () => operation.act(t, input));
        // A fault in what follows a commit (forwarding a job, announcing it) is not the operation's:
        // the outbox and the sweeps finish it, and the caller is answered as it succeeded.
        if (run.error) struck += 1;
        const outcome = await settled(operation, input);
        expect(outcome, `after write ${after}`).toMatch(/^(nothing|everything)$/);
        // What the person or the provider does next (sends again) completes what did not happen;
        // shown at the first and the last write, as each run in between costs a whole operation.
        if (outcome === 'nothing' && (after === 1 || after === writes)) {
          await operation.act(t, input);
          expect(await settled(operation, input), `sent again after write ${after}`).toBe('everything');
        }
      }
      expect(struck).toBeGreaterThan(0);
    }, 240_000);
  }

  for (const operation of operations) {
    it(`${operation.name}: nothing or everything after kill -9 at its last write`, async () => {
      const writes = await writesOf(operation);
      // At its last write: where jobs go through the outbox it follows the commit (forwarding), so the
      // process dies with its job not yet in Redis; elsewhere it comes before, and the kill is a
      // rollback. (Each kill costs a process start, so the thrown faults above cover every step.)
      // The count can take in a write of this process's own background work (the outbox forwarder, a
      // sweep) made meanwhile: a child that ends before the chosen write (exit 3) is run again one
      // write earlier, so the kill lands on the operation's own last write.
      for (let after = writes; ; after--) {
        const input = await operation.prepare(t);
        const child = spawn(process.execPath, [await faultProcessScript()], {
          env: {
            ...process.env,
            FAULT_CASE: JSON.stringify({
              databaseUrl: t.databaseUrl,
              env: childEnv(),
              operation: operation.name,
              input,
              after,
            }),
          },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
          child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
        );
        if (signal !== 'SIGKILL' && code === 3 && after > 1) continue;
        expect(signal, `killed after write ${after}`).toBe('SIGKILL');
        // This process carries on: its worker applies events and forwards what the outbox holds.
        const outcome = await settled(operation, input);
        expect(outcome, `killed after write ${after}`).toMatch(/^(nothing|everything)$/);
        if (outcome === 'nothing') await operation.act(t, input);
        expect(await settled(operation, input)).toBe('everything');
        break;
      }
    }, 300_000);
  }

  it('strikes the operation itself: its caller gets the injected fault', async () => {
    const [billing] = operations;
    const input = await billing!.prepare(t);
    const run = await faults.run(1, 'throw', () => billing!.act(t, input));
    expect(run.error).toBeInstanceOf(InjectedFault);
  });
});
