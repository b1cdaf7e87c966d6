import { randomUUID } from 'node:crypto';
import type { UnitOfWork } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { hashToken, randomToken } from '../../lib/tokens';
import type { SessionsRepository } from './sessions.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * A session's `last_active_at` is written at most this often, not on every request (nor on every
 * minute's check of an open realtime connection): "last seen" needs no finer grain than minutes.
 */
const ACTIVITY_PRECISION_MS = 5 * 60_000;

export interface NewSession {
  /** The raw value for the cookie; only its hash is stored. */
  token: string;
  expiresAt: Date;
}

/**
 * The realtime server's hold on open connections, by session (the realtime server's methods): with
 * Redis, a call closes the sockets on every API node.
 */
export interface SessionSockets {
  disconnectStoredSession(sessionIdHash: string): void;
  disconnectUser(userId: string): void;
  disconnectUserExcept(userId: string, keptSessionToken: string): void;
}

/**
 * Server-side sessions: the cookie holds a random id, the database its SHA-256. A session that ends
 * here closes its realtime connections at once (once its deletion commits, so a reconnect cannot
 * find it still there), whoever ended it: they must not keep receiving the account's events.
 */
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly ttlDays: number,
    private readonly now: () => Date,
    private readonly sockets: SessionSockets,
    private readonly units: Pick<UnitOfWork, 'afterCommit'>,
  ) {}

  /**
   * A session for the account as the sign-in found it (`user`, read before its password was
   * checked): refused (invalid credentials) when the password was replaced meanwhile, since a reset
   * ends every session and one begun with the old password must not outlive it.
   */
  async create(
    user: Pick<UserRow, 'id' | 'password_hash'>,
    client: { ip: string | null; userAgent: string | null },
  ): Promise<NewSession> {
    const token = randomToken();
    const now = this.now();
    const expiresAt = new Date(now.getTime() + this.ttlDays * DAY_MS);
    // Signing in is the moment to forget this user's expired sessions, so the table stays small.
    await this.sessions.deleteExpiredForUser(user.id, now.toISOString());
    const stored = await this.sessions.insertWhilePassword(
      {
        id: hashToken(token),
        public_id: randomUUID(),
        user_id: user.id,
        ip: client.ip,
        user_agent: client.userAgent?.slice(0, 500) ?? null,
        created_at: now.toISOString(),
        last_active_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
      },
      user.password_hash,
    );
    if (!stored) throw AppError.invalid('email', 'auth.failed', 'invalid_credentials');
    return { token, expiresAt };
  }

  /** The user signed in by the cookie; refreshes the session's `last_active_at` (the devices list). */
  async resolve(token: string): Promise<UserRow | undefined> {
    const idHash = hashToken(token);
    const now = this.now();
    const live = await this.sessions.findLive(idHash, now.toISOString());
    if (!live) return undefined;
    if (now.getTime() - Date.parse(live.lastActiveAt) >= ACTIVITY_PRECISION_MS)
      await this.sessions.touch(idHash, now.toISOString());
    return live.user;
  }

  async destroy(token: string): Promise<void> {
    const idHash = hashToken(token);
    await this.sessions.delete(idHash);
    await this.units.afterCommit(() => this.sockets.disconnectStoredSession(idHash));
  }

  /** Signs a user out everywhere but the session of `keptToken`, e.g. after a password change. */
  async destroyOthersFor(userId: string, keptToken: string): Promise<void> {
    await this.sessions.deleteForUserExcept(userId, hashToken(keptToken));
    await this.units.afterCommit(() => this.sockets.disconnectUserExcept(userId, keptToken));
  }

  /** Signs a user out everywhere, e.g. after a password reset. */
  async destroyAllFor(userId: string): Promise<void> {
    await this.sessions.deleteForUser(userId);
    await this.units.afterCommit(() => this.sockets.disconnectUser(userId));
  }
}
