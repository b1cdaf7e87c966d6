import type { Database } from '../../db/database';
import type { SessionRow, UserRow } from '../../db/schema';
import { preparedQuery } from '../../db/prepared-query';
import { accountRows } from '../users/account-queries';

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

  async insert(session: SessionRow): Promise<void> {
    await this.database.db.insertInto('sessions').values(session).execute();
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
