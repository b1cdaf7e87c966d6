import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { promisify } from 'node:util';
import { MiB, mib, rate, startAtelier, type BenchApp } from './lib/atelier-app';
import { atelierUpload } from './upload';

// The sync clients against the same instance in the same run:
// - nextcloudcmd uploading 10,000 files of 10 KB (it sends them by bulk upload, 100 to a POST) vs
//   rclone's plain WebDAV (`rclone copy --transfers 8`, a PUT a file): goal nextcloudcmd >= 2x faster;
// - nextcloudcmd syncing a 1 GiB file up (chunked upload) vs the web client's chunk form: the ratio
//   of their times.

const exec = promisify(execFile);
const SMALL_FILES = Number(process.env.BENCH_SYNC_FILES ?? 10_000);
const SMALL_BYTES = 10 * 1000;
const BIG_BYTES = Number(process.env.BENCH_SYNC_BIG_MIB ?? 1024) * MiB;
const CHUNK = 8 * MiB;

/** A xorshift32 stream: the same bytes every run, which no compressor or dedup shrinks. */
function* noise(seed: number, bytes: number): Generator<Buffer> {
  let x = seed | 0 || 1;
  for (let left = bytes; left > 0;) {
    const piece = Buffer.alloc(Math.min(MiB, left));
    for (let i = 0; i + 4 <= piece.length; i += 4) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      piece.writeInt32LE(x, i);
    }
    left -= piece.length;
    yield piece;
  }
}

async function writeNoise(path: string, seed: number, bytes: number): Promise<void> {
  const out = createWriteStream(path);
  for (const piece of noise(seed, bytes)) if (!out.write(piece)) await once(out, 'drain');
  out.end();
  await finished(out);
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export async function run(): Promise<void> {
  const atelier: BenchApp = await startAtelier({ chunk_size: CHUNK });
  const work = await mkdtemp(join(tmpdir(), 'atelier-bench-sync-'));
  const loadBefore = loadavg()[0]!;
  try {
    const { password } = await atelier.app.deps.appPasswords.create(atelier.userId, { name: 'bench' });
    const email = (await atelier.app.deps.users.findById(atelier.userId))!.email;
    const auth = `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
    const mkcol = async (name: string) => {
      const made = await fetch(`${atelier.url}/remote.php/dav/files/${email}/${name}`, {
        method: 'MKCOL',
        headers: { authorization: auth },
      });
      if (made.status !== 201) throw new Error(`MKCOL ${name} answered ${made.status}`);
    };
    const requests: string[] = [];
    atelier.app.server.on('request', (request: { method?: string; url?: string }) =>
      requests.push(`${request.method} ${request.url}`),
    );
    const nextcloudcmd = (folder: string, remote: string) =>
      exec(
        'nextcloudcmd',
        [
          '--non-interactive',
          '--max-sync-retries',
          '1',
          '--path',
          `/${remote}`,
          '-u',
          email,
          '-p',
          password,
          folder,
          atelier.url,
        ],
        { maxBuffer: 512 * MiB },
      );
    const { stdout: obscured } = await exec('rclone', ['obscure', password]);
    const rclone = (folder: string, remote: string) =>
      exec(
        'rclone',
        [
          'copy',
          folder,
          `:webdav,url='${atelier.url}/remote.php/dav/files/${email}/',vendor=other,user='${email}',pass='${obscured.trim()}':${remote}`,
          '--transfers',
          '8',
          '--checkers',
          '8',
          '--config',
          '/dev/null',
        ],
        { maxBuffer: 64 * MiB },
      );

    // ---- 10,000 small files -------------------------------------------------------------------
    const small = join(work, 'small');
    for (let i = 0; i < SMALL_FILES; i++) {
      const folder = join(small, `dir-${i % 10}`);
      if (i < 10) await mkdir(folder, { recursive: true });
      await writeFile(join(folder, `file-${i}.bin`), Buffer.concat([...noise(i + 1, SMALL_BYTES)]));
    }
    await mkcol('by-rclone');
    await mkcol('by-nextcloudcmd');
    const rcloneMs = await timed(() => rclone(small, 'by-rclone'));
    const before = requests.length;
    const nextcloudMs = await timed(() => nextcloudcmd(small, 'by-nextcloudcmd'));
    const sent = requests.slice(before);
    const bulkPosts = sent.filter((r) => r === 'POST /remote.php/dav/bulk').length;
    const plainPuts = sent.filter((r) => r.startsWith('PUT /remote.php/dav/files/')).length;
    const stored = await atelier.app.deps.database.db
      .selectFrom('items')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', atelier.userId)
      .where('type', '=', 'file')
      .executeTakeFirstOrThrow();
    if (Number(stored.count) !== 2 * SMALL_FILES)
      throw new Error(`${stored.count} files stored, ${2 * SMALL_FILES} expected`);

    // ---- one 1 GiB file -----------------------------------------------------------------------
    const big = join(work, 'big');
    await mkdir(big);
    await writeNoise(join(big, 'scan.bin'), 7, BIG_BYTES);
    await mkcol('big');
    const beforeBig = requests.length;
    const chunkedMs = await timed(() => nextcloudcmd(big, 'big'));
    const chunkPuts = requests
      .slice(beforeBig)
      .filter((r) => r.startsWith('PUT /remote.php/dav/uploads/')).length;
    const webMs = await atelierUpload(atelier, randomBytes(CHUNK), BIG_BYTES);

    console.log(
      `sync ${SMALL_FILES} files of ${SMALL_BYTES / 1000} KB: nextcloudcmd ${(nextcloudMs / 1000).toFixed(1)} s ` +
        `(${bulkPosts} bulk POSTs, ${plainPuts} PUTs) vs rclone copy --transfers 8 ${(rcloneMs / 1000).toFixed(1)} s ` +
        `-> ${(rcloneMs / nextcloudMs).toFixed(2)}x faster (goal >= 2)`,
    );
    console.log(
      `sync ${mib(BIG_BYTES)}: nextcloudcmd (chunked upload, ${chunkPuts} chunks) ${rate(BIG_BYTES, chunkedMs)} ` +
        `(${(chunkedMs / 1000).toFixed(1)} s, the client's hashing and discovery included) vs the web upload ` +
        `${rate(BIG_BYTES, webMs)} -> ${(chunkedMs / webMs).toFixed(2)}x its time`,
    );
    console.log(
      `machine: ${cpus().length} cores, load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`,
    );
  } finally {
    await atelier.close();
    await rm(work, { recursive: true, force: true });
  }
}
