import { NotificationAction, type NotificationResource, type RealtimePayload } from '@atelier/contracts';
import type { NotificationRow } from './notifications.table';

/**
 * A stored action that no longer passes the contract (a URL stored before only http(s) passed) shows
 * no button; an invitation left unanswered past its expiry says it expired.
 */
function actionOf(row: NotificationRow, now: Date): NotificationAction | null {
  if (row.action === null) return null;
  const parsed = NotificationAction.safeParse(JSON.parse(row.action));
  if (!parsed.success) return null;
  const action = parsed.data;
  if (action.type !== 'invitation' || action.params.outcome || !action.params.expires_at) return action;
  return new Date(action.params.expires_at) <= now
    ? { ...action, params: { ...action.params, outcome: 'expired' } }
    : action;
}

export function presentNotification(row: NotificationRow, now: Date): NotificationResource {
  return {
    id: row.id,
    type: 'notification',
    attributes: {
      category: row.category,
      title: row.title,
      description: row.description,
      action: actionOf(row, now),
      read_at: row.read_at,
      created_at: row.created_at,
    },
  };
}

/** The description's real-time payload: category, id, action, description, title. */
export function presentNotificationEvent(row: NotificationRow, now: Date): RealtimePayload<'notification'> {
  return {
    id: row.id,
    category: row.category,
    title: row.title,
    description: row.description,
    action: actionOf(row, now),
  };
}
