// Apart from the social sign-in schemas: the sign-in page reads this list, and nothing of zod.

/** The `social_error` the callback puts on /sign-in (or /user/profile for a link) when it refuses. */
export const SOCIAL_SIGN_IN_ERRORS = [
  /** Unknown, forged, replayed or expired `state`, or another browser's. */
  'state',
  /** The provider refused, or its answer failed a check (code, PKCE, ID token, nonce). */
  'provider',
  'email_missing',
  /** The provider did not vouch for the e-mail: no account is created or joined by it. */
  'email_unverified',
  /** An account with the e-mail exists whose own address was never confirmed: link from it instead. */
  'link_required',
  'registration_closed',
  /** The identity belongs to another account (or this account has another of this provider). */
  'already_linked',
] as const;
export type SocialSignInError = (typeof SOCIAL_SIGN_IN_ERRORS)[number];
