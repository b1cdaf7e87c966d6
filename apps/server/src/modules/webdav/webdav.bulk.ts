import { Readable } from 'node:stream';
import { AppError } from '../../lib/app-error';
import type { UploadTargets } from './webdav.chunked-uploads.service';
import { parseChecksum } from './webdav.checksums';
import { DavRefusal } from './webdav.refusals';
import { permissionsOf, type ClientFileState, type DavUser } from './webdav.service';

/** A part's headers are a few hundred bytes; more is no client's part. */
const PART_HEAD_BYTES = 16 * 1024;
/** Files one request may carry: the desktop client sends 100 at most. */
export const BULK_FILES_MAX = 1000;
/** A file up to this size is read into memory and stored beside others; a larger one streams alone. */
const BUFFERED_FILE_BYTES = 1024 * 1024;
/** Small files stored at once: enough to overlap storage and database round trips, few enough for a small pool. */
const FILES_AT_ONCE = 8;

/** One file's answer, keyed by its X-File-Path, as Nextcloud's bulk upload answers. */
export type BulkAnswer =
  | {
      error: false;
      etag: string;
      'OC-ETag': string;
      fileid?: string;
      'OC-FileID'?: string;
      permissions: string;
      'X-OC-MTime'?: string;
    }
  | { error: true; message: string };

/** A part of a multipart/related body: its headers (lower-case names) and exactly its Content-Length of bytes. */
interface Part {
  headers: Record<string, string>;
  bytes: number;
  body: Readable;
}

/**
 * `POST /remote.php/dav/bulk`: many small files in one multipart/related request, as the Nextcloud
 * desktop client sends them. Each part names its file (`X-File-Path`, below the user's files),
 * its length, an `X-File-MD5` (or `OC-Checksum`) its bytes must match and its `X-File-Mtime`. The
 * body is read as it arrives, one part at a time, and each file is stored through WebDAV PUT's rules;
 * a file refused (a missing folder, the blacklist, the quota, a wrong checksum) is answered with its
 * error and the others go on.
 */
export async function bulkUpload(
  targets: UploadTargets,
  user: DavUser,
  filesPrefix: string,
  host: string | undefined,
  contentType: string | undefined,
  body: Readable,
): Promise<Record<string, BulkAnswer>> {
  const boundary = /^multipart\/related\s*;(?:.*;)?\s*boundary="?([^";]{1,200})"?/i.exec(
    contentType ?? '',
  )?.[1];
  if (!boundary) throw new DavRefusal('malformed');
  const answers: Record<string, BulkAnswer> = {};
  const filing = new Set<Promise<void>>();
  let failure: unknown;
  const store = async (path: string, part: Part, body: Readable) => {
    try {
      const client = fileStateOf(part.headers);
      const location = await targets.locateDestination(
        user,
        `${filesPrefix}/${path.split('/').filter(Boolean).map(encodeURIComponent).join('/')}`,
        host,
      );
      const stored = await targets.put({ user, ifLists: null }, location, body, part.bytes, client);
      answers[path] = {
        error: false,
        etag: stored.etag,
        'OC-ETag': stored.etag,
        fileid: stored.fileId,
        'OC-FileID': stored.fileId,
        // Recorded by the client with the file, as a PROPFIND would give them: none to update next run.
        permissions: permissionsOf(location.tree, 'file', false),
        ...(client.modifiedAt ? { 'X-OC-MTime': 'accepted' } : {}),
      };
    } catch (error) {
      answers[path] = { error: true, message: messageOf(error) };
      // A failure of the server's own fails the request once the rest is settled.
      if (!(error instanceof DavRefusal || error instanceof AppError)) failure ??= error;
    } finally {
      // A refused file's bytes are read past, so the next part is found.
      await drain(body);
    }
  };
  let count = 0;
  try {
    for await (const part of parts(body, boundary)) {
      if (++count > BULK_FILES_MAX) throw new DavRefusal('body_too_large');
      const path = part.headers['x-file-path'];
      if (!path) throw new DavRefusal('malformed');
      // Answered in the order the files came, whenever each is done.
      answers[path] = { error: true, message: 'not stored' };
      if (part.bytes > BUFFERED_FILE_BYTES) {
        // A large file streams straight from the request, after the small ones before it.
        await Promise.all(filing);
        await store(path, part, part.body);
        continue;
      }
      // A small file is read whole (a few kilobytes) and stored beside the next ones, so a POST of
      // a hundred small files is not a hundred round trips to storage and the database in a row.
      const bytes = await readAll(part.body);
      const task = store(path, part, Readable.from([bytes])).finally(() => filing.delete(task));
      filing.add(task);
      if (filing.size >= FILES_AT_ONCE) await Promise.race(filing);
    }
  } finally {
    await Promise.all(filing);
  }
  if (failure) throw failure;
  return answers;
}

