import { NewNotification, type NotificationList } from '@atelier/contracts';
import { timeOrderedId } from '../../lib/time-ordered-id';
import type { Broadcaster } from '../../realtime/realtime.server';
import { presentNotification, presentNotificationEvent } from './notifications.presenter';
import type { NotificationsRepository } from './notifications.repository';
import type { NotificationRow } from './notifications.table';

/** The notification centre: every notification is stored for its user and pushed to their open tabs. */
export class NotificationsService {
  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly broadcaster: Broadcaster,
  ) {}

  async notify(userId: string, notification: NewNotification): Promise<NotificationRow> {
    const input = NewNotification.parse(notification);
    const row = await this.notifications.insert({
      id: timeOrderedId(),
      user_id: userId,
      category: input.category,
      title: input.title,
      description: input.description,
      action: input.action ? JSON.stringify(input.action) : null,
      read_at: null,
      created_at: new Date().toISOString(),
    });
    await this.broadcaster.emitToUser(userId, 'notification', presentNotificationEvent(row));
    return row;
  }

  async list(userId: string, page: number, perPage: number): Promise<NotificationList> {
    const [rows, counts] = await Promise.all([
      this.notifications.pageForUser(userId, (page - 1) * perPage, perPage),
      this.notifications.countForUser(userId),
    ]);
    return {
      data: rows.map(presentNotification),
      meta: {
        paginate: {
          current_page: page,
          per_page: perPage,
          total: counts.total,
          last_page: Math.max(1, Math.ceil(counts.total / perPage)),
        },
        unread: counts.unread,
      },
    };
  }

  /** Opening the centre reads everything. */
  async readAll(userId: string): Promise<void> {
    await this.notifications.markAllRead(userId, new Date().toISOString());
  }

  async deleteAll(userId: string): Promise<void> {
    await this.notifications.deleteAllForUser(userId);
  }
}
