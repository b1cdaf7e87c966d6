import { TEAM_MEMBERS_UNLIMITED, type SubscriptionType } from '@atelier/contracts';

/** What the description's team-invite rule (section 5) looks at. */
export interface MemberLimit {
  subscriptionType: SubscriptionType;
  /** `max_team_members.total` of the user; -1 is unlimited. */
  total: number;
  /** Addresses already counted: the owner's members and pending invitees, and any the form adds. */
  counted: readonly string[];
}

/** The limit holds only on a fixed subscription whose total is not -1. */
export function isLimited(limit: Pick<MemberLimit, 'subscriptionType' | 'total'>): boolean {
  return (
    limit.subscriptionType !== 'metered' &&
    limit.subscriptionType !== 'none' &&
    limit.total !== TEAM_MEMBERS_UNLIMITED
  );
}

/** How many distinct addresses count against the limit. */
export function countedAddresses(limit: Pick<MemberLimit, 'counted'>): number {
  return new Set(limit.counted.map((email) => email.toLowerCase())).size;
}

/**
 * Section 5: an invite is refused when the limit holds, the counted addresses reach the total, and
 * the invitee is not already among them (someone counted is no new member).
 */
export function exceedsMemberLimit(limit: MemberLimit, email: string): boolean {
  if (!isLimited(limit)) return false;
  const counted = new Set(limit.counted.map((address) => address.toLowerCase()));
  return counted.size >= limit.total && !counted.has(email.toLowerCase());
}
