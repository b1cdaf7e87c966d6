import type { Selectable } from 'kysely';
import type { NotificationCategory } from '@atelier/contracts';
import type { z } from 'zod';

export interface NotificationsTable {
  id: string;
  user_id: string;
  category: z.infer<typeof NotificationCategory>;
  title: string;
  description: string;
  /** JSON of the NotificationAction, or null for a notification without a button. */
  action: string | null;
  /** Unread while null. */
  read_at: string | null;
  created_at: string;
}
export type NotificationRow = Selectable<NotificationsTable>;

declare module '../../db/schema' {
  interface DB {
    notifications: NotificationsTable;
  }
}
