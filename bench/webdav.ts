import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { MiB, mib, rate, startAtelier, type BenchApp } from './lib/atelier-app';
import { folder, seed } from './lib/items';
import { atelierUpload } from './upload';

// WebDAV against the product's own API in the same run, on the same instance:
// - PUT of a 1 GiB file (one streamed request) vs the web client's chunked upload: goal >= 0.9x;
// - GET of it from /dav/ vs /file/{id}: goal >= 0.9x;
// - PROPFIND (depth 1, allprop) of a 10,000-item folder vs its whole JSON listing (20 pages of 500,
//   each built anew): goal <= 2x the time.

const CHUNK = 8 * MiB;
const FOLDER_ITEMS = 10_000;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request whose body is `total` bytes of `chunk` repeated, streamed; resolves with status and the drained body's size. */
function request(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: { chunk: Buffer; total: number },
): Promise<{ status: number; bytes: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      url,
      { method, agent, headers: { ...headers, ...(body ? { 'content-length': String(body.total) } : {}) } },
      (response) => {
        let bytes = 0;
        const head: Buffer[] = [];
        response.on('data', (data: Buffer) => {
          bytes += data.length;
          if (bytes <= 64 * 1024) head.push(data);
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, bytes, text: Buffer.concat(head).toString() }),
        );
      },
    );
    outgoing.on('error', reject);
    void (async () => {
      for (let sent = 0; body && sent < body.total; sent += body.chunk.length) {
        if (!outgoing.write(body.chunk.subarray(0, Math.min(body.chunk.length, body.total - sent))))
          await new Promise((r) => outgoing.once('drain', r));
      }
      outgoing.end();
    })();
  });
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(): Promise<void> {
  const total = Number(process.env.BENCH_UPLOAD_MIB ?? 1024) * MiB;
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const chunk = randomBytes(CHUNK);
  const atelier: BenchApp = await startAtelier({ chunk_size: CHUNK });
  const { password } = await atelier.app.deps.appPasswords.create(atelier.userId, { name: 'bench' });
  const email = (await atelier.app.deps.users.findById(atelier.userId))!.email;
  const dav = { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` };
  const times = {
    put: [] as number[],
    chunked: [] as number[],
    davGet: [] as number[],
    apiGet: [] as number[],
  };
  const listing = { propfind: [] as number[], json: [] as number[] };
  try {
    // Rounds interleave the contestants so a noisy neighbour on the machine hurts them alike.
    for (let round = 0; round < rounds; round++) {
      times.chunked.push(await atelierUpload(atelier, chunk, total));
      const put = await timed(() =>
        request(`${atelier.url}/dav/files/bench.bin`, 'PUT', dav, { chunk, total }),
      );
      if (put.value.status !== 201 && put.value.status !== 204)
        throw new Error(`PUT answered ${put.value.status}`);
      times.put.push(put.ms);
      const id = (
        await atelier.app.deps.database.db
          .selectFrom('items')
          .select('id')
          .where('user_id', '=', atelier.userId)
          .where('name', '=', 'bench.bin')
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).id;
      const apiGetting = () => timed(() => request(`${atelier.url}/file/${id}`, 'GET', atelier.headers));
      const davGetting = () => timed(() => request(`${atelier.url}/dav/files/bench.bin`, 'GET', dav));
      // Each goes first every other round: the first read may find fewer of the file's pages cached.
      let apiGet: Awaited<ReturnType<typeof apiGetting>>;
      let davGet: Awaited<ReturnType<typeof davGetting>>;
      if (round % 2 === 0) {
        apiGet = await apiGetting();
        davGet = await davGetting();
      } else {
        davGet = await davGetting();
        apiGet = await apiGetting();
      }
      if (apiGet.value.bytes !== total || davGet.value.bytes !== total)
        throw new Error('a download came short');
      times.apiGet.push(apiGet.ms);
      times.davGet.push(davGet.ms);
    }

    const big = await folder(atelier, 'big');
    await seed(atelier, big, 'file', FOLDER_ITEMS, 0xbe);
    /** A write in the folder moves the listing version, so the API's listing cache serves nothing old. */
    const touch = async () => {
      const put = await request(`${atelier.url}/dav/files/big/touch.txt`, 'PUT', dav, {
        chunk: randomBytes(16),
        total: 16,
      });
      if (put.status !== 201 && put.status !== 204) throw new Error(`touch answered ${put.status}`);
    };
    for (let round = 0; round < rounds; round++) {
      await touch();
      const propfind = await timed(() =>
        request(`${atelier.url}/dav/files/big/`, 'PROPFIND', { ...dav, depth: '1' }),
      );
      if (propfind.value.status !== 207) throw new Error(`PROPFIND answered ${propfind.value.status}`);
      listing.propfind.push(propfind.ms);
      await touch();
      const json = await timed(async () => {
        for (let page = 1; page <= Math.ceil((FOLDER_ITEMS + 1) / 500); page++) {
          const res = await request(
            `${atelier.url}/api/browse/folders/${big}?sort=name&direction=asc&per_page=500&page=${page}`,
            'GET',
            atelier.headers,
          );
          if (res.status !== 200) throw new Error(`listing answered ${res.status}`);
        }
      });
      listing.json.push(json.ms);
    }

    const [put, chunked, davGet, apiGet] = [times.put, times.chunked, times.davGet, times.apiGet].map(
      median,
    ) as [number, number, number, number];
    const [propfind, json] = [median(listing.propfind), median(listing.json)];
    console.log(
      `webdav ${mib(total)}, median of ${rounds}: PUT ${rate(total, put)} vs chunked upload ${rate(total, chunked)}` +
        ` -> ${(chunked / put).toFixed(2)}x (goal >= 0.9); GET ${rate(total, davGet)} vs /file/{id} ${rate(total, apiGet)}` +
        ` -> ${(apiGet / davGet).toFixed(2)}x (goal >= 0.9); PROPFIND of ${FOLDER_ITEMS} items ${propfind.toFixed(0)} ms` +
        ` vs the JSON listing of the whole folder ${json.toFixed(0)} ms -> ${(propfind / json).toFixed(2)}x the time (goal <= 2)` +
        ` (${atelier.app.deps.database.dialect})`,
    );
  } finally {
    await atelier.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
