import Stripe from 'stripe';
import type { Settings } from '../../settings/settings.defaults';
import type { PlanRow, SubscriptionRow } from '../billing.tables';
import {
  WebhookSignatureError,
  type BillingEffect,
  type CheckoutRequest,
  type CheckoutSession,
  type PaymentProvider,
  type VerifiedEvent,
} from '../payment-provider';
import { PaymentProviderError } from './provider-error';

export const STRIPE_API_URL = 'https://api.stripe.com';
/** How old a signed webhook may be, in seconds (Stripe's own default). */
export const STRIPE_SIGNATURE_TOLERANCE = 300;

export interface StripeProviderOptions {
  /** Where the Stripe API is; tests point it at a local peer. */
  baseUrl?: string;
  /** The clock a webhook's signature age is measured against. */
  now: () => Date;
  /** Attempts after a network error or a 409/5xx (Stripe sends idempotency keys with each retry). */
  maxNetworkRetries?: number;
}

/** A webhook's object as received: read by field, since its shape depends on the endpoint's API version. */
type Fields = Record<string, unknown>;

function record(value: unknown): Fields | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function integer(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : 0;
}

/** An expandable field: the id, or the expanded object's id. */
function id(value: unknown): string | null {
  return text(value) ?? text(record(value)?.id);
}

function iso(seconds: unknown): string | null {
  return typeof seconds === 'number' && Number.isFinite(seconds)
    ? new Date(seconds * 1000).toISOString()
    : null;
}

function firstItem(subscription: Fields): Fields | null {
  const data = record(subscription.items)?.data;
  return Array.isArray(data) ? record(data[0]) : null;
}

/** The subscription an invoice is for: top level before API version 2025-03-31, under `parent` after. */
function invoiceSubscription(invoice: Fields): { id: string | null; metadata: Fields | null } {
  const details = record(record(invoice.parent)?.subscription_details);
  return {
    id: id(invoice.subscription) ?? id(details?.subscription),
    metadata: record(details?.metadata) ?? record(record(invoice.subscription_details)?.metadata),
  };
}

/**
 * Stripe through its official client: Checkout Sessions for plans and balance top-ups, Products and
 * Prices for plans, subscription updates for cancel and swap, and signed webhooks read into effects.
 */
export class StripeProvider implements PaymentProvider {
  readonly driver = 'stripe' as const;
  readonly checkoutInBrowser = false;
  private readonly address: { host: string; port: number; protocol: 'http' | 'https' };
  private readonly now: () => Date;
  private readonly maxNetworkRetries: number;
  /** One client per secret key, so a key the admin changes takes effect at the next call. */
  private client: { key: string; stripe: Stripe } | null = null;

  constructor(options: StripeProviderOptions) {
    const url = new URL(options.baseUrl ?? STRIPE_API_URL);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    this.address = {
      host: url.hostname,
      port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
      protocol,
    };
    this.now = options.now;
    this.maxNetworkRetries = options.maxNetworkRetries ?? 2;
  }

  configured(settings: Settings): boolean {
    return Boolean(settings.stripe_secret_key && settings.stripe_webhook_secret);
  }

  async createCheckout(request: CheckoutRequest, settings: Settings): Promise<CheckoutSession> {
    const { payer, purpose, reference } = request;
    const common = {
      client_reference_id: payer.id,
      customer_email: payer.email,
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
    };
    let params: Stripe.Checkout.SessionCreateParams;
    if (purpose.kind === 'plan') {
      const { plan } = purpose;
      const price = this.recurringPrice(plan);
      const metadata = { plan_id: plan.id, user_id: payer.id };
      params = {
        ...common,
        mode: 'subscription',
        line_items: [
          purpose.providerPlanId
            ? { price: purpose.providerPlanId, quantity: 1 }
            : {
                // Not registered yet (the registration job retries): the same price, inline.
                price_data: {
                  currency: price.currency,
                  unit_amount: price.unit_amount,
                  recurring: price.recurring,
                  product_data: { name: plan.name },
                },
                quantity: 1,
              },
        ],
        metadata: { ...metadata, reference },
        // Copied onto the subscription, so its own events name the plan and the person too.
        subscription_data: { metadata },
      };
    } else {
      params = {
        ...common,
        mode: 'payment',
        line_items: [
          {
            price_data: {
              currency: purpose.currency.toLowerCase(),
              unit_amount: purpose.amountMinor,
              product_data: { name: settings.app_title },
            },
            quantity: 1,
          },
        ],
        metadata: { type: 'balance', user_id: payer.id, reference },
        payment_intent_data: { metadata: { type: 'balance', user_id: payer.id, reference } },
      };
    }
    const session = await this.call(settings, (stripe) =>
      stripe.checkout.sessions.create(params, { idempotencyKey: `checkout-${reference}` }),
    );
    if (!session.url)
      throw new PaymentProviderError('stripe', 'provider_rejected', 'Stripe answered no checkout URL');
    return { url: session.url };
  }

