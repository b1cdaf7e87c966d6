import type { ChangePasswordBody, LoginBody, PasswordResetBody, RegisterBody } from '@atelier/contracts';
import type { Env } from '../../env';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { hashToken, randomToken } from '../../lib/tokens';
import type { MailTemplates } from '../mail/mail.templates';
import type { Mailer } from '../mail/mailer';
import type { SettingsService } from '../settings/settings.service';
import type { UnitOfWork } from '../../db/database';
import type { SignedInClient } from '../../plugins/session.plugin';
import type { UsersService } from '../users/users.service';
import { ACCOUNT_WINDOW_MS, type LoginThrottle } from './login-throttle';
import type { SessionsService } from './sessions.service';
import type { SignInChallengesRepository } from './sign-in-challenges.repository';
import type { SignInDevicesRepository } from './sign-in-devices.repository';
import type { UserTokensRepository } from './user-tokens.repository';

export const PASSWORD_RESET_TTL_MINUTES = 60;
const EMAIL_VERIFICATION_TTL_HOURS = 48;

// Verifying against a real hash when the e-mail is unknown keeps both answers equally slow,
// so response times do not reveal which addresses have accounts.
const UNKNOWN_USER_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$lvbVQPHNJQUt2YUKTInXlA$o3+BQJmroo87RqPY2KAgv013IbUIUZ+msPAusOGlIA4';

export interface AuthDeps {
  env: Env;
  users: UsersService;
  sessions: SessionsService;
  /** A password replaced and every way in it ends commit together (see replacePassword). */
  units: UnitOfWork;
  /** Two-factor sign-ins waiting for their code, begun with a password that may be replaced. */
  challenges: Pick<SignInChallengesRepository, 'deleteForUser'>;
  settings: SettingsService;
  passwordResets: UserTokensRepository;
  emailVerifications: UserTokensRepository;
  mailer: Mailer;
  mails: MailTemplates;
  throttle: LoginThrottle;
  /** Browsers known to an account, which may still sign in while guesses fill its window. */
  devices: SignInDevicesRepository;
  now: () => Date;
  /** Queues a password-reset request's lookup and e-mail (see passwordResetMailJob). */
  mailPasswordResetLater: (email: string) => Promise<void>;
  /** Called once an account proved its address (what waited for the address may now reach it). */
  onAccountReady: (user: UserRow) => Promise<void>;
  /**
   * Ends what signs in as the account without its password, once the password is replaced: its app
   * passwords and the login flows granted and not yet collected (app-passwords and sync clients).
   */
  endAppAccess: (userId: string) => Promise<void>;
}

export class AuthService {
  constructor(private readonly deps: AuthDeps) {}

  /**
   * Creates the account; when e-mail verification is on it mails a link and returns verify: true.
   * With verification on, an address that already has an account answers the same (the account is
   * left alone and its owner told by e-mail), so registering does not tell who has an account. With
   * it off the new account is signed in at once, so a taken address can only be refused.
   */
  async register(body: RegisterBody): Promise<{ user: UserRow; verify: boolean }> {
    const settings = await this.deps.settings.all();
    if (!settings.registration) throw new AppError('registration_disabled', 'auth.registration_disabled');
    const verify = settings.email_verification;
    const existing = await this.deps.users.findByEmail(body.email);
    if (existing && verify) {
      await this.mailRegistrationAttempt(existing, body.password);
      return { user: existing, verify };
    }
    if (existing) throw AppError.invalid('email', 'validation.email_taken');
    let user: UserRow;
    try {
      user = await this.deps.users.create({
        name: body.name,
        email: body.email,
        password: body.password,
        // Registering proves no address, whether the instance asks for proof or not: the address is
        // verified by its link, or by a reset mailed to it. A provider's sign-in joins only a proven
        // one (else whoever registered someone's address first would get their account).
        emailVerified: false,
      });
    } catch (error) {
      // Another registration of the address won the race: with verification on, answer as above.
      const taken = error instanceof AppError && error.errors?.email?.includes('validation.email_taken');
      const winner = verify && taken ? await this.deps.users.findByEmail(body.email) : undefined;
      if (!winner) throw error;
      await this.deps.mailer.send(
        await this.deps.mails.registrationAttempt(winner.email, this.forgottenLink()),
      );
      return { user: winner, verify };
    }
    // Registering proves nothing about the address: what waits for it waits for a proof.
    if (verify) await this.sendVerification(user);
    return { user, verify };
  }

