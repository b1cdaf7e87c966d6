import { fromMinorUnits, type AdminPlanItem, type PlanItem, type PlanMeter } from '@atelier/contracts';
import type { PlanRow, StoredMeter } from './billing.tables';

/** Minor units back to the API's decimal strings, in the plan's currency. */
function presentMeters(meters: StoredMeter[], currency: string): PlanMeter[] {
  return meters.map((meter) => ({
    key: meter.key,
    aggregate: meter.aggregate,
    tiers: meter.tiers.map((tier) => ({
      first_unit: tier.first_unit,
      last_unit: tier.last_unit,
      per_unit: fromMinorUnits(tier.per_unit, currency),
      flat_fee: fromMinorUnits(tier.flat_fee, currency),
    })),
  }));
}

export function presentPlan(row: PlanRow): PlanItem {
  const common = {
    name: row.name,
    description: row.description,
    currency: row.currency,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  const attributes: PlanItem['attributes'] =
    row.type === 'fixed'
      ? {
          type: 'fixed',
          ...common,
          amount: fromMinorUnits(row.amount_minor!, row.currency),
          interval: row.interval!,
          features: { max_storage_amount: row.max_storage_amount!, max_team_members: row.max_team_members! },
        }
      : {
          type: 'metered',
          ...common,
          meters: presentMeters(JSON.parse(row.meters!) as StoredMeter[], row.currency),
        };
  return { id: row.id, type: 'plan', attributes };
}

export function presentAdminPlan(row: PlanRow, subscribers: number): AdminPlanItem {
  return { ...presentPlan(row), meta: { subscribers } };
}
