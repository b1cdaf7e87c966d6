import type { Database } from '../../db/database';
import type { NotificationRow } from './notifications.table';

export class NotificationsRepository {
  constructor(private readonly database: Database) {}

  async insert(row: NotificationRow): Promise<NotificationRow> {
    return this.database.db.insertInto('notifications').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** A page of one user's notifications, newest first. */
  async pageForUser(userId: string, offset: number, limit: number): Promise<NotificationRow[]> {
    return this.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
  }

  /** The newest read or unread notifications of one user. */
  async latestForUser(userId: string, read: boolean, limit: number): Promise<NotificationRow[]> {
    return this.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .where('read_at', read ? 'is not' : 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  async countForUser(userId: string): Promise<{ total: number; unread: number }> {
    const row = await this.database.db
      .selectFrom('notifications')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.count<number>('id').filterWhere('read_at', 'is', null).as('unread'),
      ])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return { total: Number(row.total), unread: Number(row.unread) };
  }

  async markAllRead(userId: string, now: string): Promise<void> {
    await this.database.db
      .updateTable('notifications')
      .set({ read_at: now })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .execute();
  }

  /** The user's notifications with a button of this category, to find the ones an event settles. */
  withActionFor(userId: string, category: NotificationRow['category']): Promise<NotificationRow[]> {
    return this.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .where('category', '=', category)
      .where('action', 'is not', null)
      .execute();
  }

  async setAction(id: string, action: string): Promise<void> {
    await this.database.db.updateTable('notifications').set({ action }).where('id', '=', id).execute();
  }

  async deleteMany(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.database.db.deleteFrom('notifications').where('id', 'in', ids).execute();
  }

  async deleteAllForUser(userId: string): Promise<void> {
    await this.database.db.deleteFrom('notifications').where('user_id', '=', userId).execute();
  }
}
