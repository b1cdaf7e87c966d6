import { createHash } from 'node:crypto';

/**
 * App passwords this process verified lately, so a WebDAV client's every request does not pay for
 * argon2id again. Keyed by a SHA-256 of the app password's id and the secret supplied, so only the
 * exact password that was verified hits, and the memory holds no password. It grants nothing by
 * itself: the caller reads the app password's row first, so a revoked one is refused at once on
 * every process; the TTL only bounds how long a verification is reused.
 */
export class VerifiedSecrets {
  private readonly entries = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  has(appPasswordId: string, secret: string, nowMs: number): boolean {
    const key = keyOf(appPasswordId, secret);
    const expiresAt = this.entries.get(key);
    if (expiresAt === undefined) return false;
    if (expiresAt > nowMs) return true;
    this.entries.delete(key);
    return false;
  }

  add(appPasswordId: string, secret: string, nowMs: number): void {
    const key = keyOf(appPasswordId, secret);
    this.entries.delete(key);
    // Maps keep insertion order: the first entry is the oldest, the one to let go when full.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, nowMs + this.ttlMs);
  }
}

function keyOf(appPasswordId: string, secret: string): string {
  return createHash('sha256').update(`${appPasswordId}\0${secret}`).digest('hex');
}
