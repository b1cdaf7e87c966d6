import { createHash } from 'node:crypto';
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  watch,
  writeFileSync,
  type FSWatcher,
  type Stats,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type TableMetadata } from 'kysely';
import type { Database } from '../../src/db/database';
import type { DB } from '../../src/db/schema';

/** Every row of every table (as canonical JSON) and every stored file's digest, at one moment. */
export interface StateSnapshot {
  rows: Map<string, string[]>;
  /** Path under the storage folder -> sha256 of the bytes. */
  files: Map<string, string>;
}

/**
 * Columns that record that a signed-in call was made, not what it did: every request refreshes its
 * session's `last_active_at` (at most once every five minutes), refused ones included; a WebDAV
 * request signed in with an app password stamps its `last_used_at` the same way.
 */
const BOOKKEEPING: Record<string, readonly string[]> = {
  sessions: ['last_active_at'],
  app_passwords: ['last_used_at'],
};

function canonicalRow(table: string, row: Record<string, unknown>): string {
  const ignored = BOOKKEEPING[table] ?? [];
  return JSON.stringify(
    Object.keys(row)
      .filter((column) => !ignored.includes(column))
      .sort()
      .map((column) => [column, row[column]]),
  );
}

/** The table the write count is kept in (see countWrites); never part of a snapshot. */
const WRITE_COUNT_TABLE = 'matrix_write_count';

/** A row-level condition: the row changed in a column other than its table's bookkeeping ones. */
function changedBeyondBookkeeping(database: Database, table: TableMetadata): string {
  const ignored = BOOKKEEPING[table.name] ?? [];
  const differs = database.dialect === 'sqlite' ? 'is not' : 'is distinct from';
  return table.columns
    .filter((column) => !ignored.includes(column.name))
    .map(({ name }) => `old."${name}" ${differs} new."${name}"`)
    .join(' or ');
}

/**
 * Makes every write to one of `tables` raise that table's count in this database, by triggers; an
 * update that changes only bookkeeping columns raises nothing. Without that, once a pass of the matrix
 * has run for five minutes every signed-in call refreshes its session (made at the start of the pass)
 * and every snapshot after it reads every table again. PostgreSQL's own markers (the WAL position,
 * transaction ids) move with every database of the server, which the other test files write to all
 * the time; SQLite's total_changes() counts bookkeeping too. On SQLite the triggers and the counts
 * are the connection's own (TEMP; the app has one connection), on PostgreSQL the database's. A count
 * per table: a snapshot after a write reads again only the tables written, not the pass's thousands
 * of sessions with them.
 */
async function countWrites(database: Database, tables: TableMetadata[]): Promise<void> {
  const sqlite = database.dialect === 'sqlite';
  const raise = (table: string) => `update ${WRITE_COUNT_TABLE} set n = n + 1 where name = ${table}`;
  // Idempotent: several passes of the matrix may snapshot one database.
  await sql
    .raw(
      `create ${sqlite ? 'temp' : 'unlogged'} table if not exists ${WRITE_COUNT_TABLE} ` +
        '(name text primary key, n bigint not null)',
    )
    .execute(database.db);
  if (!sqlite)
    await sql
      .raw(
        `create or replace function ${WRITE_COUNT_TABLE}_raise() returns trigger language plpgsql as ` +
          `$$ begin ${raise('TG_TABLE_NAME')}; return null; end $$`,
      )
      .execute(database.db);
  for (const table of tables) {
    await sql`insert into ${sql.table(WRITE_COUNT_TABLE)} (name, n) values (${table.name}, 0) on conflict (name) do nothing`.execute(
      database.db,
    );
    const bookkeeping = table.name in BOOKKEEPING;
    for (const event of ['insert', 'update', 'delete'] as const) {
      // SQLite names triggers across the schema, PostgreSQL per table (and in 63 bytes).
      const trigger = sqlite
        ? `"${WRITE_COUNT_TABLE}_${table.name}_${event}"`
        : `${WRITE_COUNT_TABLE}_${event}`;
      const when = event === 'update' && bookkeeping ? changedBeyondBookkeeping(database, table) : '';
      await sql
        .raw(
          sqlite
            ? `create temp trigger if not exists ${trigger} after ${event} on main."${table.name}" ` +
                `${when ? `when ${when} ` : ''}begin ${raise(`'${table.name}'`)}; end`
            : `create or replace trigger ${trigger} after ${event} on "${table.name}" ` +
                `${when ? `for each row when (${when})` : 'for each statement'} ` +
                `execute function ${WRITE_COUNT_TABLE}_raise()`,
        )
        .execute(database.db);
    }
    if (!sqlite)
      await sql
        .raw(
          `create or replace trigger ${WRITE_COUNT_TABLE}_truncate after truncate on "${table.name}" ` +
            `for each statement execute function ${WRITE_COUNT_TABLE}_raise()`,
        )
        .execute(database.db);
  }
}

