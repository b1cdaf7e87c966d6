import type { Database } from '../../db/database';

/** A sign-in that proved the password and waits for the second factor (see migration 0016). */
export interface TwoFactorChallengesTable {
  /** SHA-256 of the cookie value. */
  id: string;
  user_id: string;
  expires_at: string;
  created_at: string;
}

declare module '../../db/schema' {
  interface DB {
    two_factor_challenges: TwoFactorChallengesTable;
  }
}

export class SignInChallengesRepository {
  constructor(private readonly database: Database) {}

  /** Stores a challenge and forgets the user's lapsed ones, so the table stays small. */
  async insert(challenge: TwoFactorChallengesTable): Promise<void> {
    await this.database.transaction(async (trx) => {
      await trx
        .deleteFrom('two_factor_challenges')
        .where('user_id', '=', challenge.user_id)
        .where('expires_at', '<=', challenge.created_at)
        .execute();
      await trx.insertInto('two_factor_challenges').values(challenge).execute();
    });
  }

  /** The user a live challenge waits for. */
  async findUserId(idHash: string, now: string): Promise<string | undefined> {
    const row = await this.database.db
      .selectFrom('two_factor_challenges')
      .select('user_id')
      .where('id', '=', idHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.user_id;
  }

  /** True only for the one request that deleted it, so a challenge opens one session at most. */
  async delete(idHash: string): Promise<boolean> {
    const result = await this.database.db
      .deleteFrom('two_factor_challenges')
      .where('id', '=', idHash)
      .executeTakeFirst();
    return result.numDeletedRows === 1n;
  }

  /** Every sign-in of the user waiting for a code (two-factor sign-in was turned off). */
  async deleteForUser(userId: string): Promise<void> {
    await this.database.db.deleteFrom('two_factor_challenges').where('user_id', '=', userId).execute();
  }
}
