import { z } from 'zod';

/** How many recovery codes confirming two-factor authentication (or regenerating them) hands out. */
export const RECOVERY_CODE_COUNT = 10;
/** How long a sign-in that answered `{ two_factor: true }` waits for its code. */
export const TWO_FACTOR_CHALLENGE_MINUTES = 5;

const AccountPassword = z.string().min(1, 'validation.required').max(200);

/** POST and DELETE /api/user/two-factor-authentication, POST /api/user/two-factor-recovery-codes. */
export const TwoFactorPasswordBody = z.object({ password: AccountPassword });
export type TwoFactorPasswordBody = z.infer<typeof TwoFactorPasswordBody>;

/** A six-digit code of an authenticator app; spaces some apps show in the middle are dropped. */
const TotpCode = z
  .string()
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'two_factor.code_format'));

/** POST /api/user/confirmed-two-factor-authentication. */
export const ConfirmTwoFactorBody = z.object({ code: TotpCode });
export type ConfirmTwoFactorBody = z.infer<typeof ConfirmTwoFactorBody>;

/** POST /api/two-factor-challenge with the authenticator's code... */
export const TwoFactorCodeAnswer = z.object({ code: TotpCode }).strict();
/** ...or with one recovery code. */
export const RecoveryCodeAnswer = z
  .object({ recovery_code: z.string().trim().min(1, 'validation.required').max(100) })
  .strict();
export const TwoFactorChallengeBody = z.union([TwoFactorCodeAnswer, RecoveryCodeAnswer], {
  error: 'two_factor.code_or_recovery_code',
});
export type TwoFactorChallengeBody = z.infer<typeof TwoFactorChallengeBody>;

/** POST /api/user/two-factor-authentication: the pending secret, to scan or type into an app. */
export const TwoFactorSetup = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  qr_svg: z.string(),
});
export type TwoFactorSetup = z.infer<typeof TwoFactorSetup>;

/** Confirming or regenerating answers the codes, shown this once. */
export const RecoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;

/** GET /api/user/two-factor-authentication: the account's state, never its secret or codes. */
export const TwoFactorStatus = z.object({
  data: z.object({
    /** When two-factor sign-in was confirmed; null while off or pending. */
    confirmed_at: z.string().nullable(),
    /** A secret was handed out and awaits its first code. */
    pending: z.boolean(),
    recovery_codes_left: z.number().int(),
    recovery_codes_total: z.number().int(),
  }),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

/** POST /api/login (and the social callback's sign-in) for an account that answers a challenge first. */
export const TwoFactorRequired = z.object({ two_factor: z.literal(true) });
export type TwoFactorRequired = z.infer<typeof TwoFactorRequired>;
