import type { Database } from '../../db/database';
import type { ShareLinkQueries } from '../files/files.ports';
import type { NewShare, RevokedShareRow, ShareRow, ShareSessionRow, SharesTable } from './sharing.tables';

export type ShareChanges = Partial<
  Pick<SharesTable, 'permission' | 'password_hash' | 'expire_in' | 'expires_at'>
>;

/** Share links, their counters and the sessions their passwords open. */
export class SharingRepository implements ShareLinkQueries {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** For the files module's listings: every link, one row per linked item. */
  linkColumns() {
    return this.db
      .selectFrom('shares')
      .select((eb) => [
        'shares.item_id',
        'shares.token',
        'shares.permission',
        eb('shares.password_hash', 'is not', null).as('protected'),
        'shares.expire_in',
      ]);
  }

  /** For the files module's My shared items: the ids of the owner's linked items. */
  linkedItemIds(ownerId: string) {
    return this.db.selectFrom('shares').select('shares.item_id').where('shares.user_id', '=', ownerId);
  }

  insert(share: NewShare): Promise<ShareRow> {
    return this.db.insertInto('shares').values(share).returningAll().executeTakeFirstOrThrow();
  }

  /** The owner's link of that token; undefined for anyone else's. */
  findOwned(ownerId: string, token: string): Promise<ShareRow | undefined> {
    return this.db
      .selectFrom('shares')
      .selectAll()
      .where('token', '=', token)
      .where('user_id', '=', ownerId)
      .executeTakeFirst();
  }

  /** The owner's links, oldest first; only those of these items when they are named. */
  listOwned(ownerId: string, itemIds?: readonly string[]): Promise<ShareRow[]> {
    let query = this.db.selectFrom('shares').selectAll().where('user_id', '=', ownerId);
    if (itemIds) {
      if (itemIds.length === 0) return Promise.resolve([]);
      query = query.where('item_id', 'in', itemIds);
    }
    return query.orderBy('created_at').orderBy('token').execute();
  }

  async countOwned(ownerId: string, tokens: readonly string[]): Promise<number> {
    const { count } = await this.db
      .selectFrom('shares')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', ownerId)
      .where('token', 'in', tokens)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** The link of that token, whoever owns it: the public side's first read. */
  findByToken(token: string): Promise<ShareRow | undefined> {
    return this.db.selectFrom('shares').selectAll().where('token', '=', token).executeTakeFirst();
  }

  /**
   * Applies the changes; a new password (`endSessions`) moves the password version and ends the
   * sessions opened before, in one transaction. Undefined when the link is gone meanwhile.
   */
  async update(
    token: string,
    changes: ShareChanges,
    endSessions: boolean,
    now: string,
  ): Promise<ShareRow | undefined> {
    return this.database.transaction(async (trx) => {
      const share = await trx
        .updateTable('shares')
        .set((eb) => ({
          ...changes,
          ...(endSessions ? { password_version: eb('password_version', '+', 1) } : {}),
          updated_at: now,
        }))
        .where('token', '=', token)
        .returningAll()
        .executeTakeFirst();
      if (share && endSessions) await trx.deleteFrom('share_sessions').where('token', '=', token).execute();
      return share;
    });
  }

  /**
   * Removes the owner's links (their sessions go with them) and keeps a note of each, in one
   * transaction, so their visitors are told the links were revoked.
   */
  async revoke(ownerId: string, tokens: readonly string[], now: string): Promise<void> {
    await this.database.transaction(async (trx) => {
      const revoked = await trx
        .deleteFrom('shares')
        .where('user_id', '=', ownerId)
        .where('token', 'in', tokens)
        .returning('token')
        .execute();
      if (revoked.length === 0) return;
      await trx
        .insertInto('revoked_shares')
        .values(revoked.map(({ token }) => ({ token, user_id: ownerId, revoked_at: now })))
        .execute();
    });
  }

  findRevoked(token: string): Promise<RevokedShareRow | undefined> {
    return this.db.selectFrom('revoked_shares').selectAll().where('token', '=', token).executeTakeFirst();
  }

  async countView(token: string): Promise<void> {
    await this.db
      .updateTable('shares')
      .set((eb) => ({ views: eb('views', '+', 1) }))
      .where('token', '=', token)
      .execute();
  }

  async countDownload(token: string): Promise<void> {
    await this.db
      .updateTable('shares')
      .set((eb) => ({ downloads: eb('downloads', '+', 1) }))
      .where('token', '=', token)
      .execute();
  }

  // ---- sessions ----------------------------------------------------------------------------

  async insertSession(session: ShareSessionRow): Promise<void> {
    await this.db.insertInto('share_sessions').values(session).execute();
  }

  findSession(id: string, token: string, now: string): Promise<ShareSessionRow | undefined> {
    return this.db
      .selectFrom('share_sessions')
      .selectAll()
      .where('id', '=', id)
      .where('token', '=', token)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  // ---- housekeeping ------------------------------------------------------------------------

  /** Removes links that expired before `before` (their sessions go with them); returns how many. */
  async deleteExpiredBefore(before: string): Promise<number> {
    const { numDeletedRows } = await this.db
      .deleteFrom('shares')
      .where('expires_at', 'is not', null)
      .where('expires_at', '<', before)
      .executeTakeFirst();
    return Number(numDeletedRows);
  }

  /** Forgets links revoked before `before`: from then on their tokens answer like unknown ones. */
  async forgetRevokedBefore(before: string): Promise<void> {
    await this.db.deleteFrom('revoked_shares').where('revoked_at', '<', before).execute();
  }

  async deleteSessionsExpiredBy(now: string): Promise<void> {
    await this.db.deleteFrom('share_sessions').where('expires_at', '<=', now).execute();
  }
}
