import { NotificationAction, type NotificationResource, type RealtimePayload } from '@atelier/contracts';
import type { NotificationRow } from './notifications.table';

/** A stored action that no longer passes the contract (a URL stored before only http(s) passed) shows no button. */
function actionOf(row: NotificationRow): NotificationAction | null {
  if (row.action === null) return null;
  const action = NotificationAction.safeParse(JSON.parse(row.action));
  return action.success ? action.data : null;
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
