import { FileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { MiB, mib, rate, sampleRss, startAtelier, type BenchApp } from './lib/atelier-app';

// Upload: one large file through POST /api/upload/chunks, against @tus/server with its file store
// on the same machine and against a raw disk write of the same bytes. Goals: ≥ 1.3× tus, ≥ 90 % of raw.

const CHUNK = 8 * MiB;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function send(
  url: string,
  method: string,
  headers: Record<string, string | number>,
  body: Buffer[],
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const length = body.reduce((n, b) => n + b.length, 0);
    const request = http.request(
      url,
      { method, agent, headers: { ...headers, 'content-length': length } },
      (response) => {
        const received: Buffer[] = [];
        response.on('data', (data: Buffer) => received.push(data));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(received).toString() }),
        );
      },
    );
    request.on('error', reject);
    for (const piece of body) request.write(piece);
    request.end();
  });
}

async function rawWrite(dir: string, chunk: Buffer, total: number): Promise<number> {
  const started = performance.now();
  const out = createWriteStream(join(dir, 'raw.bin'));
  for (let sent = 0; sent < total; sent += chunk.length) {
    if (!out.write(chunk.subarray(0, Math.min(chunk.length, total - sent)))) await once(out, 'drain');
  }
  out.end();
  await finished(out);
  return performance.now() - started;
}

/**
 * The piece of the upload that starts at `offset`: `source` is either the whole file (sent in chunks
 * of CHUNK bytes) or one chunk sent again and again.
 */
function pieceAt(source: Buffer, offset: number, total: number): Buffer {
  if (source.length >= total) return source.subarray(offset, Math.min(offset + CHUNK, total));
  return source.subarray(0, Math.min(source.length, total - offset));
}

/** Sends `total` bytes of `source` (see pieceAt) to @tus/server with its file store in `dir`. */
export async function tusUpload(dir: string, source: Buffer, total: number): Promise<number> {
  const tus = new TusServer({ path: '/files', datastore: new FileStore({ directory: dir }) });
  const server = http.createServer((req, res) => void tus.handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const started = performance.now();
    const created = await fetch(`${base}/files`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': String(total) },
    });
    const location = new URL(created.headers.get('location')!, base).toString();
    for (let offset = 0; offset < total;) {
      const piece = pieceAt(source, offset, total);
      const { status } = await send(
        location,
        'PATCH',
        {
          'tus-resumable': '1.0.0',
          'upload-offset': offset,
          'content-type': 'application/offset+octet-stream',
        },
        [piece],
      );
      if (status !== 204) throw new Error(`tus answered ${status}`);
      offset += piece.length;
    }
    return performance.now() - started;
  } finally {
    server.close();
  }
}

/**
 * Sends `total` bytes of `source` (see pieceAt) through POST /api/upload/chunks with the fields the
 * web client sends (upload-queue.ts: the chunk's offset too), then deletes the file for the next round; `filed` runs on the filed file before it goes, outside the
 * time measured.
 */
