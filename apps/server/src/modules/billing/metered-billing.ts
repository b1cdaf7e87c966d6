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
  /**
   * The currency the user's balance is kept in: the balance's own once it has one, else the metered
   * plan's (what settles from it), else the instance's. Top-ups and credits are made in it.
   */
  balanceCurrency(userId: string): Promise<string>;
  /** Settles what a credit or top-up can now pay for, lifting restrictions when it covers them. */
  onBalanceCredited(userId: string): Promise<void>;
}