  /**
   * Checks the password, throttled (see LoginThrottle). `client.device` is the browser's sign-in
   * device cookie, if any; the answer carries the one to set, which makes this browser known to the
   * account.
   */
  async authenticate(
    { email, password }: LoginBody,
    client: { ip: string; device?: string },
  ): Promise<{ user: UserRow; device: string }> {
    await this.deps.throttle.begin(email, client.ip);
    const user = await this.deps.users.findByEmail(email);
    const deviceHash = client.device ? hashToken(client.device) : null;
    await this.deps.throttle.beginAccount(email, async () =>
      user && deviceHash && (await this.deps.devices.isKnown(deviceHash, user.id)) ? deviceHash : null,
    );
    const valid = await verifyPassword(user?.password_hash ?? UNKNOWN_USER_HASH, password);
    if (!user || !valid) throw AppError.invalid('email', 'auth.failed', 'invalid_credentials');
    await this.deps.throttle.succeeded(email, client.ip);
    await this.deps.throttle.accountSucceeded(email, deviceHash);
    if (!user.email_verified_at && (await this.deps.settings.get('email_verification'))) {
      await this.sendVerification(user);
      throw new AppError('email_not_verified', 'auth.email_not_verified');
    }
    return { user, device: await this.rememberDevice(user.id, client.device) };
  }

  /**
   * A reset requested through the public form: only queued, so the answer does the same work
   * whether the address has an account or not (the job looks it up and mails the link).
   */
  async requestPasswordReset(email: string): Promise<void> {
    await this.deps.mailPasswordResetLater(email);
  }

  /** Mails a single-use reset link when the account exists. */
  async mailPasswordReset(email: string): Promise<void> {
    const user = await this.deps.users.findByEmail(email);
    if (!user) return;
    const token = randomToken();
    await this.deps.passwordResets.insert(
      user.id,
      hashToken(token),
      new Date(this.deps.now().getTime() + PASSWORD_RESET_TTL_MINUTES * 60_000),
    );
    const link = `${this.deps.env.appUrl}/create-new-password?${new URLSearchParams({ token, email: user.email })}`;
    await this.deps.mailer.send(
      await this.deps.mails.passwordReset(user.email, link, PASSWORD_RESET_TTL_MINUTES),
    );
  }

  /**
   * Sets the new password, burns every outstanding reset link and signs the user out everywhere.
   * Following the e-mailed link proves the mailbox, so the browser that did becomes the one browser
   * known to the account (the answer is its device cookie): it may sign in while guesses from
   * elsewhere fill the account's window.
   */
  async resetPassword(body: PasswordResetBody): Promise<{ device: string }> {
    const user = await this.deps.users.findByEmail(body.email);
    const tokenHash = hashToken(body.token);
    // Check the pairing before using the token up, so a wrong e-mail cannot burn someone's link.
    if (!user || (await this.deps.passwordResets.peek(tokenHash)) !== user.id)
      throw AppError.invalid('token', 'auth.reset_invalid');
    return this.deps.units.transaction(async () => {
      if ((await this.deps.passwordResets.consume(tokenHash)) !== user.id)
        throw AppError.invalid('token', 'auth.reset_invalid');
      await this.replacePassword(user.id, body.password);
      await this.deps.sessions.destroyAllFor(user.id);
      // Following the e-mailed link proves the address too.
      if (!user.email_verified_at) await this.verified(user.id);
      else await this.deps.onAccountReady(user);
      await this.deps.devices.deleteForUser(user.id);
      return { device: await this.rememberDevice(user.id, undefined) };
    });
  }

  /**
   * A new password for a signed-in user who proves the current one; every other session ends, the
   * one that asked stays signed in. Guesses
   * count with sign-in's, so a stolen session cannot try passwords faster than the sign-in page.
   */
  async changePassword(user: UserRow, body: ChangePasswordBody, client: SignedInClient): Promise<void> {
    await this.confirmPassword(user, body.current_password, client, 'current_password');
    await this.deps.units.transaction(async () => {
      await this.replacePassword(user.id, body.password);
      await this.deps.sessions.destroyOthersFor(user.id, client.sessionToken);
    });
  }

