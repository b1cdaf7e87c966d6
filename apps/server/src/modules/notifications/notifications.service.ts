import {
  NewNotification,
  NotificationAction,
  type InvitationOutcome,
  type NotificationList,
  type NotificationResource,
} from '@atelier/contracts';
import type { UnitOfWork } from '../../db/database';
import { timeOrderedId } from '../../lib/time-ordered-id';
import type { Broadcaster } from '../../realtime/realtime.server';
import {
  invitationOutcomeAt,
  presentNotification,
  presentNotificationEvent,
  type InvitationAction,
} from './notifications.presenter';
import type { NotificationsRepository } from './notifications.repository';
import type { NotificationRow } from './notifications.table';

/** Read notifications the user resource carries: the newest ones. */
const RECENT_READ_LIMIT = 50;
/** Caps the user resource of an account whose notifications piled up unread for a long time. */
const UNREAD_LIMIT = 999;

/** The notification centre: every notification is stored for its user and pushed to their open tabs. */
export class NotificationsService {
  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly broadcaster: Broadcaster,
    private readonly now: () => Date,
    private readonly units: Pick<UnitOfWork, 'afterCommit'>,
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
      created_at: this.now().toISOString(),
    });
    // Pushed once stored for good: a notification written inside a unit of work that then fails never shows.
    await this.units.afterCommit(() =>
      this.broadcaster.emitToUser(userId, 'notification', presentNotificationEvent(row, this.now())),
    );
    return row;
  }

  async list(userId: string, page: number, perPage: number): Promise<NotificationList> {
    const now = this.now();
    const [rows, counts] = await Promise.all([
      this.notifications.pageForUser(userId, (page - 1) * perPage, perPage),
      this.notifications.countForUser(userId),
    ]);
    return {
      data: rows.map((row) => presentNotification(row, now)),
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

  /**
   * The user resource's readNotifications and unreadNotifications: the bell counts the unread ones,
   * which opening the centre clears, so the list stays short; read ones are only the newest.
   */
  async forUserResource(
    userId: string,
  ): Promise<{ read: NotificationResource[]; unread: NotificationResource[] }> {
    const [read, unread] = await Promise.all([
      this.notifications.latestForUser(userId, true, RECENT_READ_LIMIT),
      this.notifications.latestForUser(userId, false, UNREAD_LIMIT),
    ]);
    const now = this.now();
    const present = (row: NotificationRow) => presentNotification(row, now);
    return { read: read.map(present), unread: unread.map(present) };
  }

  /**
   * Records how a team-folder invitation ended on the notifications that offered it to the user, so
   * they show the outcome (and the folder, once accepted) instead of Accept and Decline for good.
   */
  async settleInvitation(
    userId: string,
    invitation: { id: string; folder_id: string; outcome: InvitationOutcome },
  ): Promise<void> {
    for (const { row, action } of await this.invitationNotices(userId, invitation.id)) {
      const params = { ...action.params, folder_id: invitation.folder_id, outcome: invitation.outcome };
      await this.notifications.setAction(row.id, JSON.stringify({ ...action, params }));
    }
  }

  /**
   * Takes away the user's notifications that still offer a team-folder invitation that is gone (its
   * team dissolved, its folder or its owner deleted) or cannot be answered for now (its folder in the
   * trash): their Accept and Decline could only answer 404, and no outcome fits. Those that already
   * say how it ended (answered, or expired) stay. The user's open tabs are told once it is stored.
   */
  async withdrawInvitation(userId: string, invitationId: string): Promise<void> {
    const now = this.now();
    const offering = (await this.invitationNotices(userId, invitationId)).filter(
      ({ action }) => invitationOutcomeAt(action, now) === undefined,
    );
    if (offering.length === 0) return;
    await this.notifications.deleteMany(offering.map(({ row }) => row.id));
    await this.units.afterCommit(() =>
      this.broadcaster.emitToUser(userId, 'notifications.changed', { user_id: userId }),
    );
  }

  /** Opening the centre reads everything. */
  async readAll(userId: string): Promise<void> {
    await this.notifications.markAllRead(userId, this.now().toISOString());
  }

  async deleteAll(userId: string): Promise<void> {
    await this.notifications.deleteAllForUser(userId);
  }

  /** The user's notifications about this team-folder invitation, with their actions read. */
  private async invitationNotices(userId: string, invitationId: string) {
    const notices: { row: NotificationRow; action: InvitationAction }[] = [];
    for (const row of await this.notifications.withActionFor(userId, 'team-invitation')) {
      const action = NotificationAction.safeParse(JSON.parse(row.action!));
      if (action.data?.type === 'invitation' && action.data.params.id === invitationId)
        notices.push({ row, action: action.data });
    }
    return notices;
  }
}
