import { z } from 'zod';
import { NotificationCategory } from './enums';

export const NotificationActionType = z.enum(['invitation', 'route', 'url']);
export type NotificationActionType = z.infer<typeof NotificationActionType>;

/**
 * A notification's button: an invitation (accept/decline with `params.id`), a named route of the
 * web app with an id param, or an external URL opened in a new tab when `target` is `blank`.
 */
export const NotificationAction = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('invitation'),
    params: z.object({ id: z.string() }),
  }),
  z.object({
    type: z.literal('route'),
    params: z.object({ route: z.string().min(1), id: z.string().optional(), button: z.string().optional() }),
  }),
  z.object({
    type: z.literal('url'),
    params: z.object({
      url: z.string().url(),
      button: z.string().optional(),
      target: z.enum(['blank', 'self']).optional(),
    }),
  }),
]);
export type NotificationAction = z.infer<typeof NotificationAction>;

export const NotificationResource = z.object({
  id: z.string(),
  type: z.literal('notification'),
  attributes: z.object({
    category: NotificationCategory,
    title: z.string(),
    description: z.string(),
    action: NotificationAction.nullable(),
    read_at: z.string().nullable(),
    created_at: z.string(),
  }),
});
export type NotificationResource = z.infer<typeof NotificationResource>;

/** GET /api/notifications: newest first. */
export const NotificationList = z.object({
  data: z.array(NotificationResource),
  meta: z.object({ unread: z.number().int() }),
});
export type NotificationList = z.infer<typeof NotificationList>;