  /**
   * The password is replaced (by a reset, its owner or an admin), and whatever signed in with, or
   * could reset, the old one goes with it: outstanding reset links, two-factor sign-ins waiting for
   * their code, app passwords and granted login flows. A password replaced after a compromise leaves
   * the intruder nothing (the callers end the sessions, in the same unit of work: all or nothing).
   */
  async replacePassword(userId: string, password: string): Promise<void> {
    await this.deps.units.transaction(async () => {
      await this.deps.users.setPassword(userId, password);
      await this.deps.passwordResets.deleteForUser(userId);
      await this.deps.challenges.deleteForUser(userId);
      await this.deps.endAppAccess(userId);
    });
  }

  /** The account's address changed: the links mailed to the old one (reset, verification) stop working. */
  async forgetMailedLinks(userId: string): Promise<void> {
    await this.deps.passwordResets.deleteForUser(userId);
    await this.deps.emailVerifications.deleteForUser(userId);
  }

  /**
   * Checks a signed-in user's password before a sensitive change; a wrong one is 422 on `field`
   * and counts with sign-in's failures (429 on `field` once they are spent).
   */
  async confirmPassword(
    user: UserRow,
    password: string,
    client: SignedInClient,
    field: string,
  ): Promise<void> {
    await this.deps.throttle.begin(user.email, client.ip, field);
    // In the account's window too, whatever the addresses: a stolen session replayed from many
    // addresses guesses no faster here than at the sign-in page. When that window is full (strangers'
    // guesses), the session carries its own few checks for the window's length, so guessers cannot
    // keep the person from changing their password, and a thief of the session gains those few.
    const session = `session:${hashToken(client.sessionToken)}`;
    await this.deps.throttle.beginAccount(user.email, async () => session, field, ACCOUNT_WINDOW_MS);
    if (!(await verifyPassword(user.password_hash, password)))
      throw AppError.invalid(field, 'validation.current_password');
    await this.deps.throttle.succeeded(user.email, client.ip);
    await this.deps.throttle.accountSucceeded(user.email, session);
  }

  /** Returns whether the link was valid (unused, unexpired). */
  async verifyEmail(token: string): Promise<boolean> {
    const userId = await this.deps.emailVerifications.consume(hashToken(token));
    if (!userId) return false;
    await this.verified(userId);
    await this.deps.emailVerifications.deleteForUser(userId);
    return true;
  }

  /** Makes the browser known to the account: its device cookie (a new one when it has none). */
  private async rememberDevice(userId: string, device: string | undefined): Promise<string> {
    const token = device ?? randomToken();
    await this.deps.devices.remember(hashToken(token), userId, this.deps.now().toISOString());
    return token;
  }

  private async verified(userId: string): Promise<void> {
    await this.deps.users.markEmailVerified(userId);
    const user = await this.deps.users.findById(userId);
    if (user) await this.deps.onAccountReady(user);
  }

  /**
   * Someone registered with the address of an existing account: its owner gets a note (a way back in
   * if it was them) where a new account would get its verification link. The password is hashed
   * all the same, so both answers cost alike.
   */
  private async mailRegistrationAttempt(user: UserRow, password: string): Promise<void> {
    await hashPassword(password);
    await this.deps.mailer.send(await this.deps.mails.registrationAttempt(user.email, this.forgottenLink()));
  }

  private forgottenLink(): string {
    return `${this.deps.env.appUrl}/forgotten-password`;
  }

  private async sendVerification(user: UserRow): Promise<void> {
    const token = randomToken();
    await this.deps.emailVerifications.insert(
      user.id,
      hashToken(token),
      new Date(this.deps.now().getTime() + EMAIL_VERIFICATION_TTL_HOURS * 3_600_000),
    );
    const link = `${this.deps.env.appUrl}/api/email/verify/${token}`;
    await this.deps.mailer.send(await this.deps.mails.verifyEmail(user.email, link));
  }
}
