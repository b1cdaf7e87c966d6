import { randomUUID } from 'node:crypto';
import type { Role, UserResource, UserSettingBody } from '@atelier/contracts';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUniqueViolation } from '../../lib/db-errors';
import { hashPassword } from '../../lib/passwords';
import { GIGABYTE, type Settings } from '../settings/settings.defaults';
import type { I18nService } from '../i18n/i18n.service';
import type { SettingsService } from '../settings/settings.service';
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

/** What billing decides for an account right now. */
export interface BillingStanding {
  /** A fixed plan's limits while its subscription is in effect (GB; -1 members: unlimited). */
  plan: { maxStorageAmount: number; maxTeamMembers: number } | null;
  /** Why metered billing restricts the account (unpaid use), in the user's words; null when it does not. */
  restriction: string | null;
  /** The current period's metered cost so far, as a decimal string; null outside metered billing. */
  costEstimate: string | null;
}

/** What other modules contribute to the user resource. */
export interface UserResourceSources {
  /** The account's plan limits and billing restrictions (billing module). */
  billing(userId: string): Promise<BillingStanding>;
  /** Bytes the user's files take (files module). */
  storageUsage(userId: string): Promise<number>;
  /** The newest read and unread notifications (notifications module). */
  notifications(userId: string): Promise<{ read: unknown[]; unread: unknown[] }>;
  /** The addresses counted against the user's team-member limit: members and pending invitees (teams module). */
  teamEmails(userId: string): Promise<string[]>;
  /** Called once a new account is stored (metered billing subscribes it). */
  accountCreated?(user: UserRow): Promise<void>;
}

/**
 * The bytes the account may hold; null when storage is not limited. A fixed plan's storage applies
 * while its subscription is in effect, or the capacity the admin set when that is larger (an admin's
 * gift is not taken away by buying a plan); otherwise the admin's capacity or the instance default.
 */
export function capacityOf(
  user: Pick<UserRow, 'storage_capacity'>,
  settings: Settings,
  planGigabytes: number | null = null,
): number | null {
  if (!settings.storage_limitation) return null;
  if (planGigabytes !== null) return Math.max(planGigabytes * GIGABYTE, user.storage_capacity ?? 0);
  return user.storage_capacity ?? settings.default_storage_gb * GIGABYTE;
}

function teamMemberLimitOf(billing: BillingStanding, settings: Settings): number {
  return billing.plan?.maxTeamMembers ?? settings.default_team_members;
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
    private readonly sources: UserResourceSources,
  ) {}

  findById(id: string): Promise<UserRow | undefined> {
    return this.users.findById(id);
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.users.findByEmail(email.trim().toLowerCase());
  }

  /** Whom the instance's own alerts go to (a payment to look at, say). */
  adminIds(): Promise<string[]> {
    return this.users.adminIds();
  }

  /** Creates the account; an e-mail already registered (even by a concurrent request) is a 422. */
  async create(account: NewAccount): Promise<UserRow> {
    const now = new Date().toISOString();
    const row = {
      id: randomUUID(),
      name: account.name,
      email: account.email.trim().toLowerCase(),
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

  async markEmailVerified(userId: string): Promise<void> {
    await this.users.update(userId, { email_verified_at: new Date().toISOString() });
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

  /** Team members the account may have: its fixed plan's while in effect, else the instance default (-1: unlimited). */
  async teamMemberLimit(userId: string): Promise<number> {
    const [settings, billing] = await Promise.all([this.settings.all(), this.sources.billing(userId)]);
    return teamMemberLimitOf(billing, settings);
  }

  /** The user resource of the description, with restrictions and limitations derived from the settings. */
  async resource(user: UserRow): Promise<UserResource> {
    const [settings, userSettings, used, notifications, teamEmails, billing] = await Promise.all([
      this.settings.all(),
      this.users.findSettings(user.id),
      this.sources.storageUsage(user.id),
      this.sources.notifications(user.id),
      this.sources.teamEmails(user.id),
      this.sources.billing(user.id),
    ]);
    const capacity = capacityOf(user, settings, billing.plan?.maxStorageAmount ?? null);
    const storageFull = capacity !== null && used >= capacity;
    const teamMembers = teamMemberLimitOf(billing, settings);
    const unpaid = billing.restriction !== null;
    return presentUser(user, userSettings, notifications, {
      usages: { costEstimate: billing.costEstimate, used, capacity },
      restrictions: {
        canUpload: !storageFull && !unpaid,
        canDownload: !unpaid,
        canCreateFolder: !unpaid,
        canCreateTeamFolder: teamMembers !== 0 && !unpaid,
        reason:
          billing.restriction ??
          (storageFull ? await this.i18n.translate('restrictions.storage_full') : null),
      },
      limitations: {
        max_team_members: { total: teamMembers, use: teamEmails.length },
        max_storage_amount: { total: capacity, use: used },
      },
      allowed_emails: teamEmails,
    });
  }
}
