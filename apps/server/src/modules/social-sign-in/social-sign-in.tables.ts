import type { Selectable } from 'kysely';

/** A provider identity linked to an account (see migration 0017). */
export interface SocialAccountsTable {
  id: string;
  user_id: string;
  provider: string;
  subject: string;
  email: string | null;
  created_at: string;
}

/** A sign-in or link waiting for the provider's answer; single use, expires within minutes. */
export interface SocialSignInRequestsTable {
  id: string;
  provider: string;
  user_id: string | null;
  browser_hash: string;
  code_verifier: string;
  nonce: string;
  expires_at: string;
  created_at: string;
}

export interface SocialGeneratedPasswordsTable {
  user_id: string;
  password_hash: string;
}

export type SocialAccountRow = Selectable<SocialAccountsTable>;
export type SocialSignInRequestRow = Selectable<SocialSignInRequestsTable>;

declare module '../../db/schema' {
  interface DB {
    social_accounts: SocialAccountsTable;
    social_sign_in_requests: SocialSignInRequestsTable;
    social_generated_passwords: SocialGeneratedPasswordsTable;
  }
}
