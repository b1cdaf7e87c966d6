import { sql } from 'kysely';
import type { Database } from '../../db/database';
import type { ItemRow } from '../files/files.tables';
import type { DavLockRow, DavPropertyRow } from './webdav.tables';

/** Items as WebDAV walks them by name, dead properties and locks. Every query names the owner it reads. */
export class WebdavRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  // ---- items by name -----------------------------------------------------------------------

  /** The live item of that name in a folder (null: the root); folders first, then the oldest. */
  findLiveChild(ownerId: string, parentId: string | null, name: string): Promise<ItemRow | undefined> {
    return this.db
      .selectFrom('items')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('parent_id', parentId === null ? 'is' : '=', parentId)
      .where('deleted_at', 'is', null)
      .where('name', '=', name)
      .orderBy('type', 'desc')
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .executeTakeFirst();
  }

  /** Every live item in a folder, by name: a PROPFIND lists a folder whole, in one read. */
  listLiveChildren(ownerId: string, parentId: string | null): Promise<ItemRow[]> {
    return this.db
      .selectFrom('items')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('parent_id', parentId === null ? 'is' : '=', parentId)
      .where('deleted_at', 'is', null)
      .orderBy('sort_name', 'asc')
      .execute();
  }

  /** The names from the owner's root down to the folder, the folder's own last. */
  async namesDownTo(ownerId: string, folderId: string): Promise<string[]> {
    const rows = await this.db
      .withRecursive('up(id, parent_id, name, depth)', (db) =>
        db
          .selectFrom('items')
          .select(['id', 'parent_id', 'name', sql<number>`0`.as('depth')])
          .where('user_id', '=', ownerId)
          .where('id', '=', folderId)
          .unionAll((db) =>
            db
              .selectFrom('items')
              .innerJoin('up', 'up.parent_id', 'items.id')
              .select(['items.id', 'items.parent_id', 'items.name', sql<number>`up.depth + 1`.as('depth')]),
          ),
      )
      .selectFrom('up')
      .select('name')
      .orderBy('depth', 'desc')
      .execute();
    return rows.map((row) => row.name);
  }

  /** Replaces a file's bytes with those another item of the owner was just filed with; that item goes. */
  async takeContent(ownerId: string, targetId: string, source: ItemRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('items').where('user_id', '=', ownerId).where('id', '=', source.id).execute();
      await trx.deleteFrom('thumbnails').where('item_id', '=', targetId).execute();
      await trx
        .updateTable('items')
        .set({
          storage_key: source.storage_key,
          size: source.size,
          mimetype: source.mimetype,
          updated_at: source.updated_at,
        })
        .where('user_id', '=', ownerId)
        .where('id', '=', targetId)
        .execute();
    });
  }

  // ---- dead properties ---------------------------------------------------------------------

  /** The dead properties of the items, and of the live children of `parentId` when one is given. */
  properties(
    ownerId: string,
    itemIds: readonly string[],
    parentId?: string | null,
  ): Promise<DavPropertyRow[]> {
    if (itemIds.length === 0 && parentId === undefined) return Promise.resolve([]);
    return this.db
      .selectFrom('dav_properties')
      .innerJoin('items', 'items.id', 'dav_properties.item_id')
      .selectAll('dav_properties')
      .where('items.user_id', '=', ownerId)
      .where((eb) =>
        eb.or([
          ...(itemIds.length > 0 ? [eb('items.id', 'in', itemIds)] : []),
          ...(parentId !== undefined
            ? [
                eb.and([
                  eb('items.parent_id', parentId === null ? 'is' : '=', parentId),
                  eb('items.deleted_at', 'is', null),
                ]),
              ]
            : []),
        ]),
      )
      .execute();
  }

  /** Sets and removes an item's dead properties at once. */
  async patchProperties(
    itemId: string,
    set: readonly Omit<DavPropertyRow, 'item_id'>[],
    remove: readonly Pick<DavPropertyRow, 'namespace' | 'name'>[],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
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
          .values(set.map((property) => ({ ...property, item_id: itemId })))
          .execute();
    });
  }

  /** Gives copies the properties of their originals (`copies`: original id -> copy id). */
  async copyProperties(copies: ReadonlyMap<string, string>): Promise<void> {
    const originals = [...copies.keys()];
    for (let i = 0; i < originals.length; i += 500) {
      const rows = await this.db
        .selectFrom('dav_properties')
        .selectAll()
        .where('item_id', 'in', originals.slice(i, i + 500))
        .execute();
      if (rows.length > 0)
        await this.db
          .insertInto('dav_properties')
          .values(rows.map((row) => ({ ...row, item_id: copies.get(row.item_id)! })))
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

  /** Adds a lock unless a live one it conflicts with holds (checked again inside the transaction). */
  async insertLock(
    lock: DavLockRow,
    now: string,
    conflicts: (held: DavLockRow[]) => boolean,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
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
      if (conflicts(held)) return false;
      await trx.insertInto('dav_locks').values(lock).execute();
      return true;
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
}
