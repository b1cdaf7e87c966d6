import {
  NotificationAction,
  type InvitationOutcome,
  type NotificationResource,
  type RealtimePayload,
} from '@atelier/contracts';
import type { NotificationRow } from './notifications.table';

export type InvitationAction = Extract<NotificationAction, { type: 'invitation' }>;

/**
 * How the invitation a notification offers has ended, as the notification shows it at `now`: the
 * outcome stored once it was answered, or `expired` once left unanswered past its expiry; undefined
 * while it still offers Accept and Decline.
 */
export function invitationOutcomeAt(action: InvitationAction, now: Date): InvitationOutcome | undefined {
  const { outcome, expires_at } = action.params;
  if (outcome || !expires_at) return outcome;
  return new Date(expires_at) <= now ? 'expired' : undefined;
}

/**
 * A stored action that no longer passes the contract (a URL stored before only http(s) passed) shows
 * no button; an invitation left unanswered past its expiry says it expired.
 */
function actionOf(row: NotificationRow, now: Date): NotificationAction | null {
  if (row.action === null) return null;
  const parsed = NotificationAction.safeParse(JSON.parse(row.action));
  if (!parsed.success) return null;
  const action = parsed.data;
  if (action.type !== 'invitation') return action;
  const outcome = invitationOutcomeAt(action, now);
  return outcome ? { ...action, params: { ...action.params, outcome } } : action;
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
