import { randomUUID } from 'node:crypto';
import type { Database, UnitOfWork } from '../../db/database';
import type { StorageProvider } from '../../storage/storage-provider';
import type { StoredObject } from './files.repository';
import type { StoragePurgeRow } from './files.tables';

const BATCH = 500;
/** Rows a statement inserts: a thousand stay under every database's limit of bound values. */
const INSERT_BATCH = 1000;

export interface StoragePurgesDeps {
  database: Database;
  units: UnitOfWork;
  storage: StorageProvider;
  /** Queues the job that deletes a purge's objects (in the caller's unit of work). */
  purgeLater(purgeId: string): Promise<void>;
  now: () => Date;
}

/** The object stored under `key` (not an unfinished upload's parts). */
export function objectAt(key: string): StoredObject {
  return { kind: 'object', key, partCount: 0 };
}

/**
 * Storage objects whose rows go: recorded in `storage_purges` in the unit of work that deletes the
 * rows, with the job that deletes the objects, so a process that dies after the commit leaves no row
 * naming missing bytes and no bytes for good (the job deletes them), and one that dies before leaves
 * both as they were. Deleting a missing object is no error, so a purge may run twice.
 */
export class StoragePurges {
  constructor(private readonly deps: StoragePurgesDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  /**
   * Opens a purge in the current unit of work: its objects are recorded as `add` hands them over,
   * and the job that deletes them is queued with them.
   */
  async open(): Promise<{
    id: string;
    add(objects: readonly StoredObject[]): Promise<void>;
    takeHeldBy(ownerId: string): Promise<void>;
  }> {
    const id = randomUUID();
    await this.deps.purgeLater(id);
    return {
      id,
      add: (objects) => this.record(id, objects),
      takeHeldBy: (ownerId) => this.takeHeld(id, ownerId),
    };
  }

  /**
   * Records the objects in the current unit of work with the job that deletes them, and deletes them
   * as soon as it commits (the job finds nothing left then, or finishes what a dying process left).
   */
  async discard(objects: readonly StoredObject[]): Promise<void> {
    if (objects.length === 0) return;
    await this.deps.units.transaction(async () => {
      const purge = await this.open();
      await purge.add(objects);
      await this.deps.units.afterCommit(() => this.run(purge.id));
    });
  }

  /**
   * Records objects about to be written under `purgeId`, with no job: whoever owns the id runs the
   * purge when they are not filed (`keep` takes back those that are), or a sweep does after a crash.
   */
  async hold(purgeId: string, objects: readonly StoredObject[]): Promise<void> {
    await this.record(purgeId, objects);
  }

  /**
   * Takes objects out of a purge (in the unit of work that files rows naming them); answers how many
   * it held.
   */
  async keep(purgeId: string, keys: readonly string[]): Promise<number> {
    if (keys.length === 0) return 0;
    const kept = await this.db
      .deleteFrom('storage_purges')
      .where('purge_id', '=', purgeId)
      .where('kind', '=', 'object')
      .where('key', 'in', keys)
      .executeTakeFirst();
    return Number(kept.numDeletedRows);
  }

  /** Deletes one purge's objects, batch by batch, forgetting each batch once its objects are gone. */
  async run(purgeId: string, signal?: AbortSignal): Promise<void> {
    const storage = await this.deps.storage.current();
    for (;;) {
      signal?.throwIfAborted();
      const batch = await this.batch(purgeId, BATCH);
      if (batch.length === 0) return;
      await storage.deleteMany(batch.filter((row) => row.kind === 'object').map((row) => row.key));
      for (const row of batch.filter((row) => row.kind === 'parts'))
        await storage.abortParts(row.key, row.part_count);
      await this.forget(purgeId, batch);
    }
  }

  /**
   * Moves into the purge the objects held (`hold`) under the owner's upload sessions, in the unit of
   * work that deletes those sessions: a reservation whose process was killed left them for the upload
   * sweep, which finds no session once they are gone.
   */
  private async takeHeld(purgeId: string, ownerId: string): Promise<void> {
    const held = await this.db
      .deleteFrom('storage_purges')
      .where('purge_id', 'in', (eb) =>
        eb.selectFrom('upload_sessions').select('id').where('user_id', '=', ownerId),
      )
      .returningAll()
      .execute();
    await this.record(
      purgeId,
      held.map((row) => ({ kind: row.kind, key: row.key, partCount: row.part_count })),
    );
  }

  private async record(purgeId: string, objects: readonly StoredObject[]): Promise<void> {
    const now = this.deps.now().toISOString();
    for (let i = 0; i < objects.length; i += INSERT_BATCH)
      await this.db
        .insertInto('storage_purges')
        .values(
          objects.slice(i, i + INSERT_BATCH).map((object) => ({
            purge_id: purgeId,
            kind: object.kind,
            key: object.key,
            part_count: object.partCount,
            created_at: now,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
  }

  private batch(purgeId: string, limit: number): Promise<StoragePurgeRow[]> {
    return this.db
      .selectFrom('storage_purges')
      .selectAll()
      .where('purge_id', '=', purgeId)
      .orderBy('key')
      .limit(limit)
      .execute();
  }

  private async forget(purgeId: string, rows: readonly StoragePurgeRow[]): Promise<void> {
    for (const kind of ['object', 'parts'] as const) {
      const keys = rows.filter((row) => row.kind === kind).map((row) => row.key);
      if (keys.length === 0) continue;
      await this.db
        .deleteFrom('storage_purges')
        .where('purge_id', '=', purgeId)
        .where('kind', '=', kind)
        .where('key', 'in', keys)
        .execute();
    }
  }
}
