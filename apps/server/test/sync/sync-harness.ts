import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { DavAccount, DavTestServer } from '../webdav/webdav-harness';
import { seededBuffer } from '../support/seeded-noise';

export const run = promisify(execFile);

/** The sync engines of the desktop clients, as Debian ships them (`.ci/run` installs both). */
export type SyncClient = 'nextcloudcmd' | 'owncloudcmd';

/** The requests a server received, by method, since the last `reset`. */
export interface RequestCounter {
  count(method: string, below?: string): number;
  /** The requests of these methods, as `METHOD path`, in the order they came. */
  seen(methods: readonly string[], below: string): string[];
  /**
   * The requests answered with an error (400 or more) since counting began, resets or not, as
   * `METHOD path status`: a failure's cause may lie in an earlier step.
   */
  refused(): string[];
  reset(): void;
}

/** Counts what reaches the listening server: the proof that a sync transferred what it should, and nothing more. */
export function countRequests(server: DavTestServer): RequestCounter {
  let seen: { method: string; url: string; status?: number }[] = [];
  const refused: string[] = [];
  server.app.server.on('request', (request, response) => {
    const entry: { method: string; url: string; status?: number } = {
      method: request.method ?? '',
      url: decodeURIComponent(request.url ?? ''),
    };
    seen.push(entry);
    response.on('finish', () => {
      entry.status = response.statusCode;
      if (entry.status >= 400) refused.push(`${entry.method} ${entry.url} ${entry.status}`);
    });
  });
  const matching = (methods: readonly string[], below: string) =>
    seen.filter((r) => methods.includes(r.method) && (below === '' || r.url.includes(below)));
  return {
    count: (method, below = '') => matching([method], below).length,
    seen: (methods, below) => matching(methods, below).map((r) => `${r.method} ${r.url}`),
    refused: () => [...refused],
    reset: () => {
      seen = [];
    },
  };
}

/** Each folder's latest engine log: what `engineNotes` quotes when a sync did more than it should. */
const engineLogs = new Map<string, string>();

/**
 * One run of a client's sync engine over a local folder, as the account. The ownCloud engine needs
 * an exclude list: it is given the Nextcloud package's, the list both desktop apps start from. One round
 * only: a run that needs a second one to finish failed.
 */
export async function syncOnce(
  client: SyncClient,
  server: DavTestServer,
  account: DavAccount,
  folder: string,
): Promise<void> {
  const { stderr } = await run(
    client,
    [
      ...(client === 'owncloudcmd' ? ['--exclude', '/etc/Nextcloud/sync-exclude.lst'] : []),
      '--non-interactive',
      '--max-sync-retries',
      '1',
      '-u',
      account.email,
      '-p',
      account.password,
      folder,
      server.origin,
    ],
    // A guard against a hang, not a timing: a loaded 2-core machine may take minutes for 1,000 files.
    { timeout: 420_000, maxBuffer: 256 * 1024 * 1024 },
  ).catch((error: { stderr?: string; message: string }) => {
    // The engine says why at the end of its log.
    throw new Error(`${client} failed: ${error.message}\n${(error.stderr ?? '').slice(-4000)}`);
  });
  engineLogs.set(folder, stderr);
}

/**
 * What the engines' latest runs logged of the files these requests named (`METHOD /…/files/<user>/path`):
 * each engine prints a line per file it compares, with the journal's, the disk's and the server's
 * times, sizes and ETags, which says why it moved a file. The first few files only.
 */
export function engineNotes(requests: readonly string[]): string {
  const paths = requests
    .slice(0, 5)
    .map((request) => request.replace(/^\S+ \/remote\.php\/dav\/files\/[^/]+\//, ''));
  const notes: string[] = [];
  for (const [folder, log] of engineLogs) {
    const lines = log.split('\n');
    for (const path of paths) {
      const quoted = `"${path}"`;
      const said = lines.filter((line) => line.includes(quoted)).slice(0, 4);
      if (said.length > 0) notes.push(`${folder}:`, ...said.map((line) => line.slice(0, 1200)));
    }
  }
  return notes.join('\n');
}

/**
 * `count` files of seeded noise (100 B to 4 KiB) in nested folders: `d{i % 10}/s{i % 7}/f{i}.bin`,
 * every 50th empty unless `empty` is false. Nextcloud's 3.7 engine aborts a bulk upload that holds
 * an empty file by itself (its bug, fixed in its 3.9): its trees leave them out.
 */
export async function writeTree(root: string, count: number, seed: number, empty: boolean): Promise<void> {
  for (let i = 0; i < count; i++) {
    const folder = join(root, `d${i % 10}`, `s${i % 7}`);
    await mkdir(folder, { recursive: true });
    const bytes = empty && i % 50 === 0 ? 0 : 100 + ((i * 37) % 4000);
    await writeFile(join(folder, `f${i}.bin`), seededBuffer(seed * 100_000 + i, bytes));
  }
}

/** Each file's path below the folder and the SHA-256 of its bytes; the clients' own dot files left out. */
export function digests(root: string): Promise<Map<string, string>> {
  return eachFile(root, async (path) =>
    createHash('sha256')
      .update(await readFile(path))
      .digest('hex'),
  );
}

/** Each file's modification time in whole seconds (what the clients keep), by path below the folder. */
export function modificationTimes(root: string): Promise<Map<string, number>> {
  return eachFile(root, async (path) => Math.floor((await stat(path)).mtimeMs / 1000));
}

/** `read` of each file below the folder by its path there, sorted; the clients' own dot files left out. */
async function eachFile<T>(root: string, read: (path: string) => Promise<T>): Promise<Map<string, T>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((path) => !path.split('/').some((part) => part.startsWith('.')));
  const pairs = await Promise.all(files.map(async (path) => [path, await read(join(root, path))] as const));
  return new Map(pairs.sort(([a], [b]) => a.localeCompare(b)));
}
