import { createHash, randomBytes } from 'node:crypto';

/** An unguessable token for cookies and e-mailed links (256 bits, URL-safe). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as their SHA-256 digest, so a database leak cannot replay them. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters of [A-Za-z0-9], uniformly random (bytes ≥ 248 are drawn again, so no bias). */
export function randomAlphanumeric(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHANUMERIC[byte % ALPHANUMERIC.length];
    }
  }
  return out;
}
