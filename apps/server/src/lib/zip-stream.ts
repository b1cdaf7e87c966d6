import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createDeflateRaw } from 'node:zlib';

/** One entry of a streamed zip: a folder, or a file whose bytes are opened when its turn comes. */
export type ZipEntry =
  | { kind: 'folder'; name: string; modifiedAt: Date }
  | {
      kind: 'file';
      name: string;
      modifiedAt: Date;
      /** Size in bytes as recorded; decides whether the entry needs ZIP64 fields up front. */
      size: number;
      /** Deflate at level 1 (text, models); media is stored as it is, which keeps a zip as fast as a read. */
      compress: boolean;
      open(): Promise<Readable>;
    };

const LOCAL_FILE = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_FILE = 0x02014b50;
const ZIP64_END = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const END = 0x06054b50;

const FLAG_DATA_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const STORED = 0;
const DEFLATED = 8;
const VERSION_ZIP64 = 45;
const VERSION_DEFAULT = 20;
/** Made by Unix (high byte 3), so the external attributes carry file modes unzip tools apply. */
const MADE_BY = (3 << 8) | VERSION_ZIP64;
const MAX_32 = 0xffffffff;
const MAX_16 = 0xffff;
/** Entries at least this large get ZIP64 sizes up front: deflate can grow incompressible data a little. */
const ZIP64_FROM = 0xf0000000;

interface Written {
  name: Buffer;
  flags: number;
  method: number;
  dosTime: number;
  dosDate: number;
  unixTime: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
  directory: boolean;
}

/**
 * A zip written as it is read: each file's bytes go out as they come from storage, with their
 * CRC-32 (zlib's native one) and sizes in a data descriptor after them, so nothing is buffered
 * whole, no temporary file is made and the first byte leaves at once. ZIP64 records are written
 * where sizes, offsets or the entry count pass the classic format's limits.
 */
export function zipStream(entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>): Readable {
  // A few large chunks in flight: enough to keep the socket busy while the next read completes.
  return Readable.from(writeZip(entries), { highWaterMark: 4 });
}

async function* writeZip(entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>): AsyncGenerator<Buffer> {
  const written: Written[] = [];
  let offset = 0;
  for await (const entry of entries) {
    const name = Buffer.from(
      entry.kind === 'folder' ? `${entry.name.replace(/\/$/, '')}/` : entry.name,
      'utf8',
    );
    const [dosTime, dosDate] = dosDateTime(entry.modifiedAt);
    const record: Written = {
      name,
      flags: FLAG_UTF8 | (entry.kind === 'file' ? FLAG_DATA_DESCRIPTOR : 0),
      method: entry.kind === 'file' && entry.compress ? DEFLATED : STORED,
      dosTime,
      dosDate,
      unixTime: Math.max(0, Math.floor(entry.modifiedAt.getTime() / 1000)),
      crc: 0,
      compressedSize: 0,
      size: 0,
      offset,
      directory: entry.kind === 'folder',
    };
    const zip64 = entry.kind === 'file' && entry.size >= ZIP64_FROM;
    const header = localHeader(record, zip64);
    offset += header.length;
    yield header;

    if (entry.kind === 'file') {
      const source = await entry.open();
      try {
        const body = record.method === DEFLATED ? deflated(source, record) : stored(source, record);
        for await (const chunk of body) {
          offset += chunk.length;
          yield chunk;
        }
      } finally {
        source.destroy();
      }
      if (!zip64 && (record.size > MAX_32 || record.compressedSize > MAX_32))
        throw new Error(`${entry.name} is larger than its recorded size; the zip would be corrupt`);
      const descriptor = dataDescriptor(record, zip64);
      offset += descriptor.length;
      yield descriptor;
    }
    written.push(record);
  }
  yield* centralDirectory(written, offset);
}

async function* stored(source: Readable, record: Written): AsyncGenerator<Buffer> {
  for await (const chunk of source as AsyncIterable<Buffer>) {
    record.crc = crc32(chunk, record.crc);
    record.size += chunk.length;
    record.compressedSize += chunk.length;
    yield chunk;
  }
}

async function* deflated(source: Readable, record: Written): AsyncGenerator<Buffer> {
  const deflate = createDeflateRaw({ level: 1 });
  const feeding = pipeline(
    source,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        record.crc = crc32(chunk, record.crc);
        record.size += chunk.length;
        yield chunk;
      }
    },
    deflate,
  );
  // An early stop (the client went away) destroys the deflater, which rejects the feeding pipeline.
  feeding.catch(() => {});
  for await (const chunk of deflate as AsyncIterable<Buffer>) {
    record.compressedSize += chunk.length;
    yield chunk;
  }
  await feeding;
}

