import type { Database } from '../../db/database';
import type { LoginFlowRow, NewLoginFlow } from './login-flows.tables';

export class LoginFlowsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  async insert(row: NewLoginFlow): Promise<void> {
    await this.db.insertInto('login_flows').values(row).execute();
  }

  /** A flow nobody has granted yet, by its login token's hash, while it lasts. */
  findWaiting(loginTokenHash: string, now: string): Promise<LoginFlowRow | undefined> {
    return this.db
      .selectFrom('login_flows')
      .selectAll()
      .where('login_token_hash', '=', loginTokenHash)
      .where('user_id', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** Grants a waiting flow to the user; false when none waits under that token. */
  async grant(loginTokenHash: string, userId: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('login_flows')
      .set({ user_id: userId })
      .where('login_token_hash', '=', loginTokenHash)
      .where('user_id', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Ends a waiting flow; false when none waits under that token. */
  async deleteWaiting(loginTokenHash: string, now: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('login_flows')
      .where('login_token_hash', '=', loginTokenHash)
      .where('user_id', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * Takes a granted, live flow away by its poll token's hash and returns it: the delete is the one
   * step that decides, so two polls racing each other get it once between them.
   */
  claimGranted(pollTokenHash: string, now: string): Promise<LoginFlowRow | undefined> {
    return this.db
      .deleteFrom('login_flows')
      .where('poll_token_hash', '=', pollTokenHash)
      .where('user_id', 'is not', null)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
  }

  /** The flows granted to the user and not yet collected by their client. */
  async deleteGrantedTo(userId: string): Promise<void> {
    await this.db.deleteFrom('login_flows').where('user_id', '=', userId).execute();
  }

  async deleteExpired(now: string): Promise<void> {
    await this.db.deleteFrom('login_flows').where('expires_at', '<=', now).execute();
  }
}
