import { createHash, randomBytes, randomFillSync } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { hashFileBlocks } from '../apps/web/src/lib/block-hashes';
import { deltaUpload } from '../apps/web/src/lib/delta-upload';
import { UNFINISHED_BLOCK_MS } from '../apps/server/src/modules/files/block-collector';
import type { PackerRun } from '../apps/server/src/modules/files/block-packer';
import { MiB, mib, rate, startAtelier, type BenchApp } from './lib/atelier-app';
import { download } from './lib/download-client';
import { atelierUpload, tusUpload } from './upload';

// Versions on the block store (issue 24), in one run on one instance:
// - 100 saves of a 200 MB CAD-like file, each changing about 1 % of it in three places, sent as the
//   web client sends them (its own delta upload code: chunked and hashed, only missing blocks PUT,
//   then a commit with conflict=replace). Goals: blocks on disk ≤ 2× the file's size after all saves
//   and the block packer's run (blocks only versions name compressed), each save uploads ≤ 5 % of
//   the file.
// - Restoring an early version of the file. Goal ≤ 1 s. The restored file is then read back over
//   HTTP, against the same bytes read from a plain file by the same server and client: as the restore
//   left its blocks (compressed), and once the packer stored them as they are.
// - New data (random bytes the server has never seen) by the chunk form (how the web client sends a
//   new file) and by the delta upload, against @tus/server with its file store: the same bytes, rounds
//   alternating, each after a sync, with the CPU per MiB. Goal ≥ 1.2× tus.
// BENCH_VERSIONS_MB (200), BENCH_VERSIONS_SAVES (100) and BENCH_ROUNDS (3) make a quicker run;
// BENCH_VERSIONS_NEW_ROUNDS (6, or BENCH_ROUNDS rounded up to even) rounds of new data, then BENCH_ROUNDS of the delta upload;
// BENCH_VERSIONS_ONLY=new skips the saves and measures only new data;
// BENCH_VERSIONS_REPLAY=1 only replays the saves against a block store in memory (no server).

const MB = 1_000_000;
const RECORD = 64;
const NAME = 'gearbox-housing.x_b';
/** The bench's own route: a plain file's bytes as they lie on disk, the peer of a read through blocks. */
const PLAIN_PATH = '/bench/plain-file';