function localHeader(record: Written, zip64: boolean): Buffer {
  const extra = Buffer.concat([timestampExtra(record), zip64 ? zip64Extra([0, 0]) : Buffer.alloc(0)]);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(LOCAL_FILE, 0);
  header.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_DEFAULT, 4);
  header.writeUInt16LE(record.flags, 6);
  header.writeUInt16LE(record.method, 8);
  header.writeUInt16LE(record.dosTime, 10);
  header.writeUInt16LE(record.dosDate, 12);
  // CRC and sizes follow the data in its descriptor; ZIP64 entries say so with all-ones sizes.
  header.writeUInt32LE(0, 14);
  header.writeUInt32LE(zip64 ? MAX_32 : 0, 18);
  header.writeUInt32LE(zip64 ? MAX_32 : 0, 22);
  header.writeUInt16LE(record.name.length, 26);
  header.writeUInt16LE(extra.length, 28);
  return Buffer.concat([header, record.name, extra]);
}

function dataDescriptor(record: Written, zip64: boolean): Buffer {
  const descriptor = Buffer.alloc(zip64 ? 24 : 16);
  descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0);
  descriptor.writeUInt32LE(record.crc, 4);
  if (zip64) {
    descriptor.writeBigUInt64LE(BigInt(record.compressedSize), 8);
    descriptor.writeBigUInt64LE(BigInt(record.size), 16);
  } else {
    descriptor.writeUInt32LE(record.compressedSize, 8);
    descriptor.writeUInt32LE(record.size, 12);
  }
  return descriptor;
}

function* centralDirectory(written: Written[], start: number): Generator<Buffer> {
  let size = 0;
  for (const record of written) {
    // ZIP64 fields carry, in this order, whichever of the three values do not fit in 32 bits.
    const large = [record.size, record.compressedSize, record.offset].map((v) => v >= MAX_32);
    const wide = [record.size, record.compressedSize, record.offset].filter((_, i) => large[i]);
    const extra = Buffer.concat([
      timestampExtra(record),
      wide.length > 0 ? zip64Extra(wide) : Buffer.alloc(0),
    ]);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(CENTRAL_FILE, 0);
    header.writeUInt16LE(MADE_BY, 4);
    header.writeUInt16LE(wide.length > 0 ? VERSION_ZIP64 : VERSION_DEFAULT, 6);
    header.writeUInt16LE(record.flags, 8);
    header.writeUInt16LE(record.method, 10);
    header.writeUInt16LE(record.dosTime, 12);
    header.writeUInt16LE(record.dosDate, 14);
    header.writeUInt32LE(record.crc, 16);
    header.writeUInt32LE(large[1] ? MAX_32 : record.compressedSize, 20);
    header.writeUInt32LE(large[0] ? MAX_32 : record.size, 24);
    header.writeUInt16LE(record.name.length, 28);
    header.writeUInt16LE(extra.length, 30);
    // Comment length, disk number and internal attributes stay zero.
    const mode = record.directory ? 0o40755 : 0o100644;
    header.writeUInt32LE(((mode << 16) | (record.directory ? 0x10 : 0)) >>> 0, 38);
    header.writeUInt32LE(large[2] ? MAX_32 : record.offset, 42);
    const entry = Buffer.concat([header, record.name, extra]);
    size += entry.length;
    yield entry;
  }

  const count = written.length;
  if (count >= MAX_16 || size >= MAX_32 || start >= MAX_32) {
    const end64 = Buffer.alloc(56);
    end64.writeUInt32LE(ZIP64_END, 0);
    end64.writeBigUInt64LE(44n, 4);
    end64.writeUInt16LE(MADE_BY, 12);
    end64.writeUInt16LE(VERSION_ZIP64, 14);
    end64.writeBigUInt64LE(BigInt(count), 24);
    end64.writeBigUInt64LE(BigInt(count), 32);
    end64.writeBigUInt64LE(BigInt(size), 40);
    end64.writeBigUInt64LE(BigInt(start), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(ZIP64_LOCATOR, 0);
    locator.writeBigUInt64LE(BigInt(start + size), 8);
    locator.writeUInt32LE(1, 16);
    yield Buffer.concat([end64, locator]);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(Math.min(count, MAX_16), 8);
  end.writeUInt16LE(Math.min(count, MAX_16), 10);
  end.writeUInt32LE(Math.min(size, MAX_32), 12);
  end.writeUInt32LE(Math.min(start, MAX_32), 16);
  yield end;
}

function zip64Extra(values: number[]): Buffer {
  const extra = Buffer.alloc(4 + 8 * values.length);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(8 * values.length, 2);
  values.forEach((value, i) => extra.writeBigUInt64LE(BigInt(value), 4 + 8 * i));
  return extra;
}

/** The extended timestamp (0x5455): the modification time in UTC, which DOS times cannot say. */
function timestampExtra(record: Written): Buffer {
  const extra = Buffer.alloc(9);
  extra.writeUInt16LE(0x5455, 0);
  extra.writeUInt16LE(5, 2);
  extra.writeUInt8(1, 4);
  extra.writeUInt32LE(Math.min(record.unixTime, MAX_32), 5);
  return extra;
}

/** DOS time and date fields, in UTC; DOS dates begin in 1980. */
function dosDateTime(date: Date): [time: number, day: number] {
  if (date.getUTCFullYear() < 1980) return [0, (1 << 5) | 1];
  const time =
    (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2);
  const day = ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate();
  return [time, day];
}
