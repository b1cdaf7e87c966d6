import { z } from 'zod';

/** Error codes shared by server and client; the server's error plugin maps each to one status. */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthenticated: 401,
  upload_disabled: 401,
  forbidden: 403,
  registration_disabled: 403,
  email_not_verified: 403,
  not_found: 404,
  method_not_allowed: 405,
  upload_offset_mismatch: 409,
  blocks_missing: 409,
  gone: 410,
  share_revoked: 410,
  share_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  csrf_mismatch: 419,
  validation_failed: 422,
  invalid_credentials: 422,
  blacklisted_type: 422,
  storage_limit_exceeded: 423,
  throttled: 429,
  internal: 500,
  provider_unavailable: 502,
  not_installed: 503,
  maintenance: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export const ErrorBody = z.object({
  message: z.string(),
  code: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  /** Figures a client acts on, e.g. `received_bytes` of a 409 upload_offset_mismatch. */
  meta: z.record(z.string(), z.number()).optional(),
  /** Whom to ask for a new link, and since when it answers so: a link that ended (410 share_revoked or share_expired). */
  owner: z.object({ name: z.string() }).optional(),
  ended_at: z.string().optional(),
  /** The blocks a delta upload's commit names that the server does not hold (409 blocks_missing). */
  missing: z.array(z.string()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

const MESSAGE_KEY = /^[a-z_]+(\.[a-z_]+)+$/;

/**
 * A schema issue's message as a key of the strings, for the server's 422 and the web's own checks
 * alike: a contract names its own key; zod's built-in English (a bound without a message of ours)
 * becomes the nearest of ours, so no reader meets English they did not choose.
 */
export function issueMessageKey(issue: { code: string; message: string; minimum?: unknown }): string {
  if (MESSAGE_KEY.test(issue.message)) return issue.message;
  if (issue.code === 'too_small')
    return Number(issue.minimum) === 1 ? 'validation.required' : 'validation.too_short';
  if (issue.code === 'too_big') return 'validation.too_long';
  return 'validation.invalid';
}
