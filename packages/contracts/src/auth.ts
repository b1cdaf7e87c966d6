import { z } from 'zod';
import { DisplayName } from './display-text';

/**
 * Text, an at sign, then dot-separated labels, with no spaces (description, section 5). The labels
 * exclude the dot, so there is one way to match any input: linear time, whatever a client sends.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
export const EMAIL_MAX_LENGTH = 254;
/** The length check aborts, so an oversized value is refused before the pattern ever runs. */
export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH, { message: 'validation.email', abort: true })
  .regex(EMAIL_PATTERN, 'validation.email');
export const Password = z.string().min(8, 'validation.password_min').max(200);

const confirmed = <T extends { password: string; password_confirmation: string }>(v: T) =>
  v.password === v.password_confirmation;
const confirmation = { message: 'validation.password_confirmation', path: ['password_confirmation'] };

export const RegisterBody = z
  .object({
    name: DisplayName,
    email: Email,
    password: Password,
    password_confirmation: z.string(),
  })
  .refine(confirmed, confirmation);
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z.object({
  email: Email,
  password: z.string().min(1, 'validation.required').max(200),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const PasswordRecoverBody = z.object({ email: Email });
export const PasswordResetBody = z
  .object({ token: z.string().min(1), email: Email, password: Password, password_confirmation: z.string() })
  .refine(confirmed, confirmation);
export type PasswordResetBody = z.infer<typeof PasswordResetBody>;

export const ContactBody = z.object({
  email: Email,
  message: z.string().trim().min(1, 'validation.required').max(5000),
});
export type ContactBody = z.infer<typeof ContactBody>;
