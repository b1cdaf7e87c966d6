import { z } from 'zod';
import { MAX_CAPACITY_GB } from './admin-users';
import {
  Interval,
  PaymentDriver,
  PlanStatus,
  SubscriptionStatus,
  TransactionStatus,
  TransactionType,
} from './enums';
import { Paginate } from './resource';

/**
 * Money travels as decimal strings ("19.99", JPY "500") and is stored as integer minor units, so
 * no amount ever passes through a float. A currency's minor-unit digits are ISO 4217's, as the
 * runtime's Intl data knows them (USD 2, JPY 0, KWD 3).
 */
export function currencyDigits(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

/** ISO 4217 codes the runtime knows; anything else is refused rather than guessed at. */
export function isCurrency(code: string): boolean {
  return Intl.supportedValuesOf('currency').includes(code);
}

/** Whole part up to 10 digits (ten billion), then up to 3 decimals; the currency narrows that. */
const MONEY_PATTERN = /^(\d{1,10})(?:\.(\d{1,3}))?$/;

/** "19.99" in USD -> 1999; null when it is no amount or has more decimals than the currency. */
export function toMinorUnits(amount: string, currency: string): number | null {
  const match = MONEY_PATTERN.exec(amount);
  if (!match) return null;
  const digits = currencyDigits(currency);
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/** 1999 in USD -> "19.99"; 500 in JPY -> "500". */
export function fromMinorUnits(minor: number, currency: string): string {
  const digits = currencyDigits(currency);
  if (digits === 0) return String(minor);
  const text = String(minor).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

export const MeterKey = z.enum(['storage', 'bandwidth', 'members', 'flat_fee']);
export type MeterKey = z.infer<typeof MeterKey>;
export const MeterAggregate = z.enum(['sum', 'maximum']);
export type MeterAggregate = z.infer<typeof MeterAggregate>;

const PlanName = z.string().trim().min(1, 'validation.required').max(120, 'billing.name_length');
const PlanDescription = z.string().trim().max(1000, 'billing.description_length').default('');
const Currency = z
  .string()
  .trim()
  .toUpperCase()
  .refine((code) => /^[A-Z]{3}$/.test(code) && isCurrency(code), 'billing.currency_unknown');
const Money = z.string().trim().regex(MONEY_PATTERN, 'billing.money_format');

export const PlanFeatures = z.object({
  /** GB of 10^9 bytes, as the admin's capacities. */
  max_storage_amount: z
    .number()
    .int('billing.storage_amount')
    .min(1, 'billing.storage_amount')
    .max(MAX_CAPACITY_GB),
  max_team_members: z.number().int().min(-1, 'billing.team_members').max(100_000, 'billing.team_members'),
});
export type PlanFeatures = z.infer<typeof PlanFeatures>;

/**
 * One price step of a meter. Units are counted from 1 (a started GB counts as a unit); a tier covers
 * first_unit..last_unit inclusive, the next one starts at last_unit + 1, and only the last tier may
 * be open-ended (last_unit null). Every tier carries both prices (either may be "0").
 */
export const MeterTier = z.object({
  first_unit: z.number().int().min(1, 'billing.tier_first_unit'),
  last_unit: z.number().int().min(1).nullable(),
  per_unit: Money,
  flat_fee: Money,
});
export type MeterTier = z.infer<typeof MeterTier>;

export const PlanMeter = z.object({
  key: MeterKey,
  aggregate: MeterAggregate,
  tiers: z.array(MeterTier).min(1, 'billing.tiers_required').max(20),
});
export type PlanMeter = z.infer<typeof PlanMeter>;

/** Every rule of a meter's tiers, reported on the field to fix (`meters.0.tiers.1.first_unit`). */
function checkTiers(tiers: MeterTier[], path: (string | number)[], ctx: z.RefinementCtx) {
  tiers.forEach((tier, i) => {
    const at = [...path, i];
    const previousLast = i === 0 ? 0 : tiers[i - 1]!.last_unit;
    if (previousLast === null) return; // an open tier before this one is reported on that tier
    const expectedFirst = previousLast + 1;
    if (tier.first_unit !== expectedFirst) {
      ctx.addIssue({
        code: 'custom',
        path: [...at, 'first_unit'],
        message: i === 0 ? 'billing.tier_first_unit' : 'billing.tier_contiguous',
      });
    }
    if (tier.last_unit === null) {
      if (i < tiers.length - 1)
        ctx.addIssue({ code: 'custom', path: [...at, 'last_unit'], message: 'billing.tier_open_last' });
    } else if (tier.last_unit < tier.first_unit) {
      ctx.addIssue({ code: 'custom', path: [...at, 'last_unit'], message: 'billing.tier_range' });
    } else if (i === tiers.length - 1) {
      ctx.addIssue({ code: 'custom', path: [...at, 'last_unit'], message: 'billing.tier_open_end' });
    }
  });
}

function checkMoney(value: string, currency: string, path: (string | number)[], ctx: z.RefinementCtx) {
  if (isCurrency(currency) && toMinorUnits(value, currency) === null) {
    ctx.addIssue({ code: 'custom', path, message: 'billing.money_decimals' });
  }
}

export const CreateFixedPlanBody = z
  .object({
    type: z.literal('fixed'),
    name: PlanName,
    description: PlanDescription,
    currency: Currency,
    amount: Money,
    interval: Interval,
    features: PlanFeatures,
  })
  .superRefine((plan, ctx) => {
    checkMoney(plan.amount, plan.currency, ['amount'], ctx);
    if (toMinorUnits(plan.amount, plan.currency) === 0) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'billing.amount_positive' });
    }
  });