function messageOf(error: unknown): string {
  if (error instanceof AppError) return error.message;
  if (error instanceof DavRefusal) return error.reason;
  return 'internal error';
}

async function readAll(body: Readable): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of body) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}

/**
 * What a part says of its file: `X-File-Mtime` (seconds since 1970) and `X-File-MD5` as the client
 * sends it (`MD5:hex`, or the bare hex), else `OC-Checksum`; a value that is neither fails the file.
 */
function fileStateOf(headers: Record<string, string>): ClientFileState {
  const mtime = headers['x-file-mtime'];
  if (mtime !== undefined && !/^\d{1,12}$/.test(mtime)) throw new DavRefusal('malformed');
  const md5 = headers['x-file-md5']?.trim();
  return {
    modifiedAt: mtime === undefined ? null : new Date(Number(mtime) * 1000),
    checksum: parseChecksum(
      md5 ? (/^[0-9a-f]{32}$/i.test(md5) ? `MD5:${md5}` : md5) : headers['oc-checksum'],
    ),
  };
}

async function drain(body: Readable): Promise<void> {
  if (body.readableEnded || body.destroyed) return;
  for await (const _ of body);
}

/**
 * The parts of a multipart/related body, read from the stream as they come: a part's head, then its
 * Content-Length of bytes handed on as a stream that must be read (or drained) before the next part.
 */
async function* parts(body: Readable, boundary: string): AsyncGenerator<Part> {
  const reader = new ByteReader(body);
  const delimiter = Buffer.from(`--${boundary}`);
  // The preamble, then the first delimiter.
  if (!(await reader.skipPast(delimiter, PART_HEAD_BYTES))) throw new DavRefusal('malformed');
  for (;;) {
    const after = await reader.take(2);
    if (after.toString() === '--') return;
    if (after.toString() !== '\r\n') throw new DavRefusal('malformed');
    const head = await reader.until(Buffer.from('\r\n\r\n'), PART_HEAD_BYTES);
    if (head === null) throw new DavRefusal('malformed');
    const headers = parseHead(head.toString('utf8'));
    const announced = headers['content-length'];
    if (!announced || !/^\d{1,15}$/.test(announced)) throw new DavRefusal('malformed');
    const bytes = Number(announced);
    const partBody = Readable.from(reader.exactly(bytes), { objectMode: false });
    yield { headers, bytes, body: partBody };
    await drain(partBody);
    const end = await reader.take(2 + delimiter.length);
    if (!end.equals(Buffer.concat([Buffer.from('\r\n'), delimiter]))) throw new DavRefusal('malformed');
  }
}

function parseHead(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new DavRefusal('malformed');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** Reads a stream by byte counts and markers, keeping only what is not yet consumed. */
class ByteReader {
  private buffered: Buffer = Buffer.alloc(0);
  private readonly source: AsyncIterator<Buffer>;
  private done = false;

  constructor(body: Readable) {
    this.source = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  private async more(): Promise<boolean> {
    if (this.done) return false;
    const next = await this.source.next();
    if (next.done) {
      this.done = true;
      return false;
    }
    this.buffered = this.buffered.length === 0 ? next.value : Buffer.concat([this.buffered, next.value]);
    return true;
  }

  /** Exactly `n` bytes; malformed when the body ends first. */
  async take(n: number): Promise<Buffer> {
    while (this.buffered.length < n) if (!(await this.more())) throw new DavRefusal('malformed');
    const taken = this.buffered.subarray(0, n);
    this.buffered = this.buffered.subarray(n);
    return taken;
  }

  /** The bytes before `marker` (consumed with it), or null when it is not within `limit` bytes. */
  async until(marker: Buffer, limit: number): Promise<Buffer | null> {
    for (;;) {
      const at = this.buffered.indexOf(marker);
      if (at >= 0) {
        const found = this.buffered.subarray(0, at);
        this.buffered = this.buffered.subarray(at + marker.length);
        return found;
      }
      if (this.buffered.length > limit + marker.length || !(await this.more())) return null;
    }
  }

  async skipPast(marker: Buffer, limit: number): Promise<boolean> {
    return (await this.until(marker, limit)) !== null;
  }

  /** The next `n` bytes, as they arrive. */
  async *exactly(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.buffered.length === 0 && !(await this.more())) throw new DavRefusal('malformed');
      const piece = this.buffered.subarray(0, Math.min(left, this.buffered.length));
      this.buffered = this.buffered.subarray(piece.length);
      left -= piece.length;
      yield piece;
    }
  }
}
