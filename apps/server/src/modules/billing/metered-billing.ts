import type { SubscriptionDetail } from '@atelier/contracts';
import type { UserRow } from '../../db/schema';

/** What metered billing (pay for what is used, from a prepaid balance) adds to the rest of billing. */
export interface MeteredBilling {
  /** The balance, the current period's use and the alert threshold, for the subscription detail. */
  detail(user: UserRow): Promise<Pick<SubscriptionDetail['data'], 'balance' | 'usage' | 'alert'>>;
  /** Why unpaid use restricts the account (null when it does not), and the period's cost so far. */
  standing(userId: string): Promise<{ restriction: string | null; costEstimate: string | null }>;
  /** Why unpaid use restricts the account; null when it does not. */
  restriction(userId: string): Promise<string | null>;
  /** Settles what a credit or top-up can now pay for, lifting restrictions when it covers them. */
  onBalanceCredited(userId: string): Promise<void>;
}