export const CreateMeteredPlanBody = z
  .object({
    type: z.literal('metered'),
    name: PlanName,
    description: PlanDescription,
    currency: Currency,
    meters: z.array(PlanMeter).min(1, 'billing.meters_required').max(MeterKey.options.length),
  })
  .superRefine((plan, ctx) => {
    plan.meters.forEach((meter, m) => {
      if (plan.meters.findIndex((other) => other.key === meter.key) !== m) {
        ctx.addIssue({ code: 'custom', path: ['meters', m, 'key'], message: 'billing.meter_duplicate' });
      }
      checkTiers(meter.tiers, ['meters', m, 'tiers'], ctx);
      meter.tiers.forEach((tier, t) => {
        checkMoney(tier.per_unit, plan.currency, ['meters', m, 'tiers', t, 'per_unit'], ctx);
        checkMoney(tier.flat_fee, plan.currency, ['meters', m, 'tiers', t, 'flat_fee'], ctx);
      });
    });
  });

/** POST /api/admin/plans. */
export const CreatePlanBody = z.discriminatedUnion('type', [CreateFixedPlanBody, CreateMeteredPlanBody]);
export type CreatePlanBody = z.infer<typeof CreatePlanBody>;
export type CreateFixedPlanBody = z.infer<typeof CreateFixedPlanBody>;
export type CreateMeteredPlanBody = z.infer<typeof CreateMeteredPlanBody>;

/**
 * PATCH /api/admin/plans/{id}: the words and a fixed plan's features. The price (currency, amount,
 * interval, meters) is set once: subscribers and payment providers hold it.
 */
export const UpdatePlanBody = z.object({
  name: PlanName.optional(),
  description: z.string().trim().max(1000, 'billing.description_length').optional(),
  features: PlanFeatures.optional(),
});
export type UpdatePlanBody = z.infer<typeof UpdatePlanBody>;

export const PlanParams = z.object({ id: z.string().max(64) });

export const AdminPlansQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(50),
});

const PlanCommon = {
  name: z.string(),
  description: z.string(),
  currency: z.string(),
  status: PlanStatus,
  created_at: z.string(),
  updated_at: z.string(),
};

export const PlanAttributes = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('fixed'),
    ...PlanCommon,
    amount: z.string(),
    interval: Interval,
    features: PlanFeatures,
  }),
  z.object({ type: z.literal('metered'), ...PlanCommon, meters: z.array(PlanMeter) }),
]);
export type PlanAttributes = z.infer<typeof PlanAttributes>;

export const PlanItem = z.object({ id: z.string(), type: z.literal('plan'), attributes: PlanAttributes });
export type PlanItem = z.infer<typeof PlanItem>;