/** Each table's count, by name: it moves whenever anything but bookkeeping is written to the table (countWrites). */
async function writeMarkers(database: Database): Promise<Map<string, string>> {
  const { rows } = await sql<{
    name: string;
    n: string | number;
  }>`select name, n from ${sql.table(WRITE_COUNT_TABLE)}`.execute(database.db);
  return new Map(rows.map(({ name, n }) => [name, String(n)]));
}

/** What a snapshotter keeps between its snapshots of the storage folder. */
interface SnapshotCache {
  folders: Map<string, FolderListing>;
  digests: Map<string, string>;
  /** The last snapshot's files, given again while every file has the digest it had then. */
  files?: Map<string, string>;
}

/** Takes a snapshot; `close` stops watching the storage folder. */
export interface Snapshotter {
  (): Promise<StateSnapshot>;
  close(): void;
}

/**
 * Takes snapshots of the database and the storage folder. A table's rows are read again only when
 * something was written to it since the last snapshot, and the storage folder is walked again only when
 * its watch reported something (StorageWatch), each file hashed again only when its size or time
 * changed: most calls of the matrix are refused and write nothing.
 */
export function snapshotter(database: Database, storageDir: string): Snapshotter {
  let tables: Promise<string[]> | undefined;
  let last: { markers: Map<string, string>; rows: Map<string, string[]> } | undefined;
  const cache: SnapshotCache = { folders: new Map(), digests: new Map() };
  const storage = new StorageWatch();
  const take = async (): Promise<StateSnapshot> => {
    tables ??= database.db.introspection.getTables().then(async (found) => {
      const snapshotted = found.filter((table) => table.name !== WRITE_COUNT_TABLE);
      await countWrites(database, snapshotted);
      return snapshotted.map((table) => table.name);
    });
    const names = await tables;
    await storage.caughtUp();
    const markers = await writeMarkers(database);
    const written = names.filter((table) => last?.markers.get(table) !== markers.get(table));
    if (!last || written.length > 0) {
      const rows = await Promise.all(
        written.map(async (table) => {
          const all = await database.db
            .selectFrom(table as keyof DB)
            .selectAll()
            .execute();
          return [
            table,
            all.map((row) => canonicalRow(table, row as Record<string, unknown>)).sort(),
          ] as const;
        }),
      );
      // The markers were read first, so a write that raced the reading makes the next snapshot read again.
      last = { markers, rows: new Map([...(last?.rows ?? []), ...rows]) };
    }
    const files = storage.reported() || !cache.files ? storedFiles(storageDir, cache, storage) : cache.files;
    return { rows: last.rows, files };
  };
  return Object.assign(take, { close: () => storage.close() });
}

/**
 * Tells whether anything under the storage folder may have changed since the last walk of it, by an
 * inotify watch (fs.watch) on each of its folders: a folder's watch reports every entry added,
 * removed or renamed in it and every write to a file in it, in place ones included. storedFiles
 * watches a folder before it lists it, so whatever its listing missed is reported. Walking the
 * seeded app's ~950 entries (a stat each) was most of a snapshot's CPU, and nearly every snapshot
 * of a pass finds the folder as it was.
 */
class StorageWatch {
  /** Something was reported, or a watch was added or lost, since the last walk began. */
  private changed = true;
  private readonly watched = new Map<string, { watcher: FSWatcher; ino: number }>();
  /** A folder of its own, outside the storage folder, where caughtUp creates its markers. */
  private readonly markers = mkdtempSync(path.join(os.tmpdir(), 'atelier-snapshot-'));
  private readonly markerWatch: FSWatcher;
  private readonly awaited = new Map<string, () => void>();
  private count = 0;

  constructor() {
    this.markerWatch = watch(this.markers, { persistent: false }, (_event, name) => {
      const resolve = name ? this.awaited.get(name) : undefined;
      if (!resolve) return;
      this.awaited.delete(name!);
      rmSync(path.join(this.markers, name!), { force: true });
      resolve();
    });
  }

  /**
   * Resolves once every event of a write made before the call has been handled. Events are read
   * asynchronously, but from one inotify queue per process, in the order they happened: once the
   * event of a marker file created now arrives, every earlier one has arrived too.
   */
  caughtUp(): Promise<void> {
    const name = String(++this.count);
    return new Promise((resolve) => {
      this.awaited.set(name, resolve);
      writeFileSync(path.join(this.markers, name), '');
    });
  }

  /** Whether the storage folder must be walked again; the answer starts a walk, so it clears the flag. */
  reported(): boolean {
    const changed = this.changed;
    this.changed = false;
    return changed;
  }

