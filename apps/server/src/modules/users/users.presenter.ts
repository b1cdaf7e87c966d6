import {
  dateStatusFor,
  type AvatarSize,
  type FileManagerAccess,
  type UserResource,
} from '@atelier/contracts';
import type { EmojiType, ThemeMode } from '@atelier/contracts';
import type { UserRow, UserSettingsRow } from '../../db/schema';

/** Avatar letter: the first letter of the name, or of the e-mail when there is no name. */
export function avatarLetter(user: Pick<UserRow, 'name' | 'email'>): string {
  return (user.name.trim() || user.email).charAt(0).toUpperCase();
}

/** A person's uploaded avatar as URLs of its sizes, or all null for the letter avatar. */
export function presentAvatar(avatar: string | null): Record<AvatarSize, string | null> {
  const url = (size: AvatarSize) => (avatar ? avatarUrl(avatar, size) : null);
  return { xs: url('xs'), sm: url('sm'), md: url('md') };
}

/** Where one size is served; the key is new with every upload, so the URL busts caches by itself. */
function avatarUrl(key: string, size: AvatarSize): string {
  return `/api/avatars/${key}/${size}`;
}

/** The user resource's attributes, also shown by the admin's user list. */
export function presentUserAttributes(
  user: UserRow,
  fileManager: FileManagerAccess,
): UserResource['data']['attributes'] {
  return {
    role: user.role,
    name: user.name,
    email: user.email,
    avatar: presentAvatar(user.avatar),
    letter: avatarLetter(user),
    color: user.color,
    two_factor_confirmed_at: user.two_factor_confirmed_at,
    email_verified_at: user.email_verified_at,
    created_at: user.created_at,
    dateStatus: dateStatusFor(user.created_at, fileManager),
  };
}

export function presentUser(
  user: UserRow,
  fileManager: FileManagerAccess,
  settings: UserSettingsRow | undefined,
  notifications: { read: unknown[]; unread: unknown[] },
  meta: UserResource['meta'],
): UserResource {
  return {
    data: {
      id: user.id,
      type: 'user',
      attributes: presentUserAttributes(user, fileManager),
      relationships: {
        settings: {
          data: {
            type: 'settings',
            attributes: {
              first_name: settings?.first_name ?? null,
              last_name: settings?.last_name ?? null,
              name: user.name,
              theme_mode: (settings?.theme_mode ?? 'system') as ThemeMode,
              emoji_type: (settings?.emoji_type ?? 'twemoji') as EmojiType,
              locale: settings?.locale ?? null,
            },
          },
        },
        readNotifications: { data: notifications.read },
        unreadNotifications: { data: notifications.unread },
      },
    },
    meta,
  };
}
