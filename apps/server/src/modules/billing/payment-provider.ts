import type { PaymentDriver } from '@atelier/contracts';
import type { Settings } from '../settings/settings.defaults';
import type { PlanRow, SubscriptionRow } from './billing.tables';

/** Who pays, as a provider's checkout needs them. */
export interface Payer {
  id: string;
  name: string;
  email: string;
}

/** What a checkout is for: a plan (with its id at this provider, once registered) or a top-up. */
export type CheckoutPurpose =
  | { kind: 'plan'; plan: PlanRow; providerPlanId: string | null }
  | { kind: 'balance'; amountMinor: number; currency: string };

export interface CheckoutRequest {
  payer: Payer;
  purpose: CheckoutPurpose;
  /** Made here: 10 characters [A-Za-z0-9], unique per driver. */
  reference: string;
  /** Where the provider sends the person back. */
  successUrl: string;
  cancelUrl: string;
}

/** A provider's answer: the page to send the person to, or what an inline form needs. */
export interface CheckoutSession {
  url?: string;
  publicKey?: string;
}

/**
 * What a verified webhook event means, in the provider's words translated to ours. Applying it
 * needs nothing from the provider: every field the ledger needs is in the signed event.
 */
export type BillingEffect =
  | {
      kind: 'subscription.started';
      userId: string;
      /** Ours, from the checkout's metadata; or the provider's plan id (PayPal) to look up. */
      plan: { id: string } | { providerPlanId: string };
      providerSubscriptionId: string;
      renewsAt: string | null;
    }
  | {
      kind: 'subscription.changed';
      providerSubscriptionId: string;
      renewsAt: string | null;
      cancelAtPeriodEnd: boolean;
      /** Set when the provider reports a swap to another plan. */
      plan?: { id: string } | { providerPlanId: string };
    }
  | { kind: 'subscription.ended'; providerSubscriptionId: string }
  | {
      kind: 'payment.succeeded';
      purpose: 'subscription' | 'balance';
      reference: string;
      amountMinor: number;
      currency: string;
      userId: string | null;
      providerSubscriptionId: string | null;
      /** The next payment date, where the provider's renewal names it (Paystack's invoice). */
      renewsAt?: string | null;
    }
  | {
      kind: 'payment.failed';
      reference: string;
      amountMinor: number;
      currency: string;
      userId: string | null;
      providerSubscriptionId: string | null;
    }
  /**
   * The payer approved a payment the provider takes only when asked (a PayPal order): the job
   * completes it, and the provider's own "completed" event then credits it.
   */
  | { kind: 'payment.approved'; providerPaymentId: string }
  /** Verified but of a kind the ledger does not use: stored, answered 200, nothing applied. */
  | { kind: 'none' };

export interface VerifiedEvent {
  /** The provider's event id: the replay guard. */
  eventId: string;
  type: string;
  /** When the provider says it happened; an older change than the one applied is ignored. */
  occurredAt: string;
  effect: BillingEffect;
}

/** A webhook whose signature is missing, malformed, wrong or stale: 400, nothing stored. */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/**
 * One payment provider. Every call to the provider's API goes through here, against the base URL
 * the provider was made with, so tests point it at a local server playing that API.
 */
export interface PaymentProvider {
  readonly driver: PaymentDriver;
  /**
   * The checkout is a form in the payer's browser (Paystack's inline form): who an event says pays,
   * and for what, came from that browser. Otherwise this server set them through the provider's API.
   */
  readonly checkoutInBrowser: boolean;
  /** The admin entered what this provider needs to take payments. */
  configured(settings: Settings): boolean;
  createCheckout(request: CheckoutRequest, settings: Settings): Promise<CheckoutSession>;
  /** Stops renewing; the subscription stays active to the end of the paid period. */
  cancelAtPeriodEnd(subscription: SubscriptionRow, settings: Settings): Promise<void>;
  swap(
    subscription: SubscriptionRow,
    plan: PlanRow,
    providerPlanId: string,
    settings: Settings,
  ): Promise<void>;
  /** Takes the money of a payment the payer approved (`payment.approved`); safe to call twice. */
  completePayment?(providerPaymentId: string, settings: Settings): Promise<void>;
  /** Creates the plan at the provider; answers the provider's id for it. */
  registerPlan(plan: PlanRow, settings: Settings): Promise<string>;
  /** Verifies the signature over the raw body first, then reads the event. */
  verifyWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    settings: Settings,
  ): Promise<VerifiedEvent>;
}
