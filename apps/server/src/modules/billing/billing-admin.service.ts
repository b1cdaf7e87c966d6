import type {
  AdminSubscriptionItem,
  AdminSubscriptionList,
  PlanSubscriber,
  SubscriptionStatus,
} from '@atelier/contracts';
import { paginate } from '../files/files.presenter';
import type { PlanSubscribers } from './plan-subscribers';
import type { SubscriptionsRepository, SubscriptionWithNames } from './subscriptions.repository';

function presentAdminSubscription(row: SubscriptionWithNames): AdminSubscriptionItem {
  return {
    id: row.id,
    user: { id: row.user_id, name: row.user_name, email: row.user_email },
    plan: { id: row.plan_id, name: row.plan_name, type: row.plan_type },
    status: row.status,
    driver: row.driver,
    renews_at: row.renews_at,
    ends_at: row.ends_at,
    created_at: row.created_at,
  };
}

/** The admin's view of subscriptions: the list, and who holds each plan (for archiving and its tab). */
export class BillingAdminService implements PlanSubscribers {
  constructor(private readonly repository: SubscriptionsRepository) {}

  async subscriptions(
    filter: { search?: string; status?: SubscriptionStatus },
    page: number,
    perPage: number,
  ): Promise<AdminSubscriptionList> {
    const { rows, total } = await this.repository.page(filter, page, perPage);
    return { data: rows.map(presentAdminSubscription), meta: { paginate: paginate(total, page, perPage) } };
  }

  counts(planIds: string[]): Promise<Map<string, number>> {
    return this.repository.countsByPlan(planIds);
  }

  async page(
    planId: string,
    page: number,
    perPage: number,
  ): Promise<{ rows: PlanSubscriber[]; total: number }> {
    const { rows, total } = await this.repository.page({ planId }, page, perPage);
    return {
      rows: rows.map((row) => ({
        id: row.id,
        user: { id: row.user_id, name: row.user_name, email: row.user_email },
        status: row.status,
        created_at: row.created_at,
        ends_at: row.ends_at,
      })),
      total,
    };
  }
}
