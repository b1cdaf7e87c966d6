import { z } from 'zod';
import { DisplayName } from './display-text';
import { EmojiType, Role, ThemeMode } from './enums';

export const Avatar = z.object({
  xs: z.string().nullable(),
  sm: z.string().nullable(),
  md: z.string().nullable(),
});

export const Restrictions = z.object({
  canUpload: z.boolean(),
  canDownload: z.boolean(),
  canCreateFolder: z.boolean(),
  canCreateTeamFolder: z.boolean(),
  reason: z.string().nullable(),
});
export type Restrictions = z.infer<typeof Restrictions>;

export const UserResource = z.object({
  data: z.object({
    id: z.string(),
    type: z.literal('user'),
    attributes: z.object({
      role: Role,
      name: z.string(),
      email: z.string(),
      avatar: Avatar,
      /** Avatar letter: first letter of the name, or of the e-mail when there is no name. */
      letter: z.string(),
      color: z.string(),
      two_factor_confirmed_at: z.string().nullable(),
      email_verified_at: z.string().nullable(),
      created_at: z.string(),
      dateStatus: z.boolean(),
    }),
    relationships: z.object({
      settings: z.object({
        data: z.object({
          type: z.literal('settings'),
          attributes: z.object({
            first_name: z.string().nullable(),
            last_name: z.string().nullable(),
            name: z.string(),
            theme_mode: ThemeMode,
            emoji_type: EmojiType,
            /** The interface language the user chose; null: not chosen. */
            locale: z.string().nullable(),
          }),
        }),
      }),
      readNotifications: z.object({ data: z.array(z.unknown()) }),
      unreadNotifications: z.object({ data: z.array(z.unknown()) }),
    }),
  }),
  meta: z.object({
    usages: z.object({
      /** Metered billing: the current period's cost so far, a decimal string in the instance's currency. */
      costEstimate: z.string().nullable(),
      used: z.number(),
      capacity: z.number().nullable(),
    }),
    restrictions: Restrictions,
    limitations: z.object({
      max_team_members: z.object({ total: z.number().int(), use: z.number().int() }),
      max_storage_amount: z.object({ total: z.number().nullable(), use: z.number() }),
    }),
    allowed_emails: z.array(z.string()),
  }),
});
export type UserResource = z.infer<typeof UserResource>;

/** POST /api/user/settings: one setting at a time. */
export const UserSettingBody = z.discriminatedUnion('name', [
  z.object({ name: z.literal('theme_mode'), value: ThemeMode }),
  z.object({ name: z.literal('emoji_type'), value: EmojiType }),
  z.object({ name: z.literal('first_name'), value: DisplayName }),
  z.object({ name: z.literal('last_name'), value: DisplayName }),
  z.object({ name: z.literal('name'), value: DisplayName }),
  /** One of the instance's languages (GET /api/config `languages`); '' clears the choice. */
  z.object({ name: z.literal('locale'), value: z.string().trim().max(20) }),
]);
export type UserSettingBody = z.infer<typeof UserSettingBody>;