/** A deterministic pseudo-random source (xorshift32) for the file and its edits. */
function prng(seed: number) {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/**
 * One record of a CAD-like binary: an entity id, its kind and layer, a parent reference, then a point
 * and a direction as doubles. Like the faces and edges of a solid, most records reuse a point of a
 * record shortly before them (shared vertices) and directions are mostly the axes; the rest are new
 * values on a 0.01 mm design grid.
 */
function writeRecord(view: DataView, at: number, id: number, random: () => number, points: number[][]): void {
  view.setUint32(at, id, true);
  view.setUint16(at + 4, id % 7, true); // kind: vertex, edge, face, loop, shell, ...
  view.setUint16(at + 6, Math.floor(id / 5000) % 32, true); // layer
  view.setUint32(at + 8, Math.max(0, id - 1 - Math.floor(random() * 8)), true); // parent
  view.setUint32(at + 12, 0x3f800000, true); // tolerance 1.0f
  let point = points[Math.floor(random() * points.length)];
  if (!point || random() < 0.35) {
    point = [0, 0, 0].map(() => Math.round(random() * 40_000 - 20_000) / 100);
    points[id % 16] = point;
  }
  view.setFloat64(at + 16, point[0]!, true);
  view.setFloat64(at + 24, point[1]!, true);
  view.setFloat64(at + 32, point[2]!, true);
  const axis = Math.floor(random() * 4);
  const direction = axis < 3 ? [0, 1, 2].map((i) => (i === axis ? 1 : 0)) : [0.6, 0.8, 0];
  view.setFloat32(at + 40, direction[0]!, true);
  view.setFloat32(at + 44, direction[1]!, true);
  view.setFloat32(at + 48, direction[2]!, true);
  view.setFloat64(at + 52, Math.round(random() * 1000) / 10, true); // a parameter (radius, length)
  view.setUint32(at + 60, 0, true);
}

/** A file of `size` bytes: a header then records. */
function cadLikeFile(size: number): Buffer<ArrayBuffer> {
  const file = Buffer.alloc(size);
  file.write('ATELIER-BENCH-CAD v1\n', 0, 'latin1');
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const random = prng(24);
  const points: number[][] = [];
  for (let at = 4096, id = 0; at + RECORD <= size; at += RECORD, id++)
    writeRecord(view, at, id, random, points);
  return file;
}

/**
 * A save: three places change, about 1 % of the file in all. Two are edited in place (records moved),
 * the third is replaced by a slightly longer or shorter run of records (entities added or removed),
 * which shifts everything after it.
 */
function edit(file: Buffer, save: number): Buffer<ArrayBuffer> {
  const random = prng(1000 + save);
  const records = Math.floor(file.length / RECORD);
  const perPlace = Math.max(1, Math.floor((records * 0.01) / 3));
  const place = () => 64 + Math.floor(random() * (records - perPlace - 128));
  const copy = Buffer.from(file);
  const view = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  const points: number[][] = [];
  for (const start of [place(), place()]) {
    for (let r = start; r < start + perPlace; r++)
      writeRecord(view, r * RECORD, r + save * 7, random, points);
  }
  const start = place();
  const delta = (save % 2 === 0 ? 1 : -1) * Math.max(1, Math.floor(perPlace / 50));
  const replacement = Buffer.alloc((perPlace + delta) * RECORD);
  const replacementView = new DataView(replacement.buffer, replacement.byteOffset, replacement.byteLength);
  for (let r = 0; r < perPlace + delta; r++)
    writeRecord(replacementView, r * RECORD, start + r + save, random, points);
  return Buffer.concat([
    copy.subarray(0, start * RECORD),
    replacement,
    copy.subarray((start + perPlace) * RECORD),
  ]);
}

/** Bytes of every file under `dir` (the storage folder: blocks as stored, compressed or not, and any objects). */
async function bytesUnder(dir: string): Promise<number> {
  let stored = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    stored += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return stored;
}

interface Sent {
  requests: number;
  bytes: number;
  puts: number;
}

/** Where a save's requests go: the server's block routes, or the replay's block store in memory. */
interface BlockRoutes {
  /** The routes' prefix, as the web client's delta upload takes it. */
  endpoint: string;
  request: (url: string, init: RequestInit) => Promise<Response>;
}

function serverRoutes(atelier: BenchApp): BlockRoutes {
  return {
    endpoint: `${atelier.url}/api/upload/blocks`,
    request: (url, init) =>
      fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), ...atelier.headers } }),
  };
}

/**
 * The replay's server: the owner's blocks as their hashes and sizes, answering the three calls as the
 * routes do for a client that sends what it is told (`missing` against the blocks held, a PUT holds
 * its block, a commit files), so a save sends what it would send to the server, without one.
 */
function memoryRoutes(): BlockRoutes & { held: Map<string, number> } {
  const endpoint = 'memory://blocks';
  const held = new Map<string, number>();
  return {
    endpoint,
    held,
    request: async (url, init) => {
      const route = url.slice(endpoint.length + 1).split('?')[0]!;
      if (route === 'missing') {
        const { hashes } = JSON.parse(init.body as string) as { hashes: string[] };
        return Response.json({ data: { missing: hashes.filter((hash) => !held.has(hash)) } });
      }
      if (route === 'commit') return Response.json({ data: { id: 'replayed' } });
      held.set(route, (init.body as Blob).size);
      return new Response(null, { status: 204 });
    },
  };
}

/**
 * Saves `bytes` as `name` through the web client's delta upload; answers the file, what was sent and
 * how many blocks the client cut the file into.
 */
