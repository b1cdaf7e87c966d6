import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { zipStream, type ZipEntry } from '../src/lib/zip-stream';

/** The archive's bytes as pieces at their offsets; a run of `zeros` is kept by length alone. */
interface Piece {
  start: number;
  data: Buffer | null;
  length: number;
}

async function collect(archive: Readable, zeros?: Buffer): Promise<{ pieces: Piece[]; size: number }> {
  const pieces: Piece[] = [];
  let size = 0;
  for await (const chunk of archive as AsyncIterable<Buffer>) {
    pieces.push({ start: size, data: chunk === zeros ? null : Buffer.from(chunk), length: chunk.length });
    size += chunk.length;
  }
  return { pieces, size };
}

/** yauzl, an independent reader, over the collected pieces (zero runs made up as they are read). */
function open({ pieces, size }: { pieces: Piece[]; size: number }): Promise<yauzl.ZipFile> {
  const Reader = yauzl.RandomAccessReader as unknown as new () => yauzl.RandomAccessReader;
  const reader = new Reader();
  (reader as unknown as { _readStreamForRange(start: number, end: number): Readable })._readStreamForRange = (
    start,
    end,
  ) => {
    const bytes = Buffer.alloc(end - start);
    for (const piece of pieces) {
      if (!piece.data || piece.start + piece.length <= start || piece.start >= end) continue;
      const from = Math.max(start, piece.start);
      piece.data.copy(
        bytes,
        from - start,
        from - piece.start,
        Math.min(end, piece.start + piece.length) - piece.start,
      );
    }
    return Readable.from([bytes]);
  };
  return new Promise((resolve, reject) =>
    yauzl.fromRandomAccessReader(reader, size, { lazyEntries: true }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    ),
  );
}

/** Every entry, with the bytes of those `read` picks (all by default). */
async function readAll(zip: yauzl.ZipFile, read: (entry: yauzl.Entry) => boolean = () => true) {
  const entries: { entry: yauzl.Entry; data: Buffer | null }[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      if (!read(entry) || entry.fileName.endsWith('/')) {
        entries.push({ entry, data: null });
        return zip.readEntry();
      }
      zip.openReadStream(entry, async (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        entries.push({ entry, data: Buffer.concat(chunks) });
        zip.readEntry();
      });
    });
    zip.readEntry();
  });
  return entries;
}

const file = (name: string, data: Buffer, compress: boolean, modifiedAt = new Date()): ZipEntry => ({
  kind: 'file',
  name,
  modifiedAt,
  size: data.length,
  compress,
  open: async () => Readable.from([data.subarray(0, 1000), data.subarray(1000)]),
});

describe('zipStream', () => {
  it('writes folders, stored and deflated files that an independent reader opens byte for byte', async () => {
    const photo = randomBytes(300_000);
    const notes = Buffer.from('Ring sizes and stones. '.repeat(20_000));
    const when = new Date('2026-03-14T15:09:26Z');
    const archive = await collect(
      zipStream([
        { kind: 'folder', name: 'Atelier', modifiedAt: when },
        file('Atelier/photo.jpg', photo, false, when),
        file('Atelier/notes – été.txt', notes, true, when),
        file('empty.txt', Buffer.alloc(0), true, when),
      ]),
    );
    const entries = await readAll(await open(archive));
    expect(entries.map((e) => e.entry.fileName)).toEqual([
      'Atelier/',
      'Atelier/photo.jpg',
      'Atelier/notes – été.txt',
      'empty.txt',
    ]);
    const [folder, stored, deflated, empty] = entries.map((e) => e.entry);
    expect(entries[1]!.data!.equals(photo)).toBe(true);
    expect(entries[2]!.data!.equals(notes)).toBe(true);
    expect(entries[3]!.data!.length).toBe(0);
    expect(stored!.compressionMethod).toBe(0);
    expect(deflated!.compressionMethod).toBe(8);
    expect(deflated!.compressedSize).toBeLessThan(notes.length / 20);
    expect(stored!.crc32).toBe(crc32(photo));
    expect(deflated!.crc32).toBe(crc32(notes));
    expect(empty!.crc32).toBe(0);
    // Unix modes, so unzip makes a folder and a plain readable file.
    expect(folder!.externalFileAttributes >>> 16).toBe(0o40755);
    expect(stored!.externalFileAttributes >>> 16).toBe(0o100644);
    // DOS fields (2 s steps) and the exact UTC second in the extended timestamp.
    expect(stored!.lastModFileDate).toBe(((2026 - 1980) << 9) | (3 << 5) | 14);
    expect(stored!.lastModFileTime).toBe((15 << 11) | (9 << 5) | 13);
    const stamp = stored!.extraFields.find((field) => field.id === 0x5455);
    expect(stamp?.data.readUInt32LE(1)).toBe(when.getTime() / 1000);
  });

  it('writes ZIP64 records for a file past 4 GiB and the entries after it', async () => {
    const MiB = 1024 * 1024;
    const zeros = Buffer.alloc(MiB);
    const big = 4 * 1024 * MiB + MiB;
    const tail = randomBytes(1000);
    const archive = await collect(
      zipStream([
        {
          kind: 'file',
          name: 'scan.raw',
          modifiedAt: new Date(),
          size: big,
          compress: false,
          open: async () =>
            Readable.from(
              (function* () {
                for (let sent = 0; sent < big; sent += MiB) yield zeros;
              })(),
            ),
        },
        file('after.bin', tail, false),
      ]),
      zeros,
    );
    expect(archive.size).toBeGreaterThan(big);
    const entries = await readAll(await open(archive), (entry) => entry.fileName === 'after.bin');
    const [scan, after] = entries;
    expect(scan!.entry.uncompressedSize).toBe(big);
    expect(scan!.entry.compressedSize).toBe(big);
    expect(after!.entry.relativeOffsetOfLocalHeader).toBeGreaterThan(0xffffffff);
    expect(after!.data!.equals(tail)).toBe(true);
  }, 60_000);

  it('closes the open file when the reader goes away mid-zip', async () => {
    const source = Readable.from(
      (function* () {
        for (;;) yield randomBytes(64 * 1024);
      })(),
    );
    const archive = zipStream([
      {
        kind: 'file',
        name: 'endless.bin',
        modifiedAt: new Date(),
        size: 1,
        compress: false,
        open: async () => source,
      },
    ]);
    for await (const chunk of archive) {
      expect(chunk).toBeInstanceOf(Buffer);
      break;
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.destroyed).toBe(true);
  });

  it('fails the zip when a file cannot be read, instead of ending it as if complete', async () => {
    const archive = zipStream([
      {
        kind: 'file',
        name: 'broken.txt',
        modifiedAt: new Date(),
        size: 10,
        compress: true,
        open: async () =>
          new Readable({
            read() {
              this.destroy(new Error('disk gone'));
            },
          }),
      },
    ]);
    await expect(collect(archive)).rejects.toThrow('disk gone');
  });
});
