import {
  RECOVERY_CODE_COUNT,
  type RecoveryCodes,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@atelier/contracts';
import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { hashToken } from '../../lib/tokens';
import type { UnitOfWork } from '../../db/database';
import type { SignedInClient } from '../../plugins/session.plugin';
import type { UsersService } from '../users/users.service';
import type { TwoFactorRepository } from './two-factor.repository';

/** The TOTP of RFC 6238 every authenticator app uses by default: SHA-1, 6 digits, 30 s. */
const TOTP_PERIOD_SECONDS = 30;
/** A code of the step before or after now still passes, for clocks that drift and slow typists. */
const TOTP_WINDOW = 1;

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `xxxx-xxxx-xxxx-xxxx` of 31 unambiguous characters: 79 random bits. */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 16 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return [0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join('')).join('-');
}

/**
 * A recovery code as stored: SHA-256 of the user and the code as typed without case or dashes. A
 * fast hash is enough, unlike for passwords: 79 random bits cannot be guessed from the digest.
 */
function recoveryCodeHash(userId: string, code: string): string {
  return hashToken(`${userId}:${code.toLowerCase().replace(/[^a-z0-9]/g, '')}`);
}

export interface TwoFactorDeps {
  repository: TwoFactorRepository;
  /** The account's switch lives in the users module, the waiting sign-ins in auth's. */
  users: Pick<UsersService, 'setTwoFactorConfirmedAt'>;
  challenges: { deleteForUser(userId: string): Promise<void> };
  units: UnitOfWork;
  /** Checks the account password, counted with sign-in's failures; throws 422 or 429 on `password`. */
  confirmPassword: (user: UserRow, password: string, client: SignedInClient) => Promise<void>;
  /** Names the account in authenticator apps. */
  issuer: () => Promise<string>;
  now: () => Date;
}

/**
 * Two-factor sign-in of one's own account: a secret handed out with the password, confirmed with a
 * first code, recovery codes for a lost phone, and the checks the sign-in challenge asks for.
 * The secret is stored as is: the instance has no key of its own to encrypt it with.
 */
export class TwoFactorService {
  constructor(private readonly deps: TwoFactorDeps) {}

  async status(user: UserRow): Promise<TwoFactorStatus> {
    const credential = await this.deps.repository.findCredential(user.id);
    return {
      data: {
        confirmed_at: user.two_factor_confirmed_at,
        pending: credential !== undefined && !user.two_factor_confirmed_at,
        recovery_codes_left: user.two_factor_confirmed_at
          ? await this.deps.repository.countRecoveryCodes(user.id)
          : 0,
        recovery_codes_total: RECOVERY_CODE_COUNT,
      },
    };
  }

  /** A new secret, pending until a code confirms it; a secret still pending is replaced. */
  async begin(user: UserRow, password: string, client: SignedInClient): Promise<TwoFactorSetup> {
    await this.deps.confirmPassword(user, password, client);
    if (user.two_factor_confirmed_at) throw AppError.invalid('password', 'two_factor.already_enabled');
    const secret = new Secret({ size: 20 }).base32;
    // Confirmed meanwhile (another tab): the secret its app holds stays.
    const saved = await this.deps.units.transaction(async () => {
      await this.deps.repository.lockCredential(user.id);
      return this.deps.repository.savePendingSecret(user.id, secret, this.deps.now().toISOString());
    });
    if (!saved) throw AppError.invalid('password', 'two_factor.already_enabled');
    const otpauthUrl = this.totp(secret, user.email, await this.deps.issuer()).toString();
    return {
      secret,
      otpauth_url: otpauthUrl,
      qr_svg: await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }),
    };
  }

  /** The first code proves the app holds the secret; two-factor sign-in is on from here. */
  async confirm(user: UserRow, code: string): Promise<RecoveryCodes> {
    if (user.two_factor_confirmed_at) throw AppError.invalid('code', 'two_factor.already_enabled');
    const codes = this.newRecoveryCodes();
    // On together with its first codes, or not at all; the secret the code proves cannot be
    // replaced by a setup begun meanwhile (see begin).
    await this.deps.units.transaction(async () => {
      await this.deps.repository.lockCredential(user.id);
      if (!(await this.deps.repository.findCredential(user.id)))
        throw AppError.invalid('code', 'two_factor.not_pending');
      if (!(await this.verifyCode(user, code))) throw AppError.invalid('code', 'two_factor.code_invalid');
      await this.deps.users.setTwoFactorConfirmedAt(user.id, this.deps.now().toISOString());
      await this.deps.repository.replaceRecoveryCodes(
        user.id,
        codes.map((c) => recoveryCodeHash(user.id, c)),
      );
    });
    return { recovery_codes: codes };
  }

  /** Ten new codes; the old ones stop working. */
  async regenerateRecoveryCodes(
    user: UserRow,
    password: string,
    client: SignedInClient,
  ): Promise<RecoveryCodes> {
    await this.deps.confirmPassword(user, password, client);
    if (!user.two_factor_confirmed_at) throw AppError.invalid('password', 'two_factor.not_enabled');
    const codes = this.newRecoveryCodes();
    await this.deps.repository.replaceRecoveryCodes(
      user.id,
      codes.map((c) => recoveryCodeHash(user.id, c)),
    );
    return { recovery_codes: codes };
  }

  /** Off, or a pending secret dropped; the codes and any sign-in waiting for a code go with it. */
  async disable(user: UserRow, password: string, client: SignedInClient): Promise<void> {
    await this.deps.confirmPassword(user, password, client);
    await this.deps.units.transaction(async () => {
      await this.deps.repository.remove(user.id);
      await this.deps.challenges.deleteForUser(user.id);
      await this.deps.users.setTwoFactorConfirmedAt(user.id, null);
    });
  }

  /**
   * Whether `code` is the user's code for now, the step before or the step after; each step passes
   * once, so a code seen over a shoulder or in a log cannot be used again.
   */
  async verifyCode(user: UserRow, code: string): Promise<boolean> {
    const credential = await this.deps.repository.findCredential(user.id);
    if (!credential) return false;
    const timestamp = this.deps.now().getTime();
    const totp = this.totp(credential.secret, user.email, '');
    const delta = totp.validate({ token: code, timestamp, window: TOTP_WINDOW });
    if (delta === null) return false;
    return this.deps.repository.useStep(user.id, totp.counter({ timestamp }) + delta);
  }

  /** Whether `code` is one of the user's unused recovery codes; it is used up if so. */
  useRecoveryCode(user: UserRow, code: string): Promise<boolean> {
    return this.deps.repository.useRecoveryCode(user.id, recoveryCodeHash(user.id, code));
  }

  private totp(secret: string, label: string, issuer: string): TOTP {
    return new TOTP({
      issuer,
      label,
      algorithm: 'SHA1',
      digits: 6,
      period: TOTP_PERIOD_SECONDS,
      secret: Secret.fromBase32(secret),
    });
  }

  private newRecoveryCodes(): string[] {
    return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  }
}