  async cancelAtPeriodEnd(subscription: SubscriptionRow, settings: Settings): Promise<void> {
    const subscriptionId = this.subscriptionId(subscription);
    await this.call(settings, (stripe) =>
      stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }),
    );
  }

  async swap(
    subscription: SubscriptionRow,
    plan: PlanRow,
    providerPlanId: string,
    settings: Settings,
  ): Promise<void> {
    const subscriptionId = this.subscriptionId(subscription);
    // A metered plan has no Stripe price to move to: refused before any call.
    this.recurringPrice(plan);
    const current = await this.call(settings, (stripe) => stripe.subscriptions.retrieve(subscriptionId));
    const item = current.items.data[0];
    if (!item) {
      throw new PaymentProviderError('stripe', 'provider_rejected', 'The Stripe subscription has no item');
    }
    await this.call(settings, (stripe) =>
      stripe.subscriptions.update(subscriptionId, {
        items: [{ id: item.id, price: providerPlanId }],
        // A swap also takes back a cancellation the person asked for earlier.
        cancel_at_period_end: false,
        proration_behavior: 'create_prorations',
        metadata: { plan_id: plan.id, user_id: subscription.user_id },
      }),
    );
  }

  async registerPlan(plan: PlanRow, settings: Settings): Promise<string> {
    const price = this.recurringPrice(plan);
    // The registration job retries: the same keys make a retried call answer the first result.
    const product = await this.call(settings, (stripe) =>
      stripe.products.create(
        { name: plan.name, metadata: { plan_id: plan.id } },
        { idempotencyKey: `plan-${plan.id}-product` },
      ),
    );
    const created = await this.call(settings, (stripe) =>
      stripe.prices.create(
        { ...price, product: product.id, metadata: { plan_id: plan.id } },
        { idempotencyKey: `plan-${plan.id}-price` },
      ),
    );
    return created.id;
  }

  async verifyWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    settings: Settings,
  ): Promise<VerifiedEvent> {
    const secret = settings.stripe_webhook_secret;
    if (!secret) throw new WebhookSignatureError('No Stripe webhook secret is set');
    const header = headers['stripe-signature'];
    if (typeof header !== 'string' || header === '') {
      throw new WebhookSignatureError('Missing Stripe-Signature header');
    }
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(
        rawBody,
        header,
        secret,
        STRIPE_SIGNATURE_TOLERANCE,
        undefined,
        this.now().getTime(),
      );
    } catch (error) {
      // Stripe's message says which check failed (no match, stale, malformed) and holds no secret.
      throw new WebhookSignatureError(
        error instanceof Error ? error.message.split('\n')[0] : 'Bad signature',
      );
    }
    const eventId = text(event.id);
    if (!eventId || typeof event.type !== 'string') throw new WebhookSignatureError('Not a Stripe event');
    return {
      eventId,
      type: event.type,
      occurredAt: iso(event.created) ?? this.now().toISOString(),
      effect: stripeEffect(event.type, record(record(event.data)?.object) ?? {}),
    };
  }

  private subscriptionId(subscription: SubscriptionRow): string {
    if (!subscription.provider_subscription_id) {
      throw new PaymentProviderError('stripe', 'provider_rejected', 'The subscription has no Stripe id');
    }
    return subscription.provider_subscription_id;
  }

  /** A fixed plan's price as Stripe counts it: minor units, lower-case currency, month or year. */
  private recurringPrice(plan: PlanRow): {
    currency: string;
    unit_amount: number;
    recurring: { interval: 'month' | 'year' };
  } {
    if (plan.type !== 'fixed' || plan.amount_minor === null || plan.interval === null) {
      throw new PaymentProviderError(
        'stripe',
        'plan_unsupported',
        'Only a fixed plan is sold through Stripe',
      );
    }
    return {
      currency: plan.currency.toLowerCase(),
      unit_amount: plan.amount_minor,
      recurring: { interval: plan.interval },
    };
  }

  private stripe(settings: Settings): Stripe {
    const key = settings.stripe_secret_key;
    if (!key) throw new PaymentProviderError('stripe', 'not_configured', 'No Stripe secret key is set');
    if (this.client?.key !== key) {
      this.client = {
        key,
        stripe: new Stripe(key, {
          ...this.address,
          maxNetworkRetries: this.maxNetworkRetries,
          timeout: 20_000,
          telemetry: false,
        }),
      };
    }
    return this.client.stripe;
  }

  /** Runs one API call; Stripe's refusals and network failures become a PaymentProviderError. */
  private async call<T>(settings: Settings, run: (stripe: Stripe) => Promise<T>): Promise<T> {
    const stripe = this.stripe(settings);
    try {
      return await run(stripe);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError) {
        throw new PaymentProviderError('stripe', 'provider_rejected', `Stripe: ${error.message}`, {
          cause: error,
        });
      }
      throw error;
    }
  }
}

