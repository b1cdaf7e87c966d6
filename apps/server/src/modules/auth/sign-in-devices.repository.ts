import type { Database } from '../../db/database';

/** A browser known to an account (see migration 0029): the SHA-256 of its cookie, per account. */
export interface SignInDevicesTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  last_used_at: string;
}

declare module '../../db/schema' {
  interface DB {
    sign_in_devices: SignInDevicesTable;
  }
}

/** Browsers kept per account; the least recently used go first beyond this. */
const DEVICES_PER_USER = 20;

export class SignInDevicesRepository {
  constructor(private readonly database: Database) {}

  async isKnown(tokenHash: string, userId: string): Promise<boolean> {
    const row = await this.database.db
      .selectFrom('sign_in_devices')
      .select('user_id')
      .where('token_hash', '=', tokenHash)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Records the browser for the user (again), and forgets the user's oldest beyond the limit. */
  async remember(tokenHash: string, userId: string, now: string): Promise<void> {
    await this.database.db
      .insertInto('sign_in_devices')
      .values({ token_hash: tokenHash, user_id: userId, created_at: now, last_used_at: now })
      .onConflict((oc) => oc.columns(['token_hash', 'user_id']).doUpdateSet({ last_used_at: now }))
      .execute();
    const kept = this.database.db
      .selectFrom('sign_in_devices')
      .select('token_hash')
      .where('user_id', '=', userId)
      .orderBy('last_used_at', 'desc')
      .orderBy('token_hash')
      .limit(DEVICES_PER_USER);
    await this.database.db
      .deleteFrom('sign_in_devices')
      .where('user_id', '=', userId)
      .where('token_hash', 'not in', kept)
      .execute();
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.database.db.deleteFrom('sign_in_devices').where('user_id', '=', userId).execute();
  }
}
