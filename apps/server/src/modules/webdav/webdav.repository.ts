import { sql } from 'kysely';
import type { Database } from '../../db/database';
import type { ItemReader } from '../files/files.ports';
import { propertyBytes, type DavFileMetaRow, type DavLockRow, type DavPropertyRow } from './webdav.tables';

/** What a PROPPATCH is checked against: the item's properties after it, and its owner's used and reserved bytes. */
export interface PropertyState {
  count: number;
  bytes: number;
  ownerBytes: number;
}

/** Thrown inside a transaction to undo a patch that passes a limit. */
class NotAllowed extends Error {}

/** WebDAV's dead properties and locks. Every query names the owner it reads. */
export class WebdavRepository {
  constructor(
    private readonly database: Database,
    /** The owner's usage is the files module's, read inside the patch's transaction. */
    private readonly usage: Pick<ItemReader, 'heldBytes'>,
  ) {}

  private get db() {
    return this.database.db;
  }

  // ---- dead properties ---------------------------------------------------------------------

  /** The dead properties of the items. */
  properties(ownerId: string, itemIds: readonly string[]): Promise<DavPropertyRow[]> {
    if (itemIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('dav_properties')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('item_id', 'in', itemIds)
      .execute();
  }

  /**
   * Sets and removes an item's dead properties at once, unless what the item then holds, or its
   * owner's usage, is not `allowed`; then nothing changes and the answer is false. The check runs
   * inside the transaction, after the writes: their triggers hold the owner's usage row until the
   * end, so patches of one owner cannot pass the limits together.
   */
  async patchProperties(
    ownerId: string,
    itemId: string,
    set: readonly Pick<DavPropertyRow, 'namespace' | 'name' | 'value'>[],
    remove: readonly Pick<DavPropertyRow, 'namespace' | 'name'>[],
    allowed: (after: PropertyState) => boolean,
  ): Promise<boolean> {
    return this.database
      .transaction(async (trx) => {
        for (const property of [...remove, ...set])
          await trx
            .deleteFrom('dav_properties')
            .where('item_id', '=', itemId)
            .where('namespace', '=', property.namespace)
            .where('name', '=', property.name)
            .execute();
        if (set.length > 0)
          await trx
            .insertInto('dav_properties')
            .values(
              set.map((property) => ({
                ...property,
                item_id: itemId,
                owner_id: ownerId,
                bytes: propertyBytes(property),
              })),
            )
            .execute();
        const held = await trx
          .selectFrom('dav_properties')
          .select([sql<number>`count(*)`.as('count'), sql<number>`coalesce(sum(bytes), 0)`.as('bytes')])
          .where('item_id', '=', itemId)
          .executeTakeFirstOrThrow();
        const state: PropertyState = {
          count: Number(held.count),
          bytes: Number(held.bytes),
          ownerBytes: await this.usage.heldBytes(ownerId),
        };
        if (!allowed(state)) throw new NotAllowed();
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof NotAllowed) return false;
        throw error;
      });
  }

  /** What the dead properties of these items take (their copies would take as much). */
  async propertyBytesOf(ownerId: string, itemIds: readonly string[]): Promise<number> {
    let total = 0;
    for (let i = 0; i < itemIds.length; i += 500) {
      const { bytes } = await this.db
        .selectFrom('dav_properties')
        .select(sql<number>`coalesce(sum(bytes), 0)`.as('bytes'))
        .where('owner_id', '=', ownerId)
        .where('item_id', 'in', itemIds.slice(i, i + 500))
        .executeTakeFirstOrThrow();
      total += Number(bytes);
    }
    return total;
  }

  /** Gives copies the properties of their originals (`copies`: original id -> copy id), each of its owner. */
  async copyProperties(
    fromOwnerId: string,
    toOwnerId: string,
    copies: ReadonlyMap<string, string>,
  ): Promise<void> {
    const originals = [...copies.keys()];
    // A hundred items hold at most a few megabytes of properties.
    for (let i = 0; i < originals.length; i += 100) {
      const rows = await this.db
        .selectFrom('dav_properties')
        .selectAll()
        .where('owner_id', '=', fromOwnerId)
        .where('item_id', 'in', originals.slice(i, i + 100))
        .execute();
      if (rows.length > 0)
        await this.db
          .insertInto('dav_properties')
          .values(rows.map((row) => ({ ...row, item_id: copies.get(row.item_id)!, owner_id: toOwnerId })))
          .execute();
    }
  }