async function save(
  routes: BlockRoutes,
  bytes: Buffer<ArrayBuffer>,
  name: string,
  conflict: 'replace' | null,
): Promise<{ file: { id: string }; sent: Sent; blocks: number; hashMs: number; totalMs: number }> {
  const sent: Sent = { requests: 0, bytes: 0, puts: 0 };
  const started = performance.now();
  let hashed = 0;
  let blocks = 0;
  const outcome = await deltaUpload({
    file: new Blob([bytes]),
    name,
    parentId: null,
    conflict,
    endpoint: routes.endpoint,
    request: async (url, init) => {
      const body = init.body;
      sent.requests += 1;
      sent.bytes += body instanceof Blob ? body.size : typeof body === 'string' ? Buffer.byteLength(body) : 0;
      if (init.method === 'PUT') sent.puts += 1;
      return routes.request(url, init);
    },
    hashBlocks: async (file, onProgress, signal) => {
      const cut = await hashFileBlocks(file, onProgress, signal);
      hashed = performance.now();
      blocks = cut.length;
      return cut;
    },
    signal: new AbortController().signal,
    onHashed: () => {},
    onSent: () => {},
  });
  if (outcome.kind !== 'filed') {
    const detail =
      outcome.kind === 'refused' ? `${outcome.response.status} ${await outcome.response.text()}` : '';
    throw new Error(`the delta upload of ${name} ended ${outcome.kind} ${detail}`);
  }
  return {
    file: outcome.file as { id: string },
    sent,
    blocks,
    hashMs: hashed - started,
    totalMs: performance.now() - started,
  };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(2)} %`;

async function api<T>(atelier: BenchApp, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${atelier.url}${path}`, {
    ...init,
    headers: { accept: 'application/json', ...(init.headers as Record<string, string>), ...atelier.headers },
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** The saves: the file, then `saves - 1` edits of it saved over it by name; answers what each sent. */
async function saveAll(routes: BlockRoutes, size: number, saves: number) {
  const original = cadLikeFile(size);
  let current = original;
  const first = await save(routes, current, NAME, null);
  const firstHash = sha256(current);
  const perSave: Sent[] = [];
  const saveMs: number[] = [];
  let blocks = first.blocks;
  let bytes = current.length;
  for (let n = 2; n <= saves; n++) {
    current = edit(current, n);
    const saved = await save(routes, current, NAME, 'replace');
    if (saved.file.id !== first.file.id) throw new Error('a replace filed another file');
    perSave.push(saved.sent);
    saveMs.push(saved.totalMs);
    blocks += saved.blocks;
    bytes += current.length;
  }
  const meanBlock = bytes / blocks;
  return {
    fileId: first.file.id,
    original,
    firstHash,
    firstHashMs: first.hashMs,
    last: current,
    perSave,
    saveMs,
    meanBlock,
  };
}

/** What the saves sent, each against the file's size, and the mean size of the blocks the client cut. */
function sentSummary(perSave: Sent[], size: number, meanBlock: number): string {
  const uploaded = perSave.map((sent) => sent.bytes);
  const worst = Math.max(...uploaded);
  const mean = uploaded.reduce((a, b) => a + b, 0) / uploaded.length;
  const over = uploaded.filter((bytes) => bytes > 0.05 * size).length;
  return (
    `uploaded per save: mean ${percent(mean, size)}, worst ${percent(worst, size)} of the file (goal <= 5 %; ${over} saves over),` +
    ` ${(perSave.reduce((a, s) => a + s.puts, 0) / perSave.length).toFixed(1)} blocks and` +
    ` ${(perSave.reduce((a, s) => a + s.requests, 0) / perSave.length).toFixed(1)} requests a save,` +
    ` blocks cut ${(meanBlock / MiB).toFixed(2)} MiB on average`
  );
}

/** Runs the block packer, then collection as it runs once the packer's old objects are due; answers the packer's run. */
async function settleBlocks(atelier: BenchApp): Promise<{ run: PackerRun; ms: number }> {
  const started = performance.now();
  const run = await atelier.app.deps.blockPacker.pack();
  const ms = performance.now() - started;
  await atelier.app.deps.blockCollector.collect(new Date(Date.now() + UNFINISHED_BLOCK_MS + 60_000));
  return { run, ms };
}

async function savesAndRestore(
  atelier: BenchApp,
  plainFile: string,
  size: number,
  saves: number,
  rounds: number,
): Promise<void> {
  const { fileId, original, firstHash, firstHashMs, last, perSave, saveMs, meanBlock } = await saveAll(
    serverRoutes(atelier),
    size,
    saves,
  );
  const storageDir = join(atelier.dataDir, 'storage');
  const written = await bytesUnder(storageDir);
  // The background work the saves leave, run now: the packer compresses the blocks only versions
  // name, and collection deletes their old objects (due an hour after, when no read can be using them).
  const packed = await settleBlocks(atelier);
  const stored = await bytesUnder(storageDir);
  const versions = await api<{ data: { id: string; attributes: { current: boolean; size: number } }[] }>(
    atelier,
    `/api/files/${fileId}/versions`,
  );
  if (versions.data.length !== saves)
    throw new Error(`${versions.data.length} versions listed, ${saves} saved`);

  // The first save, now the oldest version, becomes the file's bytes again.
  const oldest = versions.data.at(-1)!;
  const restoreStarted = performance.now();
  await api(atelier, `/api/files/${fileId}/versions/${oldest.id}/restore`, { method: 'POST' });
  const restoreMs = performance.now() - restoreStarted;
  if ((await download(atelier, [`/file/${fileId}`], { hash: true })).sha256 !== firstHash)
    throw new Error('the restored bytes are not those of the first save');
  // The same bytes from a plain file, read in turn with the restored file by the same client: first
  // as the restore left its blocks (compressed, as only a version named them), then once the packer
  // stored them as they are.
  await writeFile(plainFile, original);
  const readBack = async () => {
    const readMs: number[] = [];
    const plainMs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      readMs.push((await download(atelier, [`/file/${fileId}`])).ms);
      plainMs.push((await download(atelier, [PLAIN_PATH])).ms);
    }
    const [read, plain] = [median(readMs), median(plainMs)];
    return `${rate(size, read)} = ${(plain / read).toFixed(2)}x the same bytes from a plain file (${rate(size, plain)})`;
  };
  const beforeExpand = await readBack();
  const expanded = await settleBlocks(atelier);
  if ((await download(atelier, [`/file/${fileId}`], { hash: true })).sha256 !== firstHash)
    throw new Error('the restored bytes changed when their blocks were expanded');
  const afterExpand = await readBack();

  console.log(
    `versions: ${saves} saves of a ${(size / MB).toFixed(0)} MB CAD-like file, each changing 1 % in three places:` +
      ` blocks on disk ${(stored / MB).toFixed(0)} MB = ${(stored / size).toFixed(2)}x the file (goal <= 2x;` +
      ` measured on disk once the packer compressed the ${packed.run.packed} blocks only versions name in ${(packed.ms / 1000).toFixed(1)} s` +
      ` (${packed.run.kept} kept as they are), ${(written / size).toFixed(2)}x before; the file deflates to ${(deflateRawSync(last, { level: 1 }).length / size).toFixed(2)}x);` +
      ` ${sentSummary(perSave, size, meanBlock)};` +
      ` a save takes ${(median(saveMs) / 1000).toFixed(2)} s (median; the client's cutting and hashing of the whole file took ${(firstHashMs / 1000).toFixed(2)} s of the first save);` +
      ` restore of the first save ${restoreMs.toFixed(0)} ms (goal <= 1000 ms);` +
      ` its ${mib(size)} read back over HTTP (median of ${rounds}) at ${beforeExpand} as the restore left it,` +
      ` at ${afterExpand} once the packer stored its ${expanded.run.expanded} compressed blocks as they are (${(expanded.ms / 1000).toFixed(1)} s)`,
  );
}

