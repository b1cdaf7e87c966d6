import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database';

/** Single-use, expiring e-mailed tokens (password resets, e-mail verifications), stored hashed. */
export class UserTokensRepository {
  constructor(
    private readonly database: Database,
    private readonly table: 'password_resets' | 'email_verifications',
    private readonly now: () => Date,
  ) {}

  async insert(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.database.db
      .insertInto(this.table)
      .values({
        id: randomUUID(),
        user_id: userId,
        token_hash: tokenHash,
        expires_at: expiresAt.toISOString(),
        used_at: null,
        created_at: this.now().toISOString(),
      })
      .execute();
  }

  /**
   * Marks a live token used and returns its user id; the conditional update makes a race of two
   * requests with the same token succeed only once.
   */
  async consume(tokenHash: string): Promise<string | undefined> {
    const now = this.now().toISOString();
    const row = await this.database.db
      .updateTable(this.table)
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  /** The user of a live token without using it up. */
  async peek(tokenHash: string): Promise<string | undefined> {
    const row = await this.database.db
      .selectFrom(this.table)
      .select('user_id')
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', this.now().toISOString())
      .executeTakeFirst();
    return row?.user_id;
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.database.db.deleteFrom(this.table).where('user_id', '=', userId).execute();
  }
}
