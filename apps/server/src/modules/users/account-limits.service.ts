import type { Restrictions } from '@atelier/contracts';
import type { UserRow } from '../../db/schema';
import type { I18nService } from '../i18n/i18n.service';
import { GIGABYTE, type Settings } from '../settings/settings.defaults';
import type { SettingsService } from '../settings/settings.service';

/** What billing decides about an account's limits right now. */
export interface BillingTerms {
  /** A fixed plan's limits while its subscription is in effect (GB; -1 members: unlimited). */
  plan: { maxStorageAmount: number; maxTeamMembers: number } | null;
  /** Why metered billing restricts the account (unpaid use), in the user's words; null when it does not. */
  restriction: string | null;
}

/** The terms, with the current period's metered cost so far (a decimal string; null outside metered billing). */
export interface BillingStanding extends BillingTerms {
  costEstimate: string | null;
}

/** What billing tells the users module. */
export interface BillingSource {
  terms(userId: string): Promise<BillingTerms>;
  /** The terms' restriction alone (unpaid metered use), without the plan's limits. */
  restriction(userId: string): Promise<string | null>;
  standing(userId: string): Promise<BillingStanding>;
}

/** What an account may do and hold now. */
export interface OwnerLimits {
  restrictions: Restrictions;
  /** Bytes; null when storage is not limited. */
  capacity: number | null;
  /** Bytes counted against the capacity: the owner's storage_usage. */
  used: number;
  /** Team members the account may have; -1: unlimited. */
  teamMembers: number;
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

/** The limits that the settings, the billing terms and the bytes used give the account. */
export async function limitsOf(
  user: Pick<UserRow, 'storage_capacity'>,
  settings: Settings,
  billing: BillingTerms,
  used: number,
  i18n: Pick<I18nService, 'translate'>,
): Promise<OwnerLimits> {
  const capacity = capacityOf(user, settings, billing.plan?.maxStorageAmount ?? null);
  const storageFull = capacity !== null && used >= capacity;
  const teamMembers = billing.plan?.maxTeamMembers ?? settings.default_team_members;
  const unpaid = billing.restriction !== null;
  return {
    capacity,
    used,
    teamMembers,
    restrictions: {
      canUpload: !storageFull && !unpaid,
      canDownload: !unpaid,
      canCreateFolder: !unpaid,
      canCreateTeamFolder: teamMembers !== 0 && !unpaid,
      reason: billing.restriction ?? (storageFull ? await i18n.translate('restrictions.storage_full') : null),
    },
  };
}

export interface AccountLimitsDeps {
  /** The account's own capacity, the one column of its row the limits need. */
  users: { storageCapacity(id: string): Promise<Pick<UserRow, 'storage_capacity'> | undefined> };
  settings: Pick<SettingsService, 'all'>;
  i18n: Pick<I18nService, 'translate'>;
  billing: Pick<BillingSource, 'terms' | 'restriction'>;
  /** The owner's bytes used, from storage_usage (files module). */
  usedBytes(userId: string): Promise<number>;
}

/**
 * An account's capacity, usage and restrictions, read narrowly: the account's capacity column,
 * billing's terms and storage_usage. Every upload chunk, download and write of the files module asks it, so it
 * gathers none of what the user resource adds (notifications, team addresses, metered estimate).
 */
export class AccountLimitsService {
  constructor(private readonly deps: AccountLimitsDeps) {}

  async of(ownerId: string): Promise<OwnerLimits> {
    const [owner, settings, billing, used] = await Promise.all([
      this.deps.users.storageCapacity(ownerId),
      this.deps.settings.all(),
      this.deps.billing.terms(ownerId),
      this.deps.usedBytes(ownerId),
    ]);
    if (!owner) throw new Error(`Owner ${ownerId} is gone`);
    return limitsOf(owner, settings, billing, used, this.deps.i18n);
  }

  /**
   * Why the account's files may not leave now, or null: only an unpaid metered account is refused
   * downloads, so billing's restriction is all that is read (nothing at all outside metered billing),
   * not the capacity and usage every download would otherwise pay for.
   */
  downloadRefusal(ownerId: string): Promise<string | null> {
    return this.deps.billing.restriction(ownerId);
  }

  /** The owner's bytes used: the one count the quota, the user resource and metered billing read. */
  usedBytes(ownerId: string): Promise<number> {
    return this.deps.usedBytes(ownerId);
  }
}
