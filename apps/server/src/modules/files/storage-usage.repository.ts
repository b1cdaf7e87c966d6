import type { Database } from '../../db/database';

/**
 * `storage_usage`, kept by the triggers of items and dead properties: the one source of an owner's
 * bytes used, for the quota, the account's limits and metered billing.
 */
export class StorageUsageRepository {
  constructor(private readonly database: Database) {}

  /** What counts against the owner's quota: their files' bytes and their WebDAV dead properties. */
  async usedBytes(ownerId: string): Promise<number> {
    const row = await this.database.db
      .selectFrom('storage_usage')
      .select('used_bytes')
      .where('user_id', '=', ownerId)
      .executeTakeFirst();
    return Number(row?.used_bytes ?? 0);
  }
}