  /** Watches the folder, unless it is watched already (the same folder, not one made again at its path). */
  watch(folder: string): void {
    const ino = statSync(folder, { throwIfNoEntry: false })?.ino;
    const kept = this.watched.get(folder);
    if (ino !== undefined && kept?.ino === ino) return;
    kept?.watcher.close();
    this.watched.delete(folder);
    // A new watch: the next snapshot walks again, and so sees a folder replaced between the stat and the watch.
    this.changed = true;
    if (ino === undefined) return;
    try {
      const watcher = watch(folder, { persistent: false }, (_event, name) => {
        this.changed = true;
        // The folder itself was removed or moved (its own name is reported): watch it anew when it is back.
        if (name === path.basename(folder)) this.unwatch(folder, watcher);
      });
      watcher.on('error', () => this.unwatch(folder, watcher));
      this.watched.set(folder, { watcher, ino });
    } catch (error) {
      // Removed since the stat: the walk will not find it.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  /** Stops watching the folders a walk no longer found. */
  keepOnly(folders: Set<string>): void {
    for (const [folder, { watcher }] of this.watched) if (!folders.has(folder)) this.unwatch(folder, watcher);
  }

  private unwatch(folder: string, watcher: FSWatcher): void {
    this.changed = true;
    watcher.close();
    if (this.watched.get(folder)?.watcher === watcher) this.watched.delete(folder);
  }

  close(): void {
    for (const { watcher } of this.watched.values()) watcher.close();
    this.watched.clear();
    this.markerWatch.close();
    rmSync(this.markers, { recursive: true, force: true });
  }
}

/**
 * How recently (ms) a directory or file may have changed for its listing or digest to be kept: the
 * file system stamps times from a coarse clock, so a second change within one tick of the first can
 * leave the stamp as it was; a listing or digest taken that soon after a change is taken again.
 */
const SETTLED_MS = 100;

interface FolderListing {
  stamp: string;
  /** Paths of the folders in it. */
  folders: string[];
  /** Its files: each one's path, and its path under the storage folder (the snapshot's key). */
  files: { file: string; key: string }[];
}

/**
 * sha256 of every file under the storage folder, by path. `cache` keeps each folder's listing by its
 * times (adding, removing or renaming an entry moves them) and each file's digest by path, size and
 * time, so an unchanged tree costs a stat per entry instead of reading every folder again; and the
 * last snapshot's map, given again (the same object) when every file and digest is as it was.
 */
function storedFiles(storageDir: string, cache: SnapshotCache, storage: StorageWatch): Map<string, string> {
  const found: [string, string][] = [];
  const last = cache.files;
  let same = last !== undefined;
  const folders = new Set<string>();
  const walk = (folder: string) => {
    storage.watch(folder);
    folders.add(folder);
    const listing = folderListing(folder, storageDir, cache.folders);
    if (!listing) return;
    for (const { file, key } of listing.files) {
      const digest = fileDigest(file, cache.digests);
      if (!digest) continue;
      found.push([key, digest]);
      if (same && last!.get(key) !== digest) same = false;
    }
    for (const child of listing.folders) walk(child);
  };
  walk(storageDir);
  storage.keepOnly(folders);
  if (same && found.length === last!.size) return last!;
  cache.files = new Map(found);
  return cache.files;
}

const stampOf = (stats: Stats) => `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
const settled = (stats: Stats) => Date.now() - Math.max(stats.mtimeMs, stats.ctimeMs) > SETTLED_MS;

/** The folder's entries, from the cache while its times have not moved; undefined once it is gone. */
function folderListing(
  folder: string,
  storageDir: string,
  listings: Map<string, FolderListing>,
): FolderListing | undefined {
  const stats = statSync(folder, { throwIfNoEntry: false });
  if (!stats?.isDirectory()) return undefined;
  const stamp = stampOf(stats);
  const kept = listings.get(folder);
  if (kept?.stamp === stamp) return kept;
  const entries = readdirSync(folder, { withFileTypes: true });
  const listing = {
    stamp: settled(stats) ? stamp : '',
    folders: entries.filter((entry) => entry.isDirectory()).map((entry) => path.join(folder, entry.name)),
    files: entries
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const file = path.join(folder, entry.name);
        return { file, key: path.relative(storageDir, file) };
      }),
  };
  listings.set(folder, listing);
  return listing;
}

function fileDigest(file: string, digests: Map<string, string>): string | undefined {
  const stats = statSync(file, { throwIfNoEntry: false });
  if (!stats) return undefined;
  const key = `${file}:${stampOf(stats)}`;
  let digest = digests.get(key);
  if (!digest) {
    digest = createHash('sha256').update(readFileSync(file)).digest('hex');
    if (settled(stats)) digests.set(key, digest);
  }
  return digest;
}

/** Ids as the app makes them: UUIDs for rows, 32 hex digits for storage keys. */
const ID_PATTERN = /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/gi;
const idsInRow = new Map<string, { own?: string; mentioned: Set<string> }>();

/** A row's own `id` and every id it mentions (any column, JSON text included); rows repeat between snapshots, so this is kept. */
function idsOf(row: string): { own?: string; mentioned: Set<string> } {
  let found = idsInRow.get(row);
  if (!found) {
    const id = (Object.fromEntries(JSON.parse(row) as [string, unknown][]) as { id?: unknown }).id;
    found = { own: typeof id === 'string' ? id : undefined, mentioned: new Set(row.match(ID_PATTERN)) };
    idsInRow.set(row, found);
  }
  return found;
}

const mentionsAny = (row: string, ids: Set<string>) => [...idsOf(row).mentioned].some((id) => ids.has(id));

/** idsReachedFrom's answers by the snapshot's rows (kept while nothing is written) and user. */
const reached = new WeakMap<StateSnapshot['rows'], Map<string, Set<string>>>();

/**
 * The ids of one user's things in a snapshot: the user's id, then the `id` of every row that
 * mentions an id already found (their items, the thumbnails of those, their project's renders...),
 * until nothing new turns up. New tables join without being named here.
 */
function idsReachedFrom(snapshot: StateSnapshot, userId: string): Set<string> {
  const known = reached.get(snapshot.rows) ?? new Map<string, Set<string>>();
  reached.set(snapshot.rows, known);
  const kept = known.get(userId);
  if (kept) return kept;
  const ids = new Set([userId]);
  for (let grown = true; grown;) {
    grown = false;
    for (const rows of snapshot.rows.values())
      for (const row of rows) {
        const { own } = idsOf(row);
        if (own && !ids.has(own) && mentionsAny(row, ids)) {
          ids.add(own);
          grown = true;
        }
      }
  }
  known.set(userId, ids);
  return ids;
}

interface ScopedRows {
  rows: StateSnapshot['rows'];
  /** Every id those rows mention, storage keys included. */
  keys: Set<string>;
}

/** scopedRows' answers by the snapshot's rows and the ids. */
const scopedRowsKept = new WeakMap<StateSnapshot['rows'], WeakMap<Set<string>, ScopedRows>>();

/** The rows that mention one of `ids`, by table. */
function scopedRows(all: StateSnapshot['rows'], ids: Set<string>): ScopedRows {
  const known = scopedRowsKept.get(all) ?? new WeakMap<Set<string>, ScopedRows>();
  scopedRowsKept.set(all, known);
  let found = known.get(ids);
  if (!found) {
    const rows = new Map(
      [...all].map(
        ([table, tableRows]) => [table, tableRows.filter((row) => mentionsAny(row, ids))] as const,
      ),
    );
    const keys = new Set([...rows.values()].flat().flatMap((row) => [...idsOf(row).mentioned]));
    found = { rows, keys };
    known.set(ids, found);
  }
  return found;
}

/** The part of a snapshot that belongs to the user with `ids`: rows that mention one, files a storage key of those rows names. */
function scoped(snapshot: StateSnapshot, ids: Set<string>): StateSnapshot {
  const { rows, keys } = scopedRows(snapshot.rows, ids);
  const files = new Map(
    [...snapshot.files].filter(([file]) => file.split(path.sep).some((part) => keys.has(part))),
  );
  return { rows, files };
}

/** Tables and files that differ between two snapshots, named for a failure message. */
export function differences(before: StateSnapshot, after: StateSnapshot): string[] {
  const changed: string[] = [];
  for (const table of new Set([...before.rows.keys(), ...after.rows.keys()])) {
    const [was, is] = [before.rows.get(table) ?? [], after.rows.get(table) ?? []];
    if (was !== is && (was.length !== is.length || was.some((row, i) => row !== is[i])))
      changed.push(`table ${table} (${was.length} -> ${is.length} rows)`);
  }
  // The same map: the snapshotter found every file as it was (see storedFiles).
  if (before.files !== after.files)
    for (const file of new Set([...before.files.keys(), ...after.files.keys()]))
      if (before.files.get(file) !== after.files.get(file)) changed.push(`stored file ${file}`);
  return changed;
}

/** Like `differences`, limited to what belongs to the user (found in `before`, so deletions count). */
export function differencesFor(userId: string, before: StateSnapshot, after: StateSnapshot): string[] {
  const ids = idsReachedFrom(before, userId);
  return differences(scoped(before, ids), scoped(after, ids));
}
