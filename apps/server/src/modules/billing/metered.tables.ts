import type { MeterKey } from '@atelier/contracts';
import type { Selectable } from 'kysely';

/** Bytes a user's files sent and received on one UTC day (migration 0026). */
export interface BandwidthUsageTable {
  user_id: string;
  /** `YYYY-MM-DD`. */
  day: string;
  bytes: number;
}

/** One meter's use on one day, in the period that day counted in (migration 0026). */
export interface UsageRecordsTable {
  subscription_id: string;
  day: string;
  key: MeterKey;
  quantity: number;
  period_start: string;
  updated_at: string;
}
export type UsageRecordRow = Selectable<UsageRecordsTable>;

/** What an ended period cost and how its payment stands (migration 0026). */
export interface MeteredSettlementsTable {
  id: string;
  subscription_id: string;
  user_id: string;
  period_start: string;
  period_end: string;
  amount_minor: number;
  currency: string;
  /** `paying` while one run tries the balance, then `paid` or `unpaid`. */
  status: 'paying' | 'unpaid' | 'paid';
  /** Reminders sent after the first notice. */
  reminders: number;
  /** When the user was last told (the first notice or a reminder). */
  notified_at: string | null;
  /** Set with the third reminder: the account is restricted until the settlement is paid. */
  restricted_at: string | null;
  transaction_id: string | null;
  created_at: string;
  updated_at: string;
}
export type MeteredSettlementRow = Selectable<MeteredSettlementsTable>;

/** A user's billing alert threshold (migration 0026). */
export interface MeteredAlertsTable {
  user_id: string;
  amount_minor: number;
  currency: string;
  /** The period start the alert was last sent for. */
  notified_period: string | null;
  updated_at: string;
}

declare module '../../db/schema' {
  interface DB {
    bandwidth_usage: BandwidthUsageTable;
    usage_records: UsageRecordsTable;
    metered_settlements: MeteredSettlementsTable;
    metered_alerts: MeteredAlertsTable;
  }
}
