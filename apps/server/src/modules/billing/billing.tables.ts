import type {
  Interval,
  MeterAggregate,
  MeterKey,
  PaymentDriver,
  PlanStatus,
  SubscriptionStatus,
  TransactionStatus,
  TransactionType,
} from '@atelier/contracts';
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

/** Who holds which plan (migration 0025); at most one not `completed` per user. */
export interface SubscriptionsTable {
  id: string;
  user_id: string;
  plan_id: string;
  status: SubscriptionStatus;
  /** Null for a metered plan settled from the prepaid balance. */
  driver: PaymentDriver | null;
  provider_subscription_id: string | null;
  renews_at: string | null;
  ends_at: string | null;
  provider_updated_at: string | null;
  created_at: string;
  updated_at: string;
}
export type SubscriptionRow = Selectable<SubscriptionsTable>;

/** Where a transaction's money went through: a provider, the balance, or the admin. */
export type TransactionDriver = PaymentDriver | 'balance' | 'admin';

export interface TransactionsTable {
  id: string;
  user_id: string | null;
  user_name: string;
  user_email: string;
  plan_id: string | null;
  subscription_id: string | null;
  type: TransactionType;
  status: TransactionStatus;
  amount_minor: number;
  currency: string;
  driver: TransactionDriver;
  /** Unique per driver: the provider's payment reference, or one made here. */
  reference: string;
  note: string;
  created_at: string;
  updated_at: string;
}
export type TransactionRow = Selectable<TransactionsTable>;

export type BillingEventStatus = 'received' | 'applied' | 'ignored' | 'review' | 'failed';

export interface BillingEventsTable {
  id: string;
  driver: PaymentDriver;
  event_id: string;
  event_type: string;
  payload: string;
  /** JSON of the BillingEffect read at verification. */
  effect: string;
  occurred_at: string;
  /** `review`: verified, but it matched no checkout (or could never be applied); moved nothing. */
  status: BillingEventStatus;
  error: string | null;
  received_at: string;
  applied_at: string | null;
}
export type BillingEventRow = Selectable<BillingEventsTable>;

/** A checkout made here (migration 0027): what a provider's payment must match to be applied. */
export interface CheckoutsTable {
  id: string;
  driver: PaymentDriver;
  /** Ours: unique per driver, the reference the provider's payment carries back. */
  reference: string;
  user_id: string;
  purpose: 'plan' | 'balance';
  plan_id: string | null;
  amount_minor: number;
  currency: string;
  created_at: string;
  /** When the plan's checkout started its subscription (each starts one); null until then. */
  used_at: string | null;
}
export type CheckoutRow = Selectable<CheckoutsTable>;

export interface PlanRegistrationsTable {
  plan_id: string;
  driver: PaymentDriver;
  provider_plan_id: string;
  created_at: string;
}

export interface BalancesTable {
  user_id: string;
  amount_minor: number;
  currency: string;
  updated_at: string;
}

declare module '../../db/schema' {
  interface DB {
    plans: PlansTable;
    subscriptions: SubscriptionsTable;
    transactions: TransactionsTable;
    billing_events: BillingEventsTable;
    checkouts: CheckoutsTable;
    plan_registrations: PlanRegistrationsTable;
    balances: BalancesTable;
  }
}
