import { SHARE_PASSWORD_MAX_FAILURES_PER_MINUTE } from '@atelier/contracts';
import autocannon from 'autocannon';
import { startAtelier, type BenchApp } from './lib/atelier-app';
import { folder, seed, settle } from './lib/items';

// Share links: anonymous visitors browsing a 10,000-item shared folder through its link, against
// the owner browsing the same folder in the same run (goal: >= 0.8x the owner's requests/s, 50
// clients each, the same 40 pages); then 50 clients guessing a protected link's password at once,
// where the throttle must hold to the 5 checks a minute it allows (goal: 0 extra password checks —
// every answer past the fifth is 429, given before any password is checked).

const FOLDER_ITEMS = 10_000;
const FOLDERS_IN_FOLDER = 500;
const CLIENTS = 50;
const GUESSES = 1_000;
const SECONDS = Number(process.env.BENCH_SHARE_SECONDS ?? 10);
const SORTS = ['sort=created_at&direction=desc', 'sort=name&direction=asc'];

async function share(atelier: BenchApp, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${atelier.url}/api/share`, {
    method: 'POST',
    headers: { ...atelier.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`share answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/** Requests per second of 50 clients repeating the pages, with the given headers. */
async function load(atelier: BenchApp, paths: string[], headers: Record<string, string>) {
  // The load generator gets a thread of its own, so it does not share the server's event loop.
  const cpu = process.cpuUsage();
  const result = await autocannon({
    url: atelier.url,
    connections: CLIENTS,
    workers: 1,
    duration: SECONDS,
    headers,
    requests: paths.map((path) => ({ method: 'GET', path })),
  });
  const used = process.cpuUsage(cpu);
  return {
    rps: Math.round(result.requests.average),
    non2xx: result.non2xx,
    p99: result.latency.p99,
    // CPU of this process (server and load thread) per request: a figure other load cannot move much.
    cpuMs: (used.user + used.system) / 1000 / result.requests.total,
  };
}

export async function run(): Promise<void> {
  const atelier = await startAtelier();
  try {
    const target = await folder(atelier, 'Ten thousand');
    await seed(atelier, target, 'folder', FOLDERS_IN_FOLDER, 1);
    await seed(atelier, target, 'file', FOLDER_ITEMS - FOLDERS_IN_FOLDER, 2);
    await settle(atelier);
    const token = await share(atelier, { id: target, type: 'folder', permission: 'visitor' });

    const pages = Array.from(
      { length: 40 },
      (_, i) => `${SORTS[i % SORTS.length]}&page=${1 + ((i * 37) % 200)}`,
    );
    const ownerPaths = pages.map((query) => `/api/browse/folders/${target}?${query}`);
    const visitorPaths = pages.map((query) => `/api/sharing/folders/all/${token}?${query}`);
    // One page each first, to check both answer the same items before timing them.
    type Listing = { data: { id: string }[] };
    const [ownerPage, visitorPage] = await Promise.all([
      fetch(`${atelier.url}${ownerPaths[0]}`, { headers: atelier.headers }).then(
        (r) => r.json() as Promise<Listing>,
      ),
      fetch(`${atelier.url}${visitorPaths[0]}`).then((r) => r.json() as Promise<Listing>),
    ]);
    const ids = (page: Listing) => page.data.map((item) => item.id).join();
    if (ids(ownerPage) !== ids(visitorPage) || ownerPage.data.length !== 50)
      throw new Error('the link and the owner do not list the same page');

    // Every page once first, as the browse benchmark does: the clients then repeat pages the listing
    // cache answers, as people reopening a folder do. Then owner, visitors and owner again: the
    // owner's figure is the mean of the two around the visitors'.
    for (const [paths, headers] of [
      [ownerPaths, atelier.headers],
      [visitorPaths, {}],
    ] as const) {
      for (const path of paths) await (await fetch(`${atelier.url}${path}`, { headers })).arrayBuffer();
    }
    const ownerBefore = await load(atelier, ownerPaths, atelier.headers);
    const visitors = await load(atelier, visitorPaths, {});
    const ownerAfter = await load(atelier, ownerPaths, atelier.headers);
    const ownerRps = (ownerBefore.rps + ownerAfter.rps) / 2;
    const ownerCpuMs = (ownerBefore.cpuMs + ownerAfter.cpuMs) / 2;
    console.log(
      `browse a ${FOLDER_ITEMS}-item shared folder (${atelier.app.deps.database.dialect}), ${CLIENTS} clients, 40 pages: anonymous through` +
        ` the link ${visitors.rps} requests/s (p99 ${visitors.p99} ms), the owner ${Math.round(ownerRps)}` +
        ` requests/s (${ownerBefore.rps} before, ${ownerAfter.rps} after) -> ${(visitors.rps / ownerRps).toFixed(2)}x` +
        ` (goal >= 0.8x); CPU per request ${visitors.cpuMs.toFixed(2)} ms through the link,` +
        ` ${ownerCpuMs.toFixed(2)} ms for the owner -> ${(ownerCpuMs / visitors.cpuMs).toFixed(2)}x;` +
        ` non-2xx ${visitors.non2xx + ownerBefore.non2xx + ownerAfter.non2xx}`,
    );

    const lockedFolder = await folder(atelier, 'Locked');
    const locked = await share(atelier, {
      id: lockedFolder,
      type: 'folder',
      permission: 'visitor',
      isPassword: true,
      password: 'the right password',
    });
    const started = performance.now();
    const guessing = await autocannon({
      url: atelier.url,
      connections: CLIENTS,
      workers: 1,
      amount: GUESSES,
      requests: [
        {
          method: 'POST',
          path: `/api/sharing/authenticate/${locked}`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ password: 'a wrong guess' }),
        },
      ],
    });
    const answered = (status: number) => guessing.statusCodeStats?.[`${status}`]?.count ?? 0;
    const seconds = (performance.now() - started) / 1000;
    const right = await fetch(`${atelier.url}/api/sharing/authenticate/${locked}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'the right password' }),
    });
    // A 401 is an answer after a password check; a 429 is given before one.
    const checks = answered(401);
    console.log(
      `${GUESSES} wrong passwords from ${CLIENTS} clients at once on one protected link in ${seconds.toFixed(1)} s:` +
        ` ${checks} password checks (401) for ${SHARE_PASSWORD_MAX_FAILURES_PER_MINUTE} allowed ->` +
        ` ${checks - SHARE_PASSWORD_MAX_FAILURES_PER_MINUTE} extra (goal 0), ${answered(429)} refused` +
        ` with 429, other answers ${GUESSES - checks - answered(429)};` +
        ` the right password afterwards within the minute: ${right.status}`,
    );
  } finally {
    await atelier.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
