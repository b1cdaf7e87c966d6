import { NotificationAction, type NotificationResource, type RealtimePayload } from '@atelier/contracts';
import type { NotificationRow } from './notifications.table';

function actionOf(row: NotificationRow) {
  return row.action === null ? null : NotificationAction.parse(JSON.parse(row.action));
}

export function presentNotification(row: NotificationRow): NotificationResource {
  return {
    id: row.id,
    type: 'notification',
    attributes: {
      category: row.category,
      title: row.title,
      description: row.description,
      action: actionOf(row),
      read_at: row.read_at,
      created_at: row.created_at,
    },
  };
}

/** The description's real-time payload: category, id, action, description, title. */
export function presentNotificationEvent(row: NotificationRow): RealtimePayload<'notification'> {
  return {
    id: row.id,
    category: row.category,
    title: row.title,
    description: row.description,
    action: actionOf(row),
  };
}
