import { TWO_FACTOR_CHALLENGE_MINUTES, type TwoFactorChallengeBody } from '@atelier/contracts';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { hashToken, randomToken } from '../../lib/tokens';
import type { TwoFactorService } from '../account/two-factor.service';
import type { UsersService } from '../users/users.service';
import type { LoginThrottle } from './login-throttle';
import type { SignInChallengesRepository } from './sign-in-challenges.repository';

export interface SignInChallengesDeps {
  repository: SignInChallengesRepository;
  twoFactor: TwoFactorService;
  users: UsersService;
  throttle: LoginThrottle;
  now: () => Date;
}

/**
 * The second step of signing in to an account with two-factor authentication: the first step (a
 * password, or a social provider) leaves a short-lived challenge, which one right code or unused
 * recovery code turns into the user to open a session for.
 */
export class SignInChallengesService {
  constructor(private readonly deps: SignInChallengesDeps) {}

  /** Returns the raw value for the cookie; only its hash is stored. */
  async begin(user: UserRow): Promise<{ token: string; expiresAt: Date }> {
    const token = randomToken();
    const now = this.deps.now();
    const expiresAt = new Date(now.getTime() + TWO_FACTOR_CHALLENGE_MINUTES * 60_000);
    await this.deps.repository.insert({
      id: hashToken(token),
      user_id: user.id,
      expires_at: expiresAt.toISOString(),
      created_at: now.toISOString(),
    });
    return { token, expiresAt };
  }

  /**
   * The user the challenge of `token` waited for, once `body` answers it; wrong answers count
   * against the account (5 a minute, whatever the address) and the address (30 a minute).
   */
  async answer(token: string | undefined, body: TwoFactorChallengeBody, ip: string): Promise<UserRow> {
    const field = 'code' in body ? 'code' : 'recovery_code';
    const idHash = token ? hashToken(token) : undefined;
    const userId = idHash && (await this.deps.repository.findUserId(idHash, this.deps.now().toISOString()));
    const user = userId ? await this.deps.users.findById(userId) : undefined;
    if (!idHash || !user?.two_factor_confirmed_at)
      throw AppError.invalid(field, 'two_factor.challenge_expired');

    await this.deps.throttle.beginSecondFactor(user.id, ip, field);
    const passed =
      'code' in body
        ? await this.deps.twoFactor.verifyCode(user, body.code)
        : await this.deps.twoFactor.useRecoveryCode(user, body.recovery_code);
    if (!passed)
      throw AppError.invalid(
        field,
        'code' in body ? 'two_factor.code_invalid' : 'two_factor.recovery_code_invalid',
      );
    await this.deps.throttle.secondFactorSucceeded(user.id, ip);
    if (!(await this.deps.repository.delete(idHash)))
      throw AppError.invalid(field, 'two_factor.challenge_expired');
    return user;
  }
}
