import type { Interval, MeterAggregate, MeterKey, PlanStatus } from '@atelier/contracts';
import type { Selectable } from 'kysely';

/** A meter as stored inside a plan's `meters` JSON: prices in minor units. */
export interface StoredMeter {
  key: MeterKey;
  aggregate: MeterAggregate;
  tiers: { first_unit: number; last_unit: number | null; per_unit: number; flat_fee: number }[];
}

/** A fixed or metered plan (migration 0023). */
export interface PlansTable {
  id: string;
  type: 'fixed' | 'metered';
  name: string;
  description: string;
  currency: string;
  status: PlanStatus;
  /** Fixed plans: the price per interval in minor units. */
  amount_minor: number | null;
  interval: Interval | null;
  /** Fixed plans: GB, and team members (-1 unlimited). */
  max_storage_amount: number | null;
  max_team_members: number | null;
  /** Metered plans: JSON text of StoredMeter[]. */
  meters: string | null;
  created_at: string;
  updated_at: string;
}

export type PlanRow = Selectable<PlansTable>;

declare module '../../db/schema' {
  interface DB {
    plans: PlansTable;
  }
}
