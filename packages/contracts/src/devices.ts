import { z } from 'zod';

/** How long an app password's name may be, in characters. */
export const APP_PASSWORD_NAME_MAX = 100;
/** How many app passwords one user may hold. */
export const APP_PASSWORDS_MAX = 50;

/** POST /api/user/app-passwords. */
export const CreateAppPasswordBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .max(APP_PASSWORD_NAME_MAX, 'validation.app_password_name_too_long'),
});
export type CreateAppPasswordBody = z.infer<typeof CreateAppPasswordBody>;

/** DELETE /api/user/app-passwords/{id}; an id that is no app password of the user's is 404. */
export const AppPasswordParams = z.object({ id: z.string().max(64) });

export const AppPasswordResource = z.object({
  id: z.string(),
  type: z.literal('app_password'),
  attributes: z.object({
    name: z.string(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
  }),
});
export type AppPasswordResource = z.infer<typeof AppPasswordResource>;

/** GET /api/user/app-passwords: newest first; the passwords themselves are never listed. */
export const AppPasswordList = z.object({ data: z.array(AppPasswordResource) });
export type AppPasswordList = z.infer<typeof AppPasswordList>;

/** The answer to POST /api/user/app-passwords: the only time the password is shown. */
export const CreatedAppPassword = z.object({ id: z.string(), name: z.string(), password: z.string() });
export type CreatedAppPassword = z.infer<typeof CreatedAppPassword>;

export const DeviceKind = z.enum(['desktop', 'mobile', 'tablet', 'other']);
export type DeviceKind = z.infer<typeof DeviceKind>;

/** A signed-in session, named by a public id (never by what the cookie or the database holds). */
export const SessionResource = z.object({
  id: z.string(),
  type: z.literal('session'),
  attributes: z.object({
    created_at: z.string(),
    last_active_at: z.string(),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    /** Read from the user agent, e.g. "Firefox 128"; null when it names no browser. */
    browser: z.string().nullable(),
    /** E.g. "macOS 14.5"; null when unknown. */
    os: z.string().nullable(),
    device: DeviceKind,
    /** The session of the request that listed it. */
    current: z.boolean(),
  }),
});
export type SessionResource = z.infer<typeof SessionResource>;

/** DELETE /api/user/sessions/{id}, by the session's public id. */
export const SessionParams = z.object({ id: z.string().max(64) });

/** GET /api/user/sessions: the user's live sessions, most recently active first. */
export const SessionList = z.object({ data: z.array(SessionResource) });
export type SessionList = z.infer<typeof SessionList>;
