import { z } from 'zod';
import { Email } from './auth';
import { SHARE_EXPIRY_HOURS, SHARE_PASSWORD_MIN_LENGTH } from './constants';
import { SharePermission } from './enums';
import { ItemType, ZipQuery } from './files';
import { Avatar } from './user';

/** Hours a link lives, from the description's list; null means it never expires. */
export const ShareExpiry = z.literal(SHARE_EXPIRY_HOURS, 'validation.share_expiry').nullable();
export type ShareExpiry = z.infer<typeof ShareExpiry>;

/**
 * A link's last moment, chosen as a date instead of a lifetime from the list (an ISO date-time with
 * its offset); it must lie ahead, within SHARE_EXPIRY_MAX_DAYS.
 */
export const ShareExpiresAt = z.iso.datetime({ offset: true, message: 'validation.share_expires_at' });

/** Either a lifetime from the list or a last moment, never both. */
const oneExpiry = (body: { expiration?: ShareExpiry; expires_at?: string }) =>
  body.expires_at === undefined || body.expiration === undefined || body.expiration === null;
const oneExpiryIssue = { message: 'validation.share_one_expiry', path: ['expires_at'] };

/** A share password: long enough to resist guessing through the throttle, short enough to hash cheaply. */
export const SharePassword = z
  .string()
  .min(SHARE_PASSWORD_MIN_LENGTH, 'validation.share_password_min')
  .max(200);

/** At most this many addresses per e-mail send, so one call cannot turn the instance into a mailer. */
export const SHARE_EMAILS_MAX = 20;
export const ShareEmails = z.array(Email).min(1, 'validation.required').max(SHARE_EMAILS_MAX);

/** A password is required exactly when the link is protected. */
const passwordWhenProtected = (body: { isPassword?: boolean; password?: string | null }) =>
  body.isPassword !== true || (typeof body.password === 'string' && body.password.length > 0);
const passwordIssue = { message: 'validation.share_password_required', path: ['password'] };

/** `POST /api/share`: a file share is always `visitor`. */
export const CreateShareBody = z
  .object({
    id: z.string().max(64),
    type: ItemType,
    permission: SharePermission,
    isPassword: z.boolean().default(false),
    password: SharePassword.nullish(),
    expiration: ShareExpiry.optional(),
    expires_at: ShareExpiresAt.optional(),
    emails: ShareEmails.optional(),
  })
  .refine(passwordWhenProtected, passwordIssue)
  .refine(oneExpiry, oneExpiryIssue);
export type CreateShareBody = z.input<typeof CreateShareBody>;

/**
 * `POST /api/share/{token}` (patch): a field left out keeps its value (the expiry too); `password`
 * alone changes the password of a protected link, `isPassword: false` removes it.
 */
export const UpdateShareBody = z
  .object({
    permission: SharePermission.optional(),
    isPassword: z.boolean().optional(),
    password: SharePassword.nullish(),
    expiration: ShareExpiry.optional(),
    expires_at: ShareExpiresAt.optional(),
  })
  .refine(passwordWhenProtected, passwordIssue)
  .refine(oneExpiry, oneExpiryIssue);
export type UpdateShareBody = z.input<typeof UpdateShareBody>;

export const ShareEmailBody = z.object({ emails: ShareEmails });
export type ShareEmailBody = z.infer<typeof ShareEmailBody>;

export const RevokeSharesBody = z.object({ tokens: z.array(z.string().max(64)).min(1).max(1000) });
export type RevokeSharesBody = z.infer<typeof RevokeSharesBody>;

/**
 * A project's link is also its product page: the page's address, and the two codes that put its
 * embedded view in a shop's page (an iframe, or the embed script's tag that makes that iframe).
 */
export const ShareProduct = z.object({
  link: z.string(),
  iframe: z.string(),
  script: z.string(),
});
export type ShareProduct = z.infer<typeof ShareProduct>;

/** The owner's view of a link. */
export const ShareAttributes = z.object({
  token: z.string(),
  permission: SharePermission,
  protected: z.boolean(),
  /** The lifetime chosen, in hours; null when the link never expires. */
  expire_in: ShareExpiry,
  expires_at: z.string().nullable(),
  item_id: z.string(),
  item_type: ItemType,
  /** The public address of the share page. */
  link: z.string(),
  /** Set when the link shares a project's folder or its output folder; null for any other item. */
  product: ShareProduct.nullable(),
  created_at: z.string(),
  views: z.number().int(),
  downloads: z.number().int(),
});
export type ShareAttributes = z.infer<typeof ShareAttributes>;

export const ShareResource = z.object({
  id: z.string(),
  type: z.literal('share'),
  attributes: ShareAttributes,
});
export type ShareResource = z.infer<typeof ShareResource>;
export const ShareDocument = z.object({ data: ShareResource });
export type ShareDocument = z.infer<typeof ShareDocument>;

/** `GET /api/sharing/{token}`: what an anonymous visitor learns before (and after) the password. */
export const PublicShareAttributes = z.object({
  permission: SharePermission,
  protected: z.boolean(),
  item_type: ItemType,
  expire_in: ShareExpiry,
  /** When the link stops working; null for a link that never expires. */
  expires_at: z.string().nullable(),
  owner: z.object({ name: z.string(), avatar: Avatar }),
  /** Present only once the visitor may see the item (unprotected, or after the password). */
  item_id: z.string().optional(),
});
export type PublicShareAttributes = z.infer<typeof PublicShareAttributes>;
export const PublicShareDocument = z.object({
  data: z.object({ id: z.string(), type: z.literal('share'), attributes: PublicShareAttributes }),
});
export type PublicShareDocument = z.infer<typeof PublicShareDocument>;

export const AuthenticateShareBody = z.object({
  password: z.string().min(1, 'validation.required').max(200),
});
export type AuthenticateShareBody = z.infer<typeof AuthenticateShareBody>;

/** `GET /api/sharing/zip/{token}?items=id|type,…`: all of the share when left out. */
export const ShareZipQuery = ZipQuery.partial();