export async function atelierUpload(
  atelier: BenchApp,
  source: Buffer,
  total: number,
  filed?: (fileId: string) => Promise<void>,
): Promise<number> {
  const key = `${randomBytes(8).toString('hex')}-bench.bin.part`;
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const started = performance.now();
  let fileId = '';
  for (let offset = 0, piece: Buffer; offset < total; offset += piece.length) {
    piece = pieceAt(source, offset, total);
    const last = offset + piece.length >= total;
    const head = Buffer.from(
      field('name', 'bench.bin') +
        field('extension', 'bin') +
        field('is_last_chunk', last ? '1' : '0') +
        field('offset', String(offset)) +
        `--${boundary}\r\nContent-Disposition: form-data; name="chunk"; filename="${key}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const answer = await send(
      `${atelier.url}/api/upload/chunks`,
      'POST',
      {
        ...atelier.headers,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      [head, piece, tail],
    );
    if (answer.status !== (last ? 201 : 204)) throw new Error(`Atelier answered ${answer.status}`);
    if (last) fileId = (JSON.parse(answer.body) as { data: { id: string } }).data.id;
  }
  const ms = performance.now() - started;
  await filed?.(fileId);
  const removed = await fetch(`${atelier.url}/api/remove`, {
    method: 'POST',
    headers: { ...atelier.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ items: [{ id: fileId, type: 'file', force_delete: true }] }),
  });
  if (removed.status !== 204) throw new Error(`remove answered ${removed.status}`);
  return ms;
}

/** Each contestant starts with no dirty pages of the previous one still being written back. */
function flushDisk(): void {
  execFileSync('sync');
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(): Promise<void> {
  const total = Number(process.env.BENCH_UPLOAD_MIB ?? 1024) * MiB;
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const chunk = randomBytes(CHUNK);
  const dir = await mkdtemp(join(tmpdir(), 'atelier-bench-upload-'));
  const atelier = await startAtelier({ chunk_size: CHUNK });
  const times = { raw: [] as number[], tus: [] as number[], atelier: [] as number[] };
  const cpu = { tus: 0, atelier: 0 };
  /** CPU time is far less disturbed by other load on the machine than wall-clock time. */
  /** `work` may call `done` once the upload is answered, before its own cleaning up (not counted). */
  const measured = async (into: keyof typeof cpu, work: (done: () => void) => Promise<number>) => {
    const before = process.cpuUsage();
    let used: NodeJS.CpuUsage | null = null;
    const ms = await work(() => (used ??= process.cpuUsage(before)));
    used ??= process.cpuUsage(before);
    cpu[into] += (used.user + used.system) / 1000;
    return ms;
  };
  try {
    global.gc?.();
    const baseRss = process.memoryUsage.rss();
    const rss = sampleRss();
    // Rounds interleave the contestants so a noisy neighbour on the machine hurts them alike.
    for (let round = 0; round < rounds; round++) {
      flushDisk();
      times.raw.push(await rawWrite(dir, chunk, total));
      await rm(join(dir, 'raw.bin'));
      flushDisk();
      times.tus.push(await measured('tus', () => tusUpload(join(dir, 'tus'), chunk, total)));
      await rm(join(dir, 'tus'), { recursive: true });
      flushDisk();
      times.atelier.push(
        await measured('atelier', (done) => atelierUpload(atelier, chunk, total, async () => done())),
      );
    }
    const peakRss = rss.stop();
    // The job each filed upload enqueues (its bytes become blocks) runs in a worker, which this
    // bench's instance has none of: a server with one does that work after the answer, timed here
    // apart on one more upload's file.
    let blockifyMs = 0;
    await atelierUpload(atelier, chunk, total, async (fileId) => {
      const { storage_key: key } = (await atelier.app.deps.items.findFile(fileId))!;
      const started = performance.now();
      await atelier.app.deps.blockifier.blockify(key!);
      blockifyMs = performance.now() - started;
    });
    const [raw, tus, ours] = [median(times.raw), median(times.tus), median(times.atelier)];
    const chunks = Math.ceil(total / CHUNK);
    const result = {
      size: mib(total),
      rounds,
      raw: rate(total, raw),
      tus: rate(total, tus),
      atelier: rate(total, ours),
      ratioToTus: +(tus / ours).toFixed(2),
      ratioToRaw: +(raw / ours).toFixed(2),
      blockify: rate(total, blockifyMs),
      cpuPerChunk: {
        tus: `${(cpu.tus / rounds / chunks).toFixed(1)} ms`,
        atelier: `${(cpu.atelier / rounds / chunks).toFixed(1)} ms`,
      },
      cpuPerGiB: {
        tus: `${(cpu.tus / rounds / (total / 1024 / MiB) / 1000).toFixed(2)} s`,
        atelier: `${(cpu.atelier / rounds / (total / 1024 / MiB) / 1000).toFixed(2)} s`,
      },
      peakRss: mib(peakRss),
      rssGrowth: mib(Math.max(0, peakRss - baseRss)),
    };
    console.log(
      `upload ${result.size} in ${CHUNK / MiB} MiB chunks, median of ${rounds}: raw disk ${result.raw}, tus ${result.tus}, Atelier ${result.atelier}` +
        ` -> ${result.ratioToTus}x tus (goal >= 1.3), ${Math.round(result.ratioToRaw * 100)} % of raw (goal >= 90 %);` +
        ` CPU per ${CHUNK / MiB} MiB chunk (client included): tus ${result.cpuPerChunk.tus}, Atelier ${result.cpuPerChunk.atelier};` +
        ` per GiB: tus ${result.cpuPerGiB.tus}, Atelier ${result.cpuPerGiB.atelier};` +
        ` peak RSS ${result.peakRss} (+${result.rssGrowth} while uploading ${rounds} x ${result.size}, client buffers included);` +
        ` not in Atelier's time: the blockify job each upload enqueues, run apart on a filed file afterwards, ${result.blockify}`,
    );
  } finally {
    await atelier.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