/** A plan as the admin sees it: with how many people hold it. */
export const AdminPlanItem = PlanItem.extend({ meta: z.object({ subscribers: z.number().int() }) });
export type AdminPlanItem = z.infer<typeof AdminPlanItem>;

export const AdminPlanResource = z.object({ data: AdminPlanItem });
export type AdminPlanResource = z.infer<typeof AdminPlanResource>;

export const AdminPlanList = z.object({
  data: z.array(AdminPlanItem),
  meta: z.object({ paginate: Paginate }),
});
export type AdminPlanList = z.infer<typeof AdminPlanList>;

/** GET /api/subscriptions/plans: the active plans of the instance's subscription type. */
export const PlanList = z.object({ data: z.array(PlanItem) });
export type PlanList = z.infer<typeof PlanList>;

/** One person holding a plan. */
export const PlanSubscriber = z.object({
  id: z.string(),
  user: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  status: SubscriptionStatus,
  created_at: z.string(),
  ends_at: z.string().nullable(),
});
export type PlanSubscriber = z.infer<typeof PlanSubscriber>;

export const PlanSubscriberList = z.object({
  data: z.array(PlanSubscriber),
  meta: z.object({ paginate: Paginate }),
});
export type PlanSubscriberList = z.infer<typeof PlanSubscriberList>;

/** The 10-character alphanumeric reference a checkout is known by (the card provider's form needs it). */
export const PAYMENT_REFERENCE_LENGTH = 10;

/** POST /api/subscriptions/checkout. */
export const CheckoutBody = z.object({ plan_id: z.string().max(64), driver: PaymentDriver });
export type CheckoutBody = z.infer<typeof CheckoutBody>;

/** POST /api/subscriptions/balance/checkout: a top-up of the metered balance. */
export const BalanceCheckoutBody = z.object({ amount: Money, driver: PaymentDriver });
export type BalanceCheckoutBody = z.infer<typeof BalanceCheckoutBody>;

/**
 * What the web needs to take the payment: Stripe and PayPal send the person to `url`; Paystack's
 * inline form takes the rest (its `amount_subunit` is what Paystack counts in: kobo, cents).
 */
export const CheckoutAnswer = z.object({
  data: z.object({
    driver: PaymentDriver,
    reference: z.string(),
    url: z.string().optional(),
    public_key: z.string().optional(),
    email: z.string().optional(),
    amount: z.string().optional(),
    amount_subunit: z.number().int().optional(),
    currency: z.string().optional(),
    plan: z.string().nullable().optional(),
  }),
});
export type CheckoutAnswer = z.infer<typeof CheckoutAnswer>;

/** POST /api/subscriptions/swap. */
export const SwapBody = z.object({ plan_id: z.string().max(64) });
export type SwapBody = z.infer<typeof SwapBody>;

export const SubscriptionResource = z.object({
  id: z.string(),
  plan: PlanItem,
  status: SubscriptionStatus,
  /** Null for a metered plan settled from the balance. */
  driver: PaymentDriver.nullable(),
  renews_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  created_at: z.string(),
});
export type SubscriptionResource = z.infer<typeof SubscriptionResource>;

/**
 * The swap's answer: the subscription on its new plan, or, when the provider wants the payer to
 * approve the new price first (PayPal), the subscription as it is and the page to approve it on.
 */
export const SwapAnswer = z.object({
  data: SubscriptionResource,
  meta: z.object({ approve_url: z.string() }).optional(),
});
export type SwapAnswer = z.infer<typeof SwapAnswer>;

export const Amount = z.object({ amount: z.string(), currency: z.string() });
export type Amount = z.infer<typeof Amount>;

/** The current period's metered use: one line per meter, priced through every tier. */
export const UsageEstimate = z.object({
  period_start: z.string(),
  period_end: z.string(),
  currency: z.string(),
  items: z.array(z.object({ key: MeterKey, quantity: z.number(), amount: z.string() })),
  total: z.string(),
});
export type UsageEstimate = z.infer<typeof UsageEstimate>;

