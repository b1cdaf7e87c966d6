import { createHash, randomBytes } from 'node:crypto';

/** An unguessable token for cookies and e-mailed links (256 bits, URL-safe). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as their SHA-256 digest, so a database leak cannot replay them. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
