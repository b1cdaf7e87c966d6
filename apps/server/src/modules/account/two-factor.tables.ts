import type { Selectable } from 'kysely';

/** A user's TOTP secret (see migration 0016); confirmed once `users.two_factor_confirmed_at` is set. */
export interface TwoFactorCredentialsTable {
  user_id: string;
  /** Base32, as authenticator apps take it. */
  secret: string;
  /** The last 30-second step a code was accepted for; a code of that step or an earlier one is refused. */
  last_used_step: number | null;
  created_at: string;
}

export interface TwoFactorRecoveryCodesTable {
  user_id: string;
  code_hash: string;
}

export type TwoFactorCredentialRow = Selectable<TwoFactorCredentialsTable>;

declare module '../../db/schema' {
  interface DB {
    two_factor_credentials: TwoFactorCredentialsTable;
    two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  }
}
