import {
  APP_PASSWORDS_MAX,
  type AppPasswordList,
  type CreateAppPasswordBody,
  type CreatedAppPassword,
} from '@atelier/contracts';
import { createHash, randomUUID } from 'node:crypto';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { clientNetwork } from '../../lib/client-network';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { randomToken } from '../../lib/tokens';
import type { LoginThrottle } from '../auth/login-throttle';
import { displayedAppPassword, lookupOf, newAppPassword, normalizedAppPassword } from './app-password-secret';
import { presentAppPassword } from './app-passwords.presenter';
import type { AppPasswordsRepository, SignInCandidate } from './app-passwords.repository';
import { VerifiedSecrets } from './verified-secrets';

/** How long a verified app password is taken without argon2id again (it is re-read every time). */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX_ENTRIES = 10_000;
/** `last_used_at` is written at most this often per app password, not on every WebDAV request. */
const LAST_USED_PRECISION_MS = 60_000;

/** An app password offered to sign in, with the rows its lookup found. */
interface Attempt {
  email: string;
  password: string;
  secret: string | null;
  ip: string;
  candidates: SignInCandidate[];
  now: Date;
}

export interface AppPasswordsDeps {
  appPasswords: AppPasswordsRepository;
  /** Sign-in's throttle: guesses at app passwords count with guesses at the account password. */
  throttle: LoginThrottle;
  now: () => Date;
}

/**
 * App passwords: named passwords a user makes for WebDAV and scripts, shown once, stored as
 * argon2id, revocable one by one. They sign in only through `authenticate`, which other modules
 * (WebDAV) call; the web app's sign-in never accepts them, and `authenticate` never accepts the
 * account password.
 */
export class AppPasswordsService {
  private readonly verified = new VerifiedSecrets(VERIFIED_TTL_MS, VERIFIED_MAX_ENTRIES);
  /** The checks under way, by a SHA-256 of the e-mail, the address's network and the password (checkOnce). */
  private readonly checking = new Map<string, Promise<SignInCandidate | undefined>>();
  private decoyHash: Promise<string> | undefined;

  constructor(private readonly deps: AppPasswordsDeps) {}

  async list(userId: string): Promise<AppPasswordList> {
    return { data: (await this.deps.appPasswords.listForUser(userId)).map(presentAppPassword) };
  }

  /** Refuses (422) a user who holds as many app passwords as anyone may. */
  async assertRoomFor(userId: string): Promise<void> {
    if ((await this.deps.appPasswords.countForUser(userId)) >= APP_PASSWORDS_MAX)
      throw new AppError(
        'validation_failed',
        'validation.app_passwords_limit',
        { name: ['validation.app_passwords_limit'] },
        { max: APP_PASSWORDS_MAX },
      );
  }

  async create(userId: string, body: CreateAppPasswordBody): Promise<CreatedAppPassword> {
    await this.assertRoomFor(userId);
    const password = newAppPassword();
    const row = await this.deps.appPasswords.insert({
      id: randomUUID(),
      user_id: userId,
      name: body.name,
      lookup: lookupOf(password),
      password_hash: await hashPassword(password),
      created_at: this.deps.now().toISOString(),
      last_used_at: null,
    });
    return { id: row.id, name: row.name, password: displayedAppPassword(password) };
  }

  /** Revokes one of the user's app passwords; someone else's or an unknown id is 404. */
  async revoke(userId: string, id: string): Promise<void> {
    if (!(await this.deps.appPasswords.deleteForUser(userId, id)))
      throw new AppError('not_found', 'errors.not_found');
  }

  /** Every app password of the account goes (its password was replaced: the clients sign in again). */
  async revokeAll(userId: string): Promise<void> {
    await this.deps.appPasswords.deleteAllForUser(userId);
  }

  /**
   * The user an e-mail and app password sign in, or null. The account password is never accepted.
   * Throttled with sign-in (5 failures a minute per e-mail and address, 30 per address; then the
   * throttle's 429 AppError is thrown). Each call re-reads the app password's row, so a revoked
   * one is refused at once on every process; a password verified in the last minute on this
   * process skips argon2id (and the throttle, being no guess).
   */
  async authenticate(email: string, password: string, ip: string): Promise<UserRow | null> {
    const now = this.deps.now();
    const secret = normalizedAppPassword(password);
    const candidates = secret
      ? await this.deps.appPasswords.findForSignIn(email.trim().toLowerCase(), lookupOf(secret))
      : [];
    const remembered = candidates.find(({ appPassword }) =>
      this.verified.has(appPassword.id, secret!, now.getTime()),
    );
    if (remembered) return this.used(remembered, now);
    const match = await this.checkOnce({ email, password, secret, ip, candidates, now });
    // A check this request joined read its rows before this one did: the password must still be
    // among this request's own (one revoked meanwhile is refused).
    const own = match && candidates.find(({ appPassword }) => appPassword.id === match.appPassword.id);
    return own ? this.used(own, now) : null;
  }

  /**
   * One check at a time of one password from one address: requests sent at once with it (a sync
   * client's six or eight connections, as the minute its verification is remembered ends) wait for
   * the first one's answer. Each counted as an attempt before its check, and the sixth was refused
   * as throttled; identical guesses sent at once are one guess.
   */
  private checkOnce(attempt: Attempt): Promise<SignInCandidate | undefined> {
    const key = createHash('sha256')
      .update(`${attempt.email.trim().toLowerCase()}\0${clientNetwork(attempt.ip)}\0${attempt.password}`)
      .digest('hex');
    let pending = this.checking.get(key);
    if (!pending) {
      pending = this.check(attempt).finally(() => this.checking.delete(key));
      this.checking.set(key, pending);
    }
    return pending;
  }

  /** Counts the attempt with sign-in's throttle, then checks the password against the candidates. */
  private async check({ email, password, secret, ip, candidates, now }: Attempt) {
    await this.deps.throttle.begin(email, ip);
    const match = await this.verify(candidates, password, secret);
    if (!match) return undefined;
    await this.deps.throttle.succeeded(email, ip);
    this.verified.add(match.appPassword.id, secret!, now.getTime());
    return match;
  }

  /** The candidate the secret is the password of; without candidates a decoy keeps the time the same. */
  private async verify(
    candidates: SignInCandidate[],
    password: string,
    secret: string | null,
  ): Promise<SignInCandidate | undefined> {
    if (!secret || candidates.length === 0) {
      this.decoyHash ??= hashPassword(randomToken());
      await verifyPassword(await this.decoyHash, password);
      return undefined;
    }
    for (const candidate of candidates)
      if (await verifyPassword(candidate.appPassword.password_hash, secret)) return candidate;
    return undefined;
  }

  private async used({ user, appPassword }: SignInCandidate, now: Date): Promise<UserRow> {
    const last = appPassword.last_used_at ? Date.parse(appPassword.last_used_at) : -Infinity;
    if (now.getTime() - last >= LAST_USED_PRECISION_MS)
      await this.deps.appPasswords.touch(appPassword.id, now.toISOString());
    return user;
  }
}
