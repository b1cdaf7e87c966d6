import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/each-database';
import { createTestApp, type TestApp } from '../support/test-app';
import { fuzzCases, sendCase, type OpenApiOperation } from './fuzz-cases';
import { fastifyPath, servedRoutes, type ServedRoute } from './route-inventory';
import { seedUsers, type Seed } from './seed';

/**
 * `npm test` runs a few cases per route and prints the ping latency; the soak (SOAK=1) runs many and
 * holds the latency to the limit. FUZZ_RUNS sets the cases per route; FUZZ_SEED with
 * FUZZ_ROUTE (text of `METHOD /path`) replays a failure with the seed it printed.
 */
const SOAK = process.env.SOAK === '1';
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? (SOAK ? 500 : 10));
const FUZZ_SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const FUZZ_ROUTE = process.env.FUZZ_ROUTE ?? '';
const PING_P99_LIMIT_MS = 100;
/**
 * The pause between two pings. The soak holds their latency to the limit, so it pings often; `npm test`
 * only prints it, and a ping every 5 ms there was a second stream of real HTTP requests beside the cases.
 */
const PING_PAUSE_MS = SOAK ? 5 : 250;

/** Asks /api/ping over real HTTP, one request after another, until stopped; returns each latency. */
function sampleLatency(url: string): { stop(): Promise<number[]> } {
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const answered = await fetch(url)
        .then(async (answer) => (await answer.arrayBuffer(), answer.ok))
        .catch(() => false);
      // A refused or failed ping counts as never answered.
      samples.push(answered ? performance.now() - started : Infinity);
      // A liveness probe, not a flood: the event loop is left to the traffic being measured.
      await new Promise((resolve) => setTimeout(resolve, PING_PAUSE_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

/**
 * The two 5xx answers RFC 4918 gives a client's own request: 502 for a Destination on another
 * server, 507 when the quota has no room for what it would store. Any other 5xx fails WebDAV too.
 */
function davRefusal(path: string, status: number): boolean {
  return (
    /^\/(dav|remote\.php\/webdav|remote\.php\/dav\/files)\//.test(path) && (status === 502 || status === 507)
  );
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

describeEachDatabase('schema-driven fuzzing', (kind) => {
  let t: TestApp;
  let seed: Seed;
  let routes: ServedRoute[];
  let operations: Map<string, OpenApiOperation>;
  let origin: URL;

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    seed = await seedUsers(t);
    routes = servedRoutes(t.app).filter((route) => route.key.includes(FUZZ_ROUTE));
    const document = t.app.swagger() as unknown as {
      paths: Record<string, Record<string, OpenApiOperation>>;
    };
    operations = new Map(
      Object.entries(document.paths).flatMap(([path, byMethod]) =>
        Object.entries(byMethod).map(
          ([method, operation]) => [`${method.toUpperCase()} ${fastifyPath(path)}`, operation] as const,
        ),
      ),
    );
    origin = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  }, 300_000);
  afterAll(() => t?.close());

  it(
    'answers no generated or hostile request with a 5xx, and keeps answering pings',
    // The limit only catches a hang: a loaded CI machine running this beside the journeys and the
    // other slow suites took over 180 s for the same cases.
    { timeout: SOAK ? 0 : 600_000 },
    async () => {
      const failures: string[] = [];
      let cases = 0;
      const pings = sampleLatency(new URL('/api/ping', origin).href);
      let latencies: number[];
      try {
        for (const route of routes) {
          const property = fc.asyncProperty(
            fuzzCases(route, operations.get(route.key), seed),
            async (fuzzCase) => {
              cases += 1;
              const answer = await sendCase(t.app, origin, seed, fuzzCase);
              if (answer.status >= 500 && !davRefusal(fuzzCase.path, answer.status))
                throw new Error(`answered ${answer.status}: ${answer.body.slice(0, 300)}`);
            },
          );
          // fast-check shrinks a failing case to a small one and prints it with the seed that replays it.
          const result = await fc.check(property, { numRuns: RUNS_PER_ROUTE, seed: FUZZ_SEED });
          if (result.failed)
            failures.push(
              `${route.key}: ${String(result.errorInstance)}\n${fc.defaultReportMessage(result)}`,
            );
        }
      } finally {
        latencies = await pings.stop();
      }
      const p99 = percentile(latencies, 99);
      console.log(
        `schema fuzzing [${kind}]: ${cases} cases over ${routes.length} routes (${RUNS_PER_ROUTE} per route), ` +
          `/api/ping p99 ${p99.toFixed(1)} ms (p50 ${percentile(latencies, 50).toFixed(1)} ms, ${latencies.length} pings)`,
      );
      expect(failures).toEqual([]);
      if (SOAK) expect(p99, '/api/ping p99 while fuzzing (ms)').toBeLessThan(PING_P99_LIMIT_MS);
    },
  );
});
