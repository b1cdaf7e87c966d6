import type { PlanSubscriber } from '@atelier/contracts';

/** Who holds a plan: a plan someone holds is archived instead of deleted. */
export interface PlanSubscribers {
  /** Subscribers per plan id; plans nobody holds may be left out. */
  counts(planIds: string[]): Promise<Map<string, number>>;
  page(planId: string, page: number, perPage: number): Promise<{ rows: PlanSubscriber[]; total: number }>;
}
