import type { Database } from '../../db/database';

/**
 * Setup tokens are rows of the settings table keyed by their hash: the database is what every API
 * node shares, and the wizard's database switch carries the settings rows over.
 */
const KEY_PREFIX = 'setup-token:';

export class SetupTokensRepository {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date,
  ) {}

  async insert(tokenHash: string): Promise<void> {
    const now = this.now().toISOString();
    await this.database.db
      .insertInto('settings')
      .values({ key: KEY_PREFIX + tokenHash, value: JSON.stringify(now), updated_at: now })
      .execute();
  }

  async exists(tokenHash: string): Promise<boolean> {
    const row = await this.database.db
      .selectFrom('settings')
      .select('key')
      .where('key', '=', KEY_PREFIX + tokenHash)
      .executeTakeFirst();
    return row !== undefined;
  }

  async deleteAll(): Promise<void> {
    await this.database.db.deleteFrom('settings').where('key', 'like', `${KEY_PREFIX}%`).execute();
  }
}