  // ---- locks -------------------------------------------------------------------------------

  /** The owner's locks that have not expired at `now`. */
  liveLocks(ownerId: string, now: string): Promise<DavLockRow[]> {
    return this.db
      .selectFrom('dav_locks')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('expires_at', '>', now)
      .execute();
  }

  /** Every lock, live or expired, the users took in the owner's tree. */
  locksTakenBy(ownerId: string, principalIds: readonly string[]): Promise<DavLockRow[]> {
    if (principalIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('dav_locks')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('principal_id', 'in', principalIds)
      .execute();
  }

  /**
   * Adds a lock unless a live one it conflicts with holds (checked again inside the transaction), or
   * the owner's tree holds `most` already.
   */
  async insertLock(
    lock: DavLockRow,
    now: string,
    conflicts: (held: DavLockRow[]) => boolean,
    most: number,
  ): Promise<'taken' | 'conflict' | 'full'> {
    return this.database.transaction(async (trx) => {
      await trx
        .deleteFrom('dav_locks')
        .where('owner_id', '=', lock.owner_id)
        .where('expires_at', '<=', now)
        .execute();
      const held = await trx
        .selectFrom('dav_locks')
        .selectAll()
        .where('owner_id', '=', lock.owner_id)
        .execute();
      if (conflicts(held)) return 'conflict';
      if (held.length >= most) return 'full';
      await trx.insertInto('dav_locks').values(lock).execute();
      return 'taken';
    });
  }

  async refreshLock(token: string, timeoutSeconds: number, expiresAt: string): Promise<void> {
    await this.db
      .updateTable('dav_locks')
      .set({ timeout_seconds: timeoutSeconds, expires_at: expiresAt })
      .where('token', '=', token)
      .execute();
  }

  async deleteLocks(tokens: readonly string[]): Promise<void> {
    if (tokens.length > 0) await this.db.deleteFrom('dav_locks').where('token', 'in', tokens).execute();
  }

  // ---- what sync clients said of files ---------------------------------------------------------

  /** The time and checksums clients gave with the files' current contents (stale ones left out). */
  async fileMeta(
    items: readonly { id: string; content_id: string | null }[],
  ): Promise<Map<string, DavFileMetaRow>> {
    const files = items.filter((item) => item.content_id !== null);
    if (files.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('dav_file_meta')
      .selectAll()
      .where(
        'item_id',
        'in',
        files.map((file) => file.id),
      )
      .execute();
    const current = new Map(files.map((file) => [file.id, file.content_id]));
    return new Map(
      rows.filter((row) => current.get(row.item_id) === row.content_id).map((row) => [row.item_id, row]),
    );
  }

  /**
   * What clients said of the sources' current contents (their time, their checksums), said of
   * their copies too: a copy, or a move made as one, keeps them.
   */
  async copyFileMeta(
    files: readonly {
      source: { id: string; content_id: string | null };
      copy: { id: string; content_id: string | null };
    }[],
  ): Promise<void> {
    const meta = await this.fileMeta(files.map((file) => file.source));
    for (const { source, copy } of files) {
      const row = meta.get(source.id);
      if (row && copy.content_id !== null)
        await this.saveFileMeta({ ...row, item_id: copy.id, content_id: copy.content_id });
    }
  }

  async saveFileMeta(row: DavFileMetaRow): Promise<void> {
    await this.db
      .insertInto('dav_file_meta')
      .values(row)
      .onConflict((c) =>
        c.column('item_id').doUpdateSet({
          content_id: row.content_id,
          modified_at: row.modified_at,
          checksums: row.checksums,
        }),
      )
      .execute();
  }
}