/** GET /api/subscriptions/detail. */
export const SubscriptionDetail = z.object({
  data: z.object({
    subscription: SubscriptionResource.nullable(),
    balance: Amount.nullable().optional(),
    usage: UsageEstimate.nullable().optional(),
    /** The user's billing alert threshold (metered), null when none is set. */
    alert: Amount.nullable().optional(),
    /** The drivers the admin allowed, for checkout and top-up buttons. */
    drivers: z.array(PaymentDriver),
  }),
});
export type SubscriptionDetail = z.infer<typeof SubscriptionDetail>;

export const TransactionItem = z.object({
  id: z.string(),
  note: z.string(),
  status: TransactionStatus,
  type: TransactionType,
  amount: z.string(),
  currency: z.string(),
  driver: z.string(),
  reference: z.string(),
  created_at: z.string(),
  /** True when a PDF invoice can be downloaded (completed charges). */
  invoice: z.boolean(),
});
export type TransactionItem = z.infer<typeof TransactionItem>;

export const TransactionsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
});

/** GET /api/user/transactions. */
export const TransactionList = z.object({
  data: z.array(TransactionItem),
  meta: z.object({ paginate: Paginate }),
});
export type TransactionList = z.infer<typeof TransactionList>;

export const TransactionParams = z.object({ id: z.string().max(64) });

/** GET /api/admin/transactions: every transaction with whose it is; filters narrow it. */
export const AdminTransactionsQuery = TransactionsQuery.extend({
  search: z.string().trim().max(200).optional(),
  type: TransactionType.optional(),
  status: TransactionStatus.optional(),
  driver: z.string().max(20).optional(),
});
export const AdminTransactionItem = TransactionItem.extend({
  user: z.object({ id: z.string().nullable(), name: z.string(), email: z.string() }),
});
export type AdminTransactionItem = z.infer<typeof AdminTransactionItem>;
export const AdminTransactionList = z.object({
  data: z.array(AdminTransactionItem),
  meta: z.object({ paginate: Paginate }),
});
export type AdminTransactionList = z.infer<typeof AdminTransactionList>;

/** GET /api/admin/subscriptions. */
export const AdminSubscriptionsQuery = TransactionsQuery.extend({
  search: z.string().trim().max(200).optional(),
  status: SubscriptionStatus.optional(),
});
export const AdminSubscriptionItem = z.object({
  id: z.string(),
  user: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  plan: z.object({ id: z.string(), name: z.string(), type: z.enum(['fixed', 'metered']) }),
  status: SubscriptionStatus,
  driver: PaymentDriver.nullable(),
  renews_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  created_at: z.string(),
});
export type AdminSubscriptionItem = z.infer<typeof AdminSubscriptionItem>;
export const AdminSubscriptionList = z.object({
  data: z.array(AdminSubscriptionItem),
  meta: z.object({ paginate: Paginate }),
});
export type AdminSubscriptionList = z.infer<typeof AdminSubscriptionList>;

/**
 * GET /api/admin/payment-events: verified provider events the ledger did not apply — a payment
 * that matched no checkout (`review`), or one that could never be applied (`failed`).
 */
export const PaymentEventStatus = z.enum(['review', 'failed']);
export const AdminPaymentEventsQuery = TransactionsQuery.extend({
  status: PaymentEventStatus.default('review'),
});
export const AdminPaymentEventItem = z.object({
  id: z.string(),
  driver: PaymentDriver,
  event_id: z.string(),
  event_type: z.string(),
  status: PaymentEventStatus,
  /** Why it was not applied: a mismatch reason (`no_checkout`, `amount`, …) or the failure. */
  reason: z.string().nullable(),
  /** What the payment claimed, when it is one. */
  payment: z
    .object({
      reference: z.string(),
      amount: z.string(),
      currency: z.string(),
      user_id: z.string().nullable(),
    })
    .nullable(),
  received_at: z.string(),
});
export type AdminPaymentEventItem = z.infer<typeof AdminPaymentEventItem>;
export const AdminPaymentEventList = z.object({
  data: z.array(AdminPaymentEventItem),
  meta: z.object({ paginate: Paginate }),
});
export type AdminPaymentEventList = z.infer<typeof AdminPaymentEventList>;

/** POST /api/admin/users/{id}/credit. */
export const CreditBody = z.object({
  amount: Money,
  note: z.string().trim().min(1, 'validation.required').max(200),
});
export type CreditBody = z.infer<typeof CreditBody>;
