import { randomBytes, randomUUID } from 'node:crypto';
import { ownerActor } from '../apps/server/src/modules/files/files.access';
import { newStorageKey } from '../apps/server/src/storage/storage';
import { MiB, mib, rate, sampleRss, startAtelier, type BenchApp } from './lib/atelier-app';
import { download } from './lib/download-client';

// Zip: GET /api/zip of a tree of mixed files against a raw read of the same bytes: the same files
// downloaded as they are (GET /file/:id one after another, by the same kind of client), and, as the
// machine's ceiling, the objects read from storage in-process with no network at all.
// Goals: >= 80 % of the raw download's speed, first byte <= 50 ms, memory flat.
// Range: 1 MiB ranges at random offsets of the files (GET /file/:id with a Range header), as a player
// or a resumed download asks, against the same bytes read in-process.
// BENCH_BLOCKS=1 stores the files as blocks first (the block store's layout, issue 24): every read
// goes through the content reader either way, so the two runs compare the layouts.

/** Photos and videos (random bytes, stored as they are) with some text documents (deflated). */
async function seedTree(
  atelier: BenchApp,
  total: number,
): Promise<{ folderId: string; keys: string[]; ids: string[] }> {
  const { files, storage } = atelier.app.deps;
  const store = await storage.current();
  const db = atelier.app.deps.database.db;
  const root = await files.insertFolder(ownerActor(atelier.userId), null, 'Zip bench');
  const folders = [root.id];
  for (let i = 0; i < 4; i++)
    folders.push(
      (await files.insertFolder(ownerActor(atelier.userId), folders[i % folders.length]!, `Album ${i}`)).id,
    );
  const media = randomBytes(32 * MiB);
  const text = Buffer.from('Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(64 * 1024));
  const keys: string[] = [];
  const ids: string[] = [];
  for (let placed = 0, n = 0; placed < total; n++) {
    const isText = n % 10 === 9;
    const size = Math.min(total - placed, isText ? 2 * MiB : (n % 4) * 8 * MiB + 4 * MiB);
    const source = isText ? text : media;
    const key = newStorageKey();
    await store.put(key, source.subarray(0, Math.min(size, source.length)));
    const now = new Date().toISOString();
    const contentId = randomUUID();
    await db
      .insertInto('file_contents')
      .values({
        id: contentId,
        user_id: atelier.userId,
        storage_key: key,
        size: Math.min(size, source.length),
        mimetype: isText ? 'text/plain' : 'image/jpeg',
        sha256: null,
        author_id: atelier.userId,
        created_at: now,
      })
      .execute();
    await db
      .insertInto('items')
      .values({
        id: ids[ids.push(randomUUID()) - 1]!,
        content_id: contentId,
        user_id: atelier.userId,
        parent_id: folders[n % folders.length]!,
        type: 'file',
        name: isText ? `notes-${n}.txt` : `photo-${n}.jpg`,
        sort_name: isText ? `notes-${n}.txt` : `photo-${n}.jpg`,
        mimetype: isText ? 'text/plain' : 'image/jpeg',
        size: Math.min(size, source.length),
        storage_key: key,
        emoji: null,
        color: null,
        deleted_at: null,
        trashed_by: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    keys.push(key);
    placed += Math.min(size, source.length);
  }
  return { folderId: root.id, keys, ids };
}

/** The bytes read in-process, through the content reader (an object, or a content's blocks). */
async function rawRead(
  atelier: BenchApp,
  keys: string[],
  ranges: (k: number) => { start: number; end: number } | undefined = () => undefined,
): Promise<{ ms: number; bytes: number }> {
  const reader = atelier.app.deps.contents;
  const started = performance.now();
  let bytes = 0;
  for (const [index, key] of keys.entries())
    for await (const chunk of await reader.read(key, ranges(index))) bytes += (chunk as Buffer).length;
  return { ms: performance.now() - started, bytes };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(): Promise<void> {
  const total = Number(process.env.BENCH_ZIP_MIB ?? 1024) * MiB;
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const atelier = await startAtelier();
  try {
    const { folderId, keys, ids } = await seedTree(atelier, total);
    const blocks = process.env.BENCH_BLOCKS === '1';
    if (blocks) for (const key of keys) await atelier.app.deps.blockifier.blockify(key);
    // 1 MiB ranges at random offsets, the same ones in every round and both ways of reading.
    const sizes = await Promise.all(
      ids.map(async (id) => Number((await atelier.app.deps.items.findFile(id))!.size)),
    );
    const rangeCount = Number(process.env.BENCH_RANGES ?? 200);
    const picks = Array.from({ length: rangeCount }, (_, n) => {
      const file = n % ids.length;
      const start = Math.floor(Math.random() * Math.max(1, sizes[file]! - MiB));
      return { file, start, end: Math.min(sizes[file]!, start + MiB) - 1 };
    });
    const rangeBytes = picks.reduce((sum, pick) => sum + pick.end - pick.start + 1, 0);
    global.gc?.();
    const baseRss = process.memoryUsage.rss();
    const rss = sampleRss();
    const raw: number[] = [];
    const files: number[] = [];
    const zip: number[] = [];
    const firstByte: number[] = [];
    let zipBytes = 0;
    const rangedRaw: number[] = [];
    const ranged: number[] = [];
    for (let round = 0; round < rounds; round++) {
      rangedRaw.push(
        (
          await rawRead(
            atelier,
            picks.map((pick) => keys[pick.file]!),
            (index) => picks[index],
          )
        ).ms,
      );
      ranged.push(
        (
          await download(
            atelier,
            picks.map((pick) => `/file/${ids[pick.file]}`),
            { ranges: picks.map((pick) => `bytes=${pick.start}-${pick.end}`) },
          )
        ).ms,
      );
      raw.push((await rawRead(atelier, keys)).ms);
      files.push(
        (
          await download(
            atelier,
            ids.map((id) => `/file/${id}`),
          )
        ).ms,
      );
      const zipped = await download(atelier, [`/api/zip?items=${folderId}|folder`]);
      zip.push(zipped.ms);
      firstByte.push(zipped.firstByteMs);
      zipBytes = zipped.bytes;
    }
    const peakRss = rss.stop();
    const result = {
      size: mib(total),
      count: keys.length,
      rounds,
      raw: rate(total, median(raw)),
      files: rate(total, median(files)),
      zip: rate(total, median(zip)),
      ratioToFiles: +(median(files) / median(zip)).toFixed(2),
      ratioToRaw: +(median(raw) / median(zip)).toFixed(2),
      firstByteMs: +median(firstByte).toFixed(1),
      zipSize: mib(zipBytes),
      peakRss: mib(peakRss),
      rssGrowth: mib(Math.max(0, peakRss - baseRss)),
      rangeRaw: rate(rangeBytes, median(rangedRaw)),
      range: rate(rangeBytes, median(ranged)),
      rangeMs: +(median(ranged) / picks.length).toFixed(2),
    };
    console.log(
      `zip of ${result.size} in ${result.count} mixed files, median of ${rounds}: zip ${result.zip}, the same files` +
        ` downloaded raw ${result.files} -> ${Math.round(result.ratioToFiles * 100)} % of the raw download (goal >= 80 %);` +
        ` in-process read through the content reader ${result.raw} (${Math.round(result.ratioToRaw * 100)} %, no network);` +
        ` first byte ${result.firstByteMs} ms (goal <= 50 ms);` +
        ` peak RSS ${result.peakRss} (+${result.rssGrowth} while zipping)`,
    );
    console.log(
      `range: ${picks.length} reads of 1 MiB at random offsets (${blocks ? 'files stored as blocks' : 'files stored as objects'}),` +
        ` median of ${rounds}: over HTTP ${result.range} (${result.rangeMs} ms each), in-process ${result.rangeRaw}`,
    );
  } finally {
    await atelier.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
