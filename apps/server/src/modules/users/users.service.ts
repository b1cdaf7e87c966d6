import { randomUUID } from 'node:crypto';
import type { Role, UserResource, UserSettingBody } from '@atelier/contracts';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUniqueViolation } from '../../lib/db-errors';
import { hashPassword } from '../../lib/passwords';
import type { I18nService } from '../i18n/i18n.service';
import { fileManagerAccess } from '../settings/settings.defaults';
import type { SettingsService } from '../settings/settings.service';
import { limitsOf, type AccountLimitsService, type BillingSource } from './account-limits.service';
import { presentUser } from './users.presenter';
import type { UsersRepository } from './users.repository';

/** Avatar backgrounds; a user keeps the one picked at sign-up. */
const AVATAR_COLORS = [
  '#6366f1',
  '#0ea5e9',
  '#10b981',
  '#f59e0b',
  '#ef4444',
  '#ec4899',
  '#8b5cf6',
  '#14b8a6',
];

/** What other modules contribute to the user resource. */
export interface UserResourceSources {
  /** The account's capacity, usage and restrictions: what the files module's quota reads too. */
  limits: AccountLimitsService;
  /** The account's plan limits, billing restrictions and metered estimate (billing module). */
  billing: BillingSource;
  /** The newest read and unread notifications (notifications module). */
  notifications(userId: string): Promise<{ read: unknown[]; unread: unknown[] }>;
  /** The addresses counted against the user's team-member limit: members and pending invitees (teams module). */
  teamEmails(userId: string): Promise<string[]>;
  /** Called once a new account is stored (metered billing subscribes it). */
  accountCreated?(user: UserRow): Promise<void>;
}

/** Reading accounts, for the modules built before the users service (billing). */
export interface AccountDirectory {
  findById(id: string): Promise<UserRow | undefined>;
  adminIds(): Promise<string[]>;
}

/** E-mail addresses are stored trimmed and lowercased. */
export function normalizedEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface NewAccount {
  name: string;
  email: string;
  password: string;
  role?: Role;
  emailVerified?: boolean;
  /** Bytes; null or absent for the instance default. */
  storageCapacity?: number | null;
}

export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly settings: SettingsService,
    private readonly i18n: I18nService,
    /** The app's clock: accounts and their verification are stamped with it. */
    private readonly now: () => Date,
    private readonly sources: UserResourceSources,
  ) {}

  findById(id: string): Promise<UserRow | undefined> {
    return this.users.findById(id);
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.users.findByEmail(normalizedEmail(email));
  }

  /** Whom the instance's own alerts go to (a payment to look at, say). */
  adminIds(): Promise<string[]> {
    return this.users.adminIds();
  }

  /** Creates the account; an e-mail already registered (even by a concurrent request) is a 422. */
  async create(account: NewAccount): Promise<UserRow> {
    const now = this.now().toISOString();
    const row = {
      id: randomUUID(),
      name: account.name,
      email: normalizedEmail(account.email),
      password_hash: await hashPassword(account.password),
      role: account.role ?? 'user',
      color: AVATAR_COLORS[Math.floor(Math.random() * AVATAR_COLORS.length)]!,
      storage_capacity: account.storageCapacity ?? null,
      email_verified_at: account.emailVerified ? now : null,
      two_factor_confirmed_at: null,
      created_at: now,
      updated_at: now,
    };
    let user: UserRow;
    try {
      user = await this.users.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.invalid('email', 'validation.email_taken');
      throw error;
    }
    await this.sources.accountCreated?.(user);
    return user;
  }

  async setPassword(userId: string, password: string): Promise<void> {
    await this.users.update(userId, { password_hash: await hashPassword(password) });
  }

  /** When two-factor sign-in was turned on, or null once it is off. */
  async setTwoFactorConfirmedAt(userId: string, at: string | null): Promise<void> {
    await this.users.update(userId, { two_factor_confirmed_at: at });
  }

  /** An administrator's change of the account's name or e-mail; an e-mail another account has is a 422. */
  async updateProfile(userId: string, profile: Partial<Pick<UserRow, 'name' | 'email'>>): Promise<void> {
    try {
      await this.users.update(userId, profile);
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.invalid('email', 'validation.email_taken');
      throw error;
    }
  }

  /** The bytes the account may hold as an administrator set them; null for the instance default. */
  async setCapacity(userId: string, capacity: number | null): Promise<void> {
    await this.users.update(userId, { storage_capacity: capacity });
  }

  async markEmailVerified(userId: string): Promise<void> {
    await this.users.update(userId, { email_verified_at: this.now().toISOString() });
  }

  async updateSetting(user: UserRow, setting: UserSettingBody): Promise<void> {
    if (setting.name === 'name') await this.users.update(user.id, { name: setting.value });
    else if (setting.name === 'locale') await this.updateLocale(user.id, setting.value);
    else await this.users.updateSetting(user.id, setting.name, setting.value);
  }

  /** Only a language the instance has; '' returns the user to the browser's language or the default. */
  private async updateLocale(userId: string, locale: string): Promise<void> {
    if (locale !== '' && !(await this.i18n.exists(locale)))
      throw AppError.invalid('value', 'validation.locale_unknown');
    await this.users.updateSetting(userId, 'locale', locale === '' ? null : locale);
  }

  /** The user resource of the description, with restrictions and limitations derived from the settings. */
  async resource(user: UserRow): Promise<UserResource> {
    const [settings, userSettings, used, notifications, teamEmails, billing] = await Promise.all([
      this.settings.all(),
      this.users.findSettings(user.id),
      this.sources.limits.usedBytes(user.id),
      this.sources.notifications(user.id),
      this.sources.teamEmails(user.id),
      this.sources.billing.standing(user.id),
    ]);
    const { capacity, restrictions, teamMembers } = await limitsOf(user, settings, billing, used, this.i18n);
    return presentUser(user, fileManagerAccess(settings), userSettings, notifications, {
      usages: { costEstimate: billing.costEstimate, used, capacity },
      restrictions,
      limitations: {
        max_team_members: { total: teamMembers, use: teamEmails.length },
        max_storage_amount: { total: capacity, use: used },
      },
      allowed_emails: teamEmails,
    });
  }
}
