import type { Database } from '../../db/database';
import type { SettingsService } from '../settings/settings.service';
import { subscribersWithoutSubscriptions, type PlanSubscribers } from './plan-subscribers';
import { PlansRepository } from './plans.repository';
import { PlansService } from './plans.service';

export interface BillingModuleDeps {
  database: Database;
  settings: SettingsService;
  /** Subscriptions' answer to who holds a plan, once they exist. */
  subscribers?: PlanSubscribers;
  now: () => Date;
}

/** Billing's services; services.ts spreads them in. */
export function createBillingServices({ subscribers, ...deps }: BillingModuleDeps) {
  return {
    plans: new PlansService({
      ...deps,
      plans: new PlansRepository(deps.database),
      subscribers: subscribers ?? subscribersWithoutSubscriptions,
    }),
  };
}
