import type { Database } from '../../db/database';
import type { SessionRow, UserRow } from '../../db/schema';

export class SessionsRepository {
  constructor(private readonly database: Database) {}

  async insert(session: SessionRow): Promise<void> {
    await this.database.db.insertInto('sessions').values(session).execute();
  }

  /** The user of a live session, or undefined when it is unknown or expired. */
  async findUser(idHash: string, now: string): Promise<UserRow | undefined> {
    return this.database.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .where('sessions.id', '=', idHash)
      .where('sessions.expires_at', '>', now)
      .executeTakeFirst();
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
