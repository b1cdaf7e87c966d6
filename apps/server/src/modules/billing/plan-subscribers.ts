import type { PlanSubscriber } from '@atelier/contracts';

/**
 * Who holds a plan. Subscriptions (a later part of billing) implement it over their table; until
 * then `subscribersWithoutSubscriptions` answers that nobody does, so every plan can be deleted.
 */
export interface PlanSubscribers {
  /** Subscribers per plan id; plans nobody holds may be left out. */
  counts(planIds: string[]): Promise<Map<string, number>>;
  page(planId: string, page: number, perPage: number): Promise<{ rows: PlanSubscriber[]; total: number }>;
}

export const subscribersWithoutSubscriptions: PlanSubscribers = {
  counts: async () => new Map(),
  page: async () => ({ rows: [], total: 0 }),
};
