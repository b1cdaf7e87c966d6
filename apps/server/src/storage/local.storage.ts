import { once } from 'node:events';
import {
  close as closeCallback,
  createWriteStream,
  ftruncate,
  open as openCallback,
  type WriteStream,
} from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, truncate, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertStorageKey,
  newStorageKey,
  StorageNotFoundError,
  type ByteRange,
  type ObjectStat,
  type PartPosition,
  type Storage,
  type StoredObject,
} from './storage';

const openFd = promisify(openCallback);
const ftruncateFd = promisify(ftruncate);
const closeFd = promisify(closeCallback);

// Larger stream buffers let small network reads gather into fewer, bigger disk writes.
const WRITE_OPTIONS = { highWaterMark: 1024 * 1024 };
// Large reads: a sixteenth of the system calls and thread-pool round trips of the 64 KiB default.
const READ_OPTIONS = { highWaterMark: 1024 * 1024 };

/**
 * Objects on local disk under `root`:
 *   objects/ab/cd/<key>   sharded by the key's first four characters so no directory grows huge
 *   tmp/<pid>-<random>    writes in progress, renamed into place when complete (readers never see half a file);
 *                         those of a process that is gone (killed mid-write) are removed when storage opens
 *   uploads/<uploadId>    a chunked upload: parts are appended at their offset, completion is a rename
 */
export class LocalStorage implements Storage {
  readonly driver = 'local' as const;
  private readonly objectsDir: string;
  private readonly tmpDir: string;
  private readonly uploadsDir: string;
  private ready: Promise<void> | undefined;

  constructor(root: string) {
    this.objectsDir = join(root, 'objects');
    this.tmpDir = join(root, 'tmp');
    this.uploadsDir = join(root, 'uploads');
    // Opened now, so a process killed mid-write leaves its temporary files only until the next start.
    this.ensureDirs().catch(() => {
      this.ready = undefined;
    });
  }

  async put(key: string, body: Readable | Uint8Array): Promise<StoredObject> {
    const target = this.objectPath(key);
    await this.ensureDirs();
    const temp = join(this.tmpDir, `${process.pid}-${newStorageKey()}`);
    try {
      await pipeline(
        body instanceof Uint8Array ? Readable.from([body]) : body,
        createWriteStream(temp, WRITE_OPTIONS),
      );
      await mkdir(join(target, '..'), { recursive: true });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return this.storedObject(key);
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    return readFrom(this.objectPath(key), key, range);
  }

  async getBytes(key: string, range: ByteRange): Promise<Buffer> {
    const handle = await openObject(this.objectPath(key), key);
    try {
      const length = range.end - range.start + 1;
      // One read of the whole length (a file read is short only at its end), into a buffer of its own.
      const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(length), 0, length, range.start);
      if (bytesRead !== length) throw new Error(`Object ${key} holds fewer than ${range.end + 1} bytes`);
      return buffer;
    } finally {
      await handle.close();
    }
  }

  async stat(key: string): Promise<ObjectStat | null> {
    try {
      const info = await stat(this.objectPath(key));
      return { size: info.size, etag: etagOf(info.size, info.mtimeMs), modifiedAt: info.mtime };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    await rm(this.objectPath(key), { force: true });
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    for (const key of keys) await this.delete(key);
  }

  async writePart(uploadId: string, part: PartPosition, body: Readable): Promise<{ size: number }> {
    const path = this.uploadPath(uploadId);
    await this.ensureDirs();
    // The first part creates the file; later ones write at their offset so a retried part overwrites
    // whatever a failed attempt left, and a missing file (swept upload) fails instead of restarting.
    // A plain descriptor, not a FileHandle: the stream then writes with fs's callbacks, without a
    // promise and a handle reference per write (one write of up to 1 MiB at a time, dozens a chunk).
    const fd = await openFd(path, part.offset === 0 ? 'w' : 'r+');
    let file: WriteStream | null = null;
    try {
      // Whatever lies past the offset (an attempt that was cut off or killed) goes before the part's
      // bytes arrive, so nothing but closing the file is left once they are written.
      if (part.offset > 0) await ftruncateFd(fd, part.offset);
      file = createWriteStream(path, { ...WRITE_OPTIONS, fd, start: part.offset });
      await pipeline(body, file);
    } catch (error) {
      if (!file) await closeFd(fd);
      else if (!file.closed) await once(file, 'close').catch(() => undefined);
      await truncate(path, part.offset).catch(() => undefined);
      throw error;
    }
    return { size: file.bytesWritten };
  }

  async readPart(uploadId: string, part: PartPosition, size: number): Promise<Readable> {
    return readFrom(this.uploadPath(uploadId), uploadId, { start: part.offset, end: part.offset + size - 1 });
  }

  async completeParts(uploadId: string, _partCount: number, key: string): Promise<StoredObject> {
    const target = this.objectPath(key);
    await mkdir(join(target, '..'), { recursive: true });
    await rename(this.uploadPath(uploadId), target);
    return this.storedObject(key);
  }

  async abortParts(uploadId: string): Promise<void> {
    await rm(this.uploadPath(uploadId), { force: true });
  }

  async check(): Promise<void> {
    await this.ensureDirs();
    const probe = join(this.tmpDir, `check-${newStorageKey()}`);
    await writeFile(probe, 'ok');
    await unlink(probe);
  }

  async close(): Promise<void> {}

  private async storedObject(key: string): Promise<StoredObject> {
    const info = await this.stat(key);
    if (!info) throw new StorageNotFoundError(key);
    return { key, size: info.size, etag: info.etag };
  }

  private objectPath(key: string): string {
    assertStorageKey(key);
    return join(this.objectsDir, key.slice(0, 2), key.slice(2, 4), key);
  }

  private uploadPath(uploadId: string): string {
    assertStorageKey(uploadId);
    return join(this.uploadsDir, uploadId);
  }

  private ensureDirs(): Promise<void> {
    this.ready ??= Promise.all(
      [this.objectsDir, this.tmpDir, this.uploadsDir].map((dir) => mkdir(dir, { recursive: true })),
    ).then(() => this.removeAbandonedWrites());
    return this.ready;
  }

  /**
   * Temporary files of writes that can't finish: their process is gone, or is this very process in
   * an earlier life (a restarted container keeps its pid), since none of its writes has begun yet.
   */
  private async removeAbandonedWrites(): Promise<void> {
    const names = await readdir(this.tmpDir);
    await Promise.all(
      names.map(async (name) => {
        const dash = name.indexOf('-');
        const pid = Number(name.slice(0, dash));
        if (dash <= 0 || !Number.isSafeInteger(pid) || pid <= 0) return;
        if (pid !== process.pid && processExists(pid)) return;
        await rm(join(this.tmpDir, name), { force: true });
      }),
    );
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: there, but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function openObject(path: string, key: string) {
  return open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' ? new StorageNotFoundError(key) : error;
  });
}

async function readFrom(path: string, key: string, range?: ByteRange): Promise<Readable> {
  const handle = await openObject(path, key);
  return handle.createReadStream({
    ...READ_OPTIONS,
    ...(range ? { start: range.start, end: range.end } : {}),
  });
}

/** Objects never change in place (keys are fresh ids), so size and modification time identify a version. */
function etagOf(size: number, mtimeMs: number): string {
  return `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
}
