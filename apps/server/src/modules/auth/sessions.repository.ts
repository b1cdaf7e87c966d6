import type { Database } from '../../db/database';
import type { SessionRow, UserRow } from '../../db/schema';
import { preparedQuery } from '../../db/prepared-query';
import { accountCredentials, accountRows } from '../users/account-queries';

/** Every request that carries a session reads it: compiled once. */
const liveSession = preparedQuery((db, session: { idHash: string; now: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin(accountRows(db).as('account'), 'account.id', 'sessions.user_id')
    .selectAll('account')
    .select('sessions.last_active_at as session_last_active_at')
    .where('sessions.id', '=', session.idHash)
    .where('sessions.expires_at', '>', session.now),
);

export class SessionsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Stores the session while the account's password is still `passwordHash`, the one the sign-in
   * proved; false when it has changed meanwhile. The account's row is locked on PostgreSQL, so a
   * reset that commits while this runs either finds the session and ends it, or is found here.
   */
  async insertWhilePassword(session: SessionRow, passwordHash: string): Promise<boolean> {
    return this.database.transaction(async (trx) => {
      const account = trx
        .selectFrom(accountCredentials(trx).as('account'))
        .select('account.password_hash')
        .where('account.id', '=', session.user_id);
      const current = await (
        this.database.dialect === 'postgres' ? account.forUpdate() : account
      ).executeTakeFirst();
      if (current?.password_hash !== passwordHash) return false;
      await trx.insertInto('sessions').values(session).execute();
      return true;
    });
  }

  /** The user of a live session and when it was last active, or undefined when it is unknown or expired. */
  async findLive(idHash: string, now: string): Promise<{ user: UserRow; lastActiveAt: string } | undefined> {
    const [row] = await liveSession(this.database, { idHash, now });
    if (!row) return undefined;
    const { session_last_active_at: lastActiveAt, ...user } = row;
    return { user, lastActiveAt };
  }

  async touch(idHash: string, now: string): Promise<void> {
    await this.database.db
      .updateTable('sessions')
      .set({ last_active_at: now })
      .where('id', '=', idHash)
      .execute();
  }

  async delete(idHash: string): Promise<void> {
    await this.database.db.deleteFrom('sessions').where('id', '=', idHash).execute();
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.database.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }

  async deleteForUserExcept(userId: string, keptIdHash: string): Promise<void> {
    await this.database.db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('id', '!=', keptIdHash)
      .execute();
  }

  async deleteExpiredForUser(userId: string, now: string): Promise<void> {
    await this.database.db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('expires_at', '<=', now)
      .execute();
  }
}
