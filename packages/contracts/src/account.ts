import { z } from 'zod';
import { Password } from './auth';

/** The largest avatar image the server takes (POST /api/user/avatar). */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** Image types an avatar may be, recognised from its bytes. */
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** Side in pixels of each stored square avatar; the description names the sizes but not their pixels. */
export const AVATAR_SIZES = { xs: 32, sm: 64, md: 128 } as const;
export type AvatarSize = keyof typeof AVATAR_SIZES;

/** GET /api/avatars/{key}/{size}: one stored size of an avatar. */
export const AvatarParams = z.object({
  key: z.string().regex(/^[0-9a-f]{32}$/),
  size: z.enum(['xs', 'sm', 'md']),
});

/** POST /api/user/password. */
export const ChangePasswordBody = z
  .object({
    current_password: z.string().min(1, 'validation.required').max(200),
    password: Password,
    password_confirmation: z.string(),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: 'validation.password_confirmation',
    path: ['password_confirmation'],
  });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;