/** A subscription's statuses in which Stripe no longer bills it. */
const ENDED_STATUSES = new Set(['unpaid', 'incomplete_expired', 'canceled']);

/** What a Stripe event means to the ledger; every field comes from the signed event itself. */
export function stripeEffect(type: string, object: Fields): BillingEffect {
  switch (type) {
    // A session paid by a delayed method (a bank debit) completes unpaid; its payment's success comes
    // days later with the same session, paid.
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.completed': {
      // Completed by a delayed method, the session is unpaid: the payment is not in yet.
      if (object.payment_status !== 'paid' && object.payment_status !== 'no_payment_required') {
        return { kind: 'none' };
      }
      const metadata = record(object.metadata) ?? {};
      const userId = text(object.client_reference_id) ?? text(metadata.user_id);
      if (object.mode === 'subscription') {
        const planId = text(metadata.plan_id);
        const subscriptionId = id(object.subscription);
        if (!userId || !planId || !subscriptionId) return { kind: 'none' };
        return {
          kind: 'subscription.started',
          userId,
          plan: { id: planId },
          providerSubscriptionId: subscriptionId,
          // The period arrives with the subscription's own events.
          renewsAt: null,
        };
      }
      if (object.mode === 'payment' && metadata.type === 'balance') {
        const currency = text(object.currency);
        if (!currency) return { kind: 'none' };
        return {
          kind: 'payment.succeeded',
          purpose: 'balance',
          reference: text(metadata.reference) ?? text(object.id) ?? '',
          amountMinor: integer(object.amount_total),
          currency: currency.toUpperCase(),
          userId,
          providerSubscriptionId: null,
        };
      }
      return { kind: 'none' };
    }
    case 'customer.subscription.updated': {
      const subscriptionId = text(object.id);
      if (!subscriptionId) return { kind: 'none' };
      // Stripe bills it no more (retries given up, never paid, cancelled): its plan ends now.
      if (ENDED_STATUSES.has(text(object.status) ?? ''))
        return { kind: 'subscription.ended', providerSubscriptionId: subscriptionId };
      const item = firstItem(object);
      const price = record(item?.price);
      // Prices this instance registered carry our plan id; a checkout's inline price does not, but
      // the subscription's metadata (set at checkout and at each swap) does.
      const planId = text(record(price?.metadata)?.plan_id) ?? text(record(object.metadata)?.plan_id);
      const priceId = id(price);
      const plan = planId ? { id: planId } : priceId ? { providerPlanId: priceId } : undefined;
      return {
        kind: 'subscription.changed',
        providerSubscriptionId: subscriptionId,
        // On the subscription before API version 2025-03-31, on each item after.
        renewsAt: iso(object.current_period_end) ?? iso(item?.current_period_end),
        cancelAtPeriodEnd: object.cancel_at_period_end === true,
        ...(plan ? { plan } : {}),
      };
    }
    case 'customer.subscription.deleted': {
      const subscriptionId = text(object.id);
      return subscriptionId
        ? { kind: 'subscription.ended', providerSubscriptionId: subscriptionId }
        : { kind: 'none' };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const reference = text(object.id);
      const currency = text(object.currency);
      if (!reference || !currency) return { kind: 'none' };
      const subscription = invoiceSubscription(object);
      const common = {
        reference,
        currency: currency.toUpperCase(),
        userId: text(subscription.metadata?.user_id),
        providerSubscriptionId: subscription.id,
      };
      return type === 'invoice.paid'
        ? {
            kind: 'payment.succeeded',
            purpose: 'subscription',
            amountMinor: integer(object.amount_paid),
            ...common,
          }
        : { kind: 'payment.failed', amountMinor: integer(object.amount_due), ...common };
    }
    default:
      return { kind: 'none' };
  }
}