/** Each contestant starts with no dirty pages of the one before still being written back. */
const flushDisk = () => execFileSync('sync');

/**
 * New data: the same random bytes, never seen by either server, sent by the chunk form and by
 * @tus/server's file store in turn (which goes first alternates by round), then by the delta upload
 * in rounds of its own. Every contestant starts after `sync` (the saves before wrote gigabytes that
 * would otherwise be written back while one of them runs) and its file is deleted after it, so each
 * writes into the same page cache; the bytes are one buffer filled anew each round, so no round
 * leaves a 200 MB buffer to be collected (and its pages unmapped) in the first upload of the next,
 * which cost that upload 2-4x the CPU. Client and server share this process for both, so its CPU
 * time over an upload is what the upload cost, client included; medians of the rounds.
 */
async function newData(atelier: BenchApp, size: number, rounds: number, deltaRounds: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'atelier-bench-versions-'));
  type Contestant = 'tus' | 'chunkForm' | 'delta';
  const times: Record<Contestant, number[]> = { tus: [], chunkForm: [], delta: [] };
  const cpu: Record<Contestant, number[]> = { tus: [], chunkForm: [], delta: [] };
  const deltaHash: number[] = [];
  /** `work` may call `done` when the upload is answered, before its own cleaning up (not counted). */
  const measured = async (who: Contestant, work: (done: () => void) => Promise<number>) => {
    flushDisk();
    const before = process.cpuUsage();
    let used: NodeJS.CpuUsage | null = null;
    const ms = await work(() => (used ??= process.cpuUsage(before)));
    used ??= process.cpuUsage(before);
    times[who].push(ms);
    cpu[who].push((used.user + used.system) / 1000);
  };
  const tus = (bytes: Buffer) => measured('tus', () => tusUpload(join(dir, 'tus'), bytes, size));
  const chunkForm = (bytes: Buffer) =>
    measured('chunkForm', (done) => atelierUpload(atelier, bytes, size, async () => done()));
  try {
    // Not counted: a first upload of each (8 chunks) warms the code paths (tus's server is new every round).
    const warmUp = randomBytes(64 * MiB);
    await tusUpload(join(dir, 'tus'), warmUp, warmUp.length);
    await rm(join(dir, 'tus'), { recursive: true });
    await atelierUpload(atelier, warmUp, warmUp.length);
    // One buffer, filled with new random bytes each round: no round leaves the next a buffer to collect.
    const fresh = Buffer.allocUnsafe(size);
    for (let round = 0; round < rounds; round++) {
      randomFillSync(fresh);
      for (const send of round % 2 === 0 ? [tus, chunkForm] : [chunkForm, tus]) {
        await send(fresh);
        await rm(join(dir, 'tus'), { recursive: true, force: true });
      }
    }
    // After those rounds: the delta upload copies the file into a Blob, garbage for whatever runs next.
    for (let round = 0; round < deltaRounds; round++) {
      randomFillSync(fresh);
      await measured('delta', async () => {
        const saved = await save(serverRoutes(atelier), fresh, `new-${round}.bin`, null);
        deltaHash.push(saved.hashMs);
        return saved.totalMs;
      });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const ms = (who: Contestant) => median(times[who]);
  const cpuPerMiB = (who: Contestant) => `${(median(cpu[who]) / (size / MiB)).toFixed(2)} ms`;
  const ratio = (who: Contestant) => (ms('tus') / ms(who)).toFixed(2);
  const perRound = (who: Contestant) => times[who].map((t) => rate(size, t).replace(' MiB/s', '')).join('/');
  console.log(
    `new data, ${mib(size)}, the same bytes for each, median of ${rounds} rounds alternating (MiB/s each round):` +
      ` tus ${rate(size, ms('tus'))} (${perRound('tus')}), CPU ${cpuPerMiB('tus')} per MiB;` +
      ` chunk form ${rate(size, ms('chunkForm'))} (${perRound('chunkForm')}), CPU ${cpuPerMiB('chunkForm')} per MiB` +
      ` -> ${ratio('chunkForm')}x tus (goal >= 1.2x);` +
      ` delta upload (median of ${times.delta.length}) ${rate(size, ms('delta'))}, CPU ${cpuPerMiB('delta')} per MiB` +
      ` (hashing in the client ${(median(deltaHash) / 1000).toFixed(2)} s of ${(ms('delta') / 1000).toFixed(2)} s) -> ${ratio('delta')}x tus;` +
      ` CPU is this process's, client and server`,
  );
}

/**
 * BENCH_VERSIONS_REPLAY=1: the same saves, cut, hashed and sent by the same client code, to a block
 * store in memory instead of the server: what each save sends and what its blocks take, uncompressed,
 * in a fraction of the time (to weigh the chunker's parameters).
 */
async function replaySaves(size: number, saves: number): Promise<void> {
  const routes = memoryRoutes();
  const { perSave, meanBlock } = await saveAll(routes, size, saves);
  const held = [...routes.held.values()].reduce((a, b) => a + b, 0);
  console.log(
    `versions replay (no server): ${saves} saves of a ${(size / MB).toFixed(0)} MB CAD-like file, each changing 1 % in three places:` +
      ` blocks held ${(held / size).toFixed(2)}x the file uncompressed; ${sentSummary(perSave, size, meanBlock)}`,
  );
}

export async function run(): Promise<void> {
  const size = Math.round(Number(process.env.BENCH_VERSIONS_MB ?? 200) * MB);
  const saves = Number(process.env.BENCH_VERSIONS_SAVES ?? 100);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  // Even, so that each of the two goes first as often as the other.
  const newRounds = Number(process.env.BENCH_VERSIONS_NEW_ROUNDS ?? 2 * Math.max(Math.ceil(rounds / 2), 3));
  if (process.env.BENCH_VERSIONS_REPLAY === '1') return replaySaves(size, saves);
  let plainFile = '';
  const atelier = await startAtelier({ chunk_size: 8 * MiB }, {}, (app) =>
    app.get(PLAIN_PATH, (_request, reply) =>
      // As local storage reads an object (1 MiB reads).
      reply.header('content-length', size).send(createReadStream(plainFile, { highWaterMark: MiB })),
    ),
  );
  plainFile = join(atelier.dataDir, 'plain-file');
  try {
    if (process.env.BENCH_VERSIONS_ONLY !== 'new')
      await savesAndRestore(atelier, plainFile, size, saves, rounds);
    await newData(atelier, size, newRounds, rounds);
  } finally {
    await atelier.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
