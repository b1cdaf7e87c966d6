import type { Database } from '../../db/database';
import type { SessionRow } from '../../db/schema';

/** A live session as the devices list shows it; `id` (the cookie's hash) only to find the current one. */
export type DeviceRow = Pick<
  SessionRow,
  'id' | 'public_id' | 'ip' | 'user_agent' | 'created_at' | 'last_active_at'
>;

/** The sessions table read as a user's signed-in devices. */
export class DevicesRepository {
  constructor(private readonly database: Database) {}

  /** The user's unexpired sessions, most recently active first. */
  listForUser(userId: string, now: string): Promise<DeviceRow[]> {
    return this.database.db
      .selectFrom('sessions')
      .select(['id', 'public_id', 'ip', 'user_agent', 'created_at', 'last_active_at'])
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .orderBy('last_active_at', 'desc')
      .orderBy('created_at', 'desc')
      .execute();
  }

  /** The stored id of the user's session named `publicId`, or undefined when the user has none such. */
  async findForUser(userId: string, publicId: string): Promise<string | undefined> {
    const row = await this.database.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', userId)
      .where('public_id', '=', publicId)
      .executeTakeFirst();
    return row?.id;
  }

  async delete(idHash: string): Promise<void> {
    await this.database.db.deleteFrom('sessions').where('id', '=', idHash).execute();
  }
}
