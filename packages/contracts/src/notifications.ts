import { z } from 'zod';
import { WEB_URL_PROTOCOL } from './constants';
import { NotificationCategory } from './enums';
import { Paginate } from './resource';

/** A `url` action's address: http or https only, since a `javascript:` link would run in the app. */
export const NotificationUrl = z.url({ protocol: WEB_URL_PROTOCOL });

export const NotificationActionType = z.enum(['invitation', 'route', 'url']);
export type NotificationActionType = z.infer<typeof NotificationActionType>;

/** How a team-folder invitation ended, once it has: its notification shows this instead of the buttons. */
export const InvitationOutcome = z.enum(['accepted', 'rejected', 'expired']);
export type InvitationOutcome = z.infer<typeof InvitationOutcome>;

/**
 * A notification's button: an invitation (accept/decline with `params.id`), a named route of the
 * web app with an id param, or an external URL opened in a new tab when `target` is `blank`.
 */
export const NotificationAction = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('invitation'),
    params: z.object({
      id: z.string(),
      /** The team folder, which an accepted invitation's notification opens. */
      folder_id: z.string().optional(),
      /** When the invitation lapses unanswered. */
      expires_at: z.string().optional(),
      /** Set once the invitation was answered or lapsed, in place of Accept and Decline. */
      outcome: InvitationOutcome.optional(),
    }),
  }),
  z.object({
    type: z.literal('route'),
    params: z.object({ route: z.string().min(1), id: z.string().optional(), button: z.string().optional() }),
  }),
  z.object({
    type: z.literal('url'),
    params: z.object({
      url: NotificationUrl,
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

/** What a module passes to `notify`: stored for the user and pushed to their open tabs. */
export const NewNotification = z.object({
  category: NotificationCategory,
  title: z.string().min(1).max(200),
  description: z.string().max(2000),
  action: NotificationAction.nullable().default(null),
});
export type NewNotification = z.input<typeof NewNotification>;

export const NotificationListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(500).default(50),
});

/** GET /api/notifications: newest first, with the unread count for the bell badge. */
export const NotificationList = z.object({
  data: z.array(NotificationResource),
  meta: z.object({ paginate: Paginate, unread: z.number().int() }),
});
export type NotificationList = z.infer<typeof NotificationList>;
