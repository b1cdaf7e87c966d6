import autocannon from 'autocannon';
import { sql } from 'kysely';
import { FilesRepository } from '../apps/server/src/modules/files/files.repository';
import { pageRequest } from '../apps/server/src/modules/files/files.service';
import { startAtelier } from './lib/atelier-app';
import { folder, seed } from './lib/items';

// Browse: a 10,000-item folder among 1,000,000 files in the database. Goals: page p50 <= 10 ms and
// p99 <= 30 ms over HTTP (with the ratio to the bare SQL of the same pages); with 50 concurrent
// clients, >= 4,000 requests/s repeating 40 pages, as people reopening a folder do (the listing cache
// answers them until the owner's files change), and >= 2,000 requests/s of first visits, each request
// a page the cache has never seen (built from the database).

const FOLDER_ITEMS = 10_000;
const FOLDERS_IN_FOLDER = 500;
const TOTAL_FILES = Number(process.env.BENCH_BROWSE_FILES ?? 1_000_000);
const SAMPLES = 400;
const SORTS = [
  'sort=created_at&direction=desc',
  'sort=name&direction=asc',
  'sort=filesize&direction=desc',
  'sort=updated_at&direction=asc',
];

/** CPU milliseconds of this process per operation since `since`. */
const cpuMsPer = (since: NodeJS.CpuUsage, operations: number) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000 / operations;
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

export async function run(): Promise<void> {
  const atelier = await startAtelier();
  try {
    const seeding = performance.now();
    const target = await folder(atelier, 'Ten thousand');
    await seed(atelier, target, 'folder', FOLDERS_IN_FOLDER, 1);
    await seed(atelier, target, 'file', FOLDER_ITEMS - FOLDERS_IN_FOLDER, 2);
    // The rest of the million files sit in other folders of the same owner: the hardest case for
    // per-owner indexes, since the owner alone selects nothing.
    for (let n = 0, placed = FOLDER_ITEMS - FOLDERS_IN_FOLDER; placed < TOTAL_FILES; n++) {
      const count = Math.min(FOLDER_ITEMS, TOTAL_FILES - placed);
      await seed(atelier, await folder(atelier, `Other ${n}`), 'file', count, 0x100 + n);
      placed += count;
    }
    // Fresh statistics (and, on PostgreSQL, the visibility map index-only scans need), as the
    // database's own maintenance would have made them on a live instance.
    const { db, dialect } = atelier.app.deps.database;
    await (dialect === 'sqlite' ? sql`analyze` : sql`vacuum analyze items`).execute(db);
    const seededMs = performance.now() - seeding;

    const lastPage = FOLDER_ITEMS / 50;
    const urls = Array.from({ length: SAMPLES }, (_, i) => {
      const page = 1 + ((i * 7919) % lastPage);
      // Every (sort, page) pair once: 7919 is prime to the page count, and each sort takes a run of pages.
      return `/api/browse/folders/${target}?${SORTS[Math.floor((i * SORTS.length) / SAMPLES)]}&page=${page}`;
    });

    // Bare SQL: the repository's queries for the same pages, without HTTP, session or presenter.
    const repository = new FilesRepository(atelier.app.deps.database);
    const bare: number[] = [];
    const bareCpu = process.cpuUsage();
    for (const url of urls) {
      const query = new URLSearchParams(url.split('?')[1]);
      const request = pageRequest({
        sort: query.get('sort') as 'name',
        direction: query.get('direction') as 'asc',
        page: Number(query.get('page')),
        per_page: 50,
      });
      const started = performance.now();
      await repository.listLive(atelier.userId, target, request);
      bare.push(performance.now() - started);
    }
    const bareCpuMs = cpuMsPer(bareCpu, urls.length);

    const http: number[] = [];
    const httpCpu = process.cpuUsage();
    for (const url of urls) {
      const started = performance.now();
      const res = await fetch(`${atelier.url}${url}`, { headers: atelier.headers });
      const body = (await res.json()) as { data: unknown[] };
      http.push(performance.now() - started);
      if (res.status !== 200 || body.data.length !== 50) throw new Error(`browse answered ${res.status}`);
    }
    const httpCpuMs = cpuMsPer(httpCpu, urls.length);

    // The load generator gets a thread of its own, so it does not share the server's event loop.
    const underLoad = async (paths: string[], idReplacement: boolean) => {
      const cpu = process.cpuUsage();
      const load = await autocannon({
        url: atelier.url,
        connections: 50,
        workers: 1,
        duration: Number(process.env.BENCH_BROWSE_SECONDS ?? 10),
        headers: atelier.headers,
        idReplacement,
        requests: paths.map((path) => ({ method: 'GET', path })),
      });
      return { load, cpuMs: cpuMsPer(cpu, load.requests.total) };
    };
    const repeated = await underLoad(urls.slice(0, 40), false);
    // A parameter the listing ignores, unique per request: every page is one the cache has never seen.
    const firstVisits = await underLoad(
      urls.map((url) => `${url}&visit=[<id>]`),
      true,
    );

    const result = {
      files: TOTAL_FILES,
      seeded: `${(seededMs / 1000).toFixed(1)} s`,
      p50: +percentile(http, 50).toFixed(2),
      p99: +percentile(http, 99).toFixed(2),
      bareP50: +percentile(bare, 50).toFixed(2),
      bareP99: +percentile(bare, 99).toFixed(2),
      ratioToBare: +(percentile(http, 50) / percentile(bare, 50)).toFixed(2),
      bareCpuMs: +bareCpuMs.toFixed(2),
      httpCpuMs: +httpCpuMs.toFixed(2),
      repeatedPerSecond: Math.round(repeated.load.requests.average),
      repeatedCpuMs: +repeated.cpuMs.toFixed(3),
      firstVisitsPerSecond: Math.round(firstVisits.load.requests.average),
      firstVisitsCpuMs: +firstVisits.cpuMs.toFixed(3),
      non2xx: repeated.load.non2xx + firstVisits.load.non2xx,
    };
    console.log(
      `browse a ${FOLDER_ITEMS}-item folder among ${TOTAL_FILES} files (${atelier.app.deps.database.dialect}):` +
        ` first-visit page p50 ${result.p50} ms, p99 ${result.p99} ms (goals 10 / 30 ms); bare SQL p50 ${result.bareP50} ms,` +
        ` p99 ${result.bareP99} ms -> HTTP/SQL ${result.ratioToBare}x; with 50 clients: ${result.repeatedPerSecond} requests/s` +
        ` repeating 40 pages (goal >= 4000), ${result.firstVisitsPerSecond} requests/s of first visits, cache bypassed` +
        ` (goal >= 2000), ${result.non2xx} non-2xx; CPU per page: SQL ${result.bareCpuMs} ms, one client's HTTP round trip` +
        ` ${result.httpCpuMs} ms, under load ${result.repeatedCpuMs} ms repeated and ${result.firstVisitsCpuMs} ms first visits` +
        ` (load generator included), a bound that other load on the machine moves far less than requests/s`,
    );
  } finally {
    await atelier.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
