import { z } from 'zod';
import { NotificationCategory } from './enums';
import { NotificationAction } from './notifications';

/** The private room of one user; only the server joins sockets to it, after checking the session. */
export function userRoom(userId: string): string {
  return `user.${userId}`;
}

export const RealtimeEventName = {
  testConnection: 'TestWebsocketConnection',
  remoteFileCreated: 'RemoteFile.Created',
  notification: 'notification',
  projectAsset: 'project.asset',
  translationsUpdated: 'translations.updated',
  userUpdated: 'user.updated',
  itemsChanged: 'items.changed',
  notificationsChanged: 'notifications.changed',
} as const;

export const TestWebsocketConnectionPayload = z.object({ message: z.string() });

/**
 * One address of a remote upload settled. `processed` counts the stored and the failed ones, so the
 * upload is over when it reaches `total`.
 */
export const RemoteFileCreatedPayload = z.object({
  /** The remote upload (the id its 202 answer gave). */
  upload_id: z.string(),
  /** The file resource of the description, as the browse calls present it; null when the address failed. */
  file: z
    .object({ id: z.string(), type: z.string(), attributes: z.record(z.string(), z.unknown()) })
    .nullable(),
  progress: z.object({ total: z.number().int(), processed: z.number().int(), failed: z.number().int() }),
});

/** The description's real-time notification payload. */
export const NotificationPayload = z.object({
  id: z.string(),
  category: NotificationCategory,
  title: z.string(),
  description: z.string(),
  action: NotificationAction.nullable(),
});

export const ProjectAssetStatus = z.enum(['queued', 'rendering', 'done', 'failed']);
export type ProjectAssetStatus = z.infer<typeof ProjectAssetStatus>;

export const ProjectAssetPayload = z.object({
  job_id: z.string(),
  project_id: z.string(),
  status: ProjectAssetStatus,
  /** Whole percent 0..100. */
  progress: z.number().int().min(0).max(100),
  /** The output file once `done`. */
  file: z
    .object({ id: z.string(), type: z.string(), attributes: z.record(z.string(), z.unknown()) })
    .optional(),
  /** Why it failed, once `failed`. */
  error: z.string().optional(),
});

/** An administrator changed the account (role, capacity, name): the web fetches the user resource again. */
export const UserUpdatedPayload = z.object({ user_id: z.string() });

/** Items of this owner's tree changed (any writer, any client): the listings open on them fetch again. */
export const ItemsChangedPayload = z.object({ owner_id: z.string() });

/**
 * The user's notifications changed other than by one arriving (an invitation's offer taken back): the
 * notification centre and the bell fetch them again. A new one arrives as `notification`.
 */
export const NotificationsChangedPayload = z.object({ user_id: z.string() });

/**
 * The admin changed a language's strings; open pages in that language fetch them again. A change to
 * English reaches every language, whose untranslated keys show the English text.
 */
export const TranslationsUpdatedPayload = z.object({ locale: z.string() });

/** Every event the server sends, with its payload; Socket.IO's typed server and client use this map. */
export interface ServerToClientEvents {
  TestWebsocketConnection: (payload: z.infer<typeof TestWebsocketConnectionPayload>) => void;
  'RemoteFile.Created': (payload: z.infer<typeof RemoteFileCreatedPayload>) => void;
  notification: (payload: z.infer<typeof NotificationPayload>) => void;
  'project.asset': (payload: z.infer<typeof ProjectAssetPayload>) => void;
  'translations.updated': (payload: z.infer<typeof TranslationsUpdatedPayload>) => void;
  'user.updated': (payload: z.infer<typeof UserUpdatedPayload>) => void;
  'items.changed': (payload: z.infer<typeof ItemsChangedPayload>) => void;
  'notifications.changed': (payload: z.infer<typeof NotificationsChangedPayload>) => void;
}
export type RealtimeEvent = keyof ServerToClientEvents;
export type RealtimePayload<E extends RealtimeEvent> = Parameters<ServerToClientEvents[E]>[0];
