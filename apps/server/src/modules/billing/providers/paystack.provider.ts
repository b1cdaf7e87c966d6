import { trimCharacters } from '../../../lib/trim-characters';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
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

export const PAYSTACK_API_URL = 'https://api.paystack.co';
/** An HMAC-SHA512 in hex. */
const SIGNATURE_HEX_LENGTH = 128;

export interface PaystackProviderOptions {
  /** Where the Paystack API is; tests point it at a local peer. */
  baseUrl?: string;
  /** The receipt time of events that carry no time of their own. */
  now: () => Date;
  /**
   * Finds an account by e-mail (a local lookup, no call to Paystack): `subscription.create` names
   * its payer only by the e-mail the checkout gave Paystack, and this turns it into our user id.
   */
  userIdByEmail?: (email: string) => Promise<string | null>;
}

/**
 * `subscription.started` as Paystack can tell it: its `subscription.create` event names the
 * customer by e-mail only (the checkout's metadata stays on the charge), so `userId` is the
 * customer's `metadata.user_id` when someone set it, else the account found by `payerEmail` (the
 * address the checkout gave Paystack) through the `userIdByEmail` option, else empty.
 */
export type PaystackSubscriptionStarted = Extract<BillingEffect, { kind: 'subscription.started' }> & {
  payerEmail: string | null;
};

/** Every effect a Paystack event can have: the ledger's, with the start naming its payer's e-mail. */
export type PaystackEffect =
  Exclude<BillingEffect, { kind: 'subscription.started' }> | PaystackSubscriptionStarted;

type Fields = Record<string, unknown>;

function record(value: unknown): Fields | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : null;
}

function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return typeof value === 'string' && value !== '' ? value : null;
}

function integer(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : 0;
}

/** A Paystack time (ISO 8601) normalised, or null. */
function iso(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

/** A transaction's metadata: an object, or the JSON text of one (older integrations), or nothing. */
function metadataOf(value: unknown): Fields {
  if (typeof value === 'string') {
    try {
      return record(JSON.parse(value)) ?? {};
    } catch {
      return {};
    }
  }
  return record(value) ?? {};
}

/**
 * Paystack through its REST API with fetch: plans registered with POST /plan, the inline form
 * answered without a call (Paystack charges the reference made here), cancel through
 * POST /subscription/disable, and webhooks verified by the HMAC-SHA512 of their raw body.
 */
export class PaystackProvider implements PaymentProvider {
  readonly driver = 'paystack' as const;
  readonly checkoutInBrowser = true;
  private readonly baseUrl: string;
  private readonly now: () => Date;
  private readonly userIdByEmail: ((email: string) => Promise<string | null>) | undefined;

  constructor(options: PaystackProviderOptions) {
    this.baseUrl = trimCharacters(options.baseUrl ?? PAYSTACK_API_URL, '/');
    this.now = options.now;
    this.userIdByEmail = options.userIdByEmail;
  }

  configured(settings: Settings): boolean {
    return Boolean(settings.paystack_public_key && settings.paystack_secret_key);
  }

  /**
   * Nothing is sent to Paystack: the web's inline form takes the public key with the reference,
   * e-mail, amount, currency and plan code the checkout route answers. A plan is sold only with
   * its Paystack plan code, since an inline charge without one would be paid once and never renew.
   */
  async createCheckout(request: CheckoutRequest, settings: Settings): Promise<CheckoutSession> {
    if (!settings.paystack_public_key) {
      throw new PaymentProviderError('paystack', 'not_configured', 'No Paystack public key is set');
    }
    if (request.purpose.kind === 'plan') {
      fixedAmount(request.purpose.plan);
      if (!request.purpose.providerPlanId) {
        throw new PaymentProviderError(
          'paystack',
          'plan_not_registered',
          'The plan is not registered with Paystack yet',
        );
      }
    }
    return { publicKey: settings.paystack_public_key };
  }

  async cancelAtPeriodEnd(subscription: SubscriptionRow, settings: Settings): Promise<void> {
    const code = subscription.provider_subscription_id;
    if (!code) {
      throw new PaymentProviderError(
        'paystack',
        'provider_rejected',
        'The subscription has no Paystack code',
      );
    }
    // Disabling needs the subscription's e-mail token, which only Paystack holds.
    const current = record(await this.request(settings, 'GET', `/subscription/${encodeURIComponent(code)}`));
    const token = text(current?.email_token);
    if (!token) {
      throw new PaymentProviderError('paystack', 'provider_rejected', 'Paystack answered no e-mail token');
    }
    await this.request(settings, 'POST', '/subscription/disable', { code, token });
  }

  /**
   * Paystack cannot move a subscription to another plan. Refused before any call, so nothing
   * changes: the person cancels (active to the end of the period) and subscribes to the new plan.
   */
  async swap(): Promise<void> {
    throw new PaymentProviderError(
      'paystack',
      'swap_unsupported',
      'Paystack cannot change the plan of a subscription; cancel it and subscribe to the new plan',
    );
  }

  async registerPlan(plan: PlanRow, settings: Settings): Promise<string> {
    const { amount, interval } = fixedAmount(plan);
    const created = record(
      await this.request(settings, 'POST', '/plan', {
        name: plan.name,
        ...(plan.description ? { description: plan.description } : {}),
        // Paystack counts in subunits (kobo, pesewas, cents): the plan's minor units.
        amount,
        interval: interval === 'year' ? 'annually' : 'monthly',
        currency: plan.currency,
      }),
    );
    const code = text(created?.plan_code);
    if (!code)
      throw new PaymentProviderError('paystack', 'provider_rejected', 'Paystack answered no plan code');
    return code;
  }

  async verifyWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    settings: Settings,
  ): Promise<VerifiedEvent> {
    const secret = settings.paystack_secret_key;
    if (!secret) throw new WebhookSignatureError('No Paystack secret key is set');
    const header = headers['x-paystack-signature'];
    if (
      typeof header !== 'string' ||
      header.length !== SIGNATURE_HEX_LENGTH ||
      !/^[0-9a-f]+$/i.test(header)
    ) {
      throw new WebhookSignatureError('Missing or malformed x-paystack-signature header');
    }
    const expected = createHmac('sha512', secret).update(rawBody).digest();
    const given = Buffer.from(header, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new WebhookSignatureError('The x-paystack-signature does not match the body');
    }
    let body: Fields | null;
    try {
      body = record(JSON.parse(rawBody.toString('utf8')));
    } catch {
      body = null;
    }
    const type = text(body?.event);
    const data = record(body?.data);
    if (!body || !type || !data) throw new WebhookSignatureError('Not a Paystack event');
    const receivedAt = this.now().toISOString();
    const effect = paystackEffect(type, data, { now: this.now(), currency: settings.currency });
    if (effect.kind === 'subscription.started' && !effect.userId && effect.payerEmail && this.userIdByEmail) {
      effect.userId = (await this.userIdByEmail(effect.payerEmail)) ?? '';
    }
    return {
      eventId: paystackEventId(type, data, rawBody),
      type,
      occurredAt: occurredAt(type, data) ?? receivedAt,
      effect,
    };
  }

  /** One API call; an answer without `status: true` or no answer at all is a PaymentProviderError. */
  private async request(
    settings: Settings,
    method: 'GET' | 'POST',
    path: string,
    body?: Fields,
  ): Promise<unknown> {
    const key = settings.paystack_secret_key;
    if (!key) throw new PaymentProviderError('paystack', 'not_configured', 'No Paystack secret key is set');
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(20_000),
      });
    } catch (error) {
      throw new PaymentProviderError('paystack', 'provider_rejected', 'Paystack could not be reached', {
        cause: error,
      });
    }
    const answer = record(await response.json().catch(() => null));
    if (!response.ok || answer?.status !== true) {
      const message = text(answer?.message) ?? `HTTP ${response.status}`;
      throw new PaymentProviderError('paystack', 'provider_rejected', `Paystack: ${message}`);
    }
    return answer.data;
  }
}

function fixedAmount(plan: PlanRow): { amount: number; interval: 'month' | 'year' } {
  if (plan.type !== 'fixed' || plan.amount_minor === null || plan.interval === null) {
    throw new PaymentProviderError(
      'paystack',
      'plan_unsupported',
      'Only a fixed plan is sold through Paystack',
    );
  }
  return { amount: plan.amount_minor, interval: plan.interval };
}

/**
 * Paystack's events carry no id, so the replay guard keys on what each event is about, which
 * Paystack repeats unchanged when it sends the event again: a charge by its transaction reference
 * (unique per integration), a subscription's start, end or non-renewal by its code (each happens
 * once per subscription), an invoice by its code and the attempt's transaction reference (each
 * failed attempt is its own event). Anything else by the SHA-256 of its raw body.
 */
export function paystackEventId(type: string, data: Fields, rawBody: Buffer): string {
  const subscription = record(data.subscription);
  const transaction = record(data.transaction);
  let key: string | null = null;
  switch (type) {
    case 'charge.success':
      key = text(data.reference) ?? text(data.id);
      break;
    case 'subscription.create':
    case 'subscription.disable':
    case 'subscription.not_renew':
      key = text(data.subscription_code);
      break;
    case 'invoice.create':
    case 'invoice.update':
    case 'invoice.payment_failed': {
      const invoice = text(data.invoice_code) ?? text(data.id);
      const attempt =
        text(transaction?.reference) ?? text(data.status) ?? text(subscription?.subscription_code);
      key = invoice ? `${invoice}:${attempt ?? ''}` : null;
      break;
    }
  }
  return `${type}:${key ?? `sha256:${createHash('sha256').update(rawBody).digest('hex')}`}`;
}

/**
 * When it happened, as far as the event tells: a charge's or invoice's payment time, a new
 * subscription's creation. A disabled or non-renewing subscription's object only holds its creation
 * time, which would make the change look older than the start: those take the receipt time.
 */
function occurredAt(type: string, data: Fields): string | null {
  switch (type) {
    case 'charge.success':
      return iso(data.paid_at) ?? iso(data.paidAt) ?? iso(data.created_at) ?? iso(data.createdAt);
    case 'subscription.create':
      return iso(data.createdAt) ?? iso(data.created_at);
    case 'invoice.update':
    case 'invoice.payment_failed':
      return iso(data.paid_at) ?? iso(data.updated_at) ?? iso(data.updatedAt) ?? iso(data.created_at);
    default:
      return null;
  }
}

/** What a Paystack event means to the ledger; every field comes from the signed event itself. */
export function paystackEffect(
  type: string,
  data: Fields,
  context: { now: Date; currency: string },
): PaystackEffect {
  const customer = record(data.customer);
  const subscription = record(data.subscription);
  const transaction = record(data.transaction);
  switch (type) {
    case 'charge.success': {
      // Only the charges of this instance's checkouts carry our metadata; a renewal's charge does
      // not, and arrives again as `invoice.update`, which names its subscription.
      const metadata = metadataOf(data.metadata);
      const userId = text(metadata.user_id);
      const reference = text(data.reference);
      const currency = text(data.currency);
      if (!userId || !reference || !currency) return { kind: 'none' };
      const purpose =
        metadata.type === 'balance' ? 'balance' : text(metadata.plan_id) ? 'subscription' : null;
      if (!purpose) return { kind: 'none' };
      return {
        kind: 'payment.succeeded',
        purpose,
        reference,
        amountMinor: integer(data.amount),
        currency: currency.toUpperCase(),
        userId,
        providerSubscriptionId: null,
      };
    }
    case 'subscription.create': {
      const code = text(data.subscription_code);
      const planCode = text(record(data.plan)?.plan_code) ?? text(data.plan);
      if (!code || !planCode) return { kind: 'none' };
      return {
        kind: 'subscription.started',
        userId: text(record(customer?.metadata)?.user_id) ?? '',
        payerEmail: text(customer?.email),
        plan: { providerPlanId: planCode },
        providerSubscriptionId: code,
        renewsAt: iso(data.next_payment_date),
      };
    }
    case 'subscription.not_renew':
    case 'subscription.disable': {
      const code = text(data.subscription_code);
      if (!code) return { kind: 'none' };
      const renewsAt = iso(data.next_payment_date);
      // Stopped renewing but paid until its next payment date: it runs to then.
      const stillPaid = renewsAt !== null && renewsAt > context.now.toISOString();
      if (type === 'subscription.not_renew' || data.status === 'non-renewing' || stillPaid) {
        return {
          kind: 'subscription.changed',
          providerSubscriptionId: code,
          renewsAt,
          cancelAtPeriodEnd: true,
        };
      }
      return { kind: 'subscription.ended', providerSubscriptionId: code };
    }
    case 'invoice.update':
    case 'invoice.payment_failed': {
      const code = text(subscription?.subscription_code);
      const reference = text(transaction?.reference) ?? text(data.invoice_code);
      if (!code || !reference) return { kind: 'none' };
      const common = {
        reference,
        amountMinor: integer(transaction?.amount ?? data.amount),
        currency: (text(transaction?.currency) ?? text(data.currency) ?? context.currency).toUpperCase(),
        userId: text(record(customer?.metadata)?.user_id),
        providerSubscriptionId: code,
      };
      if (type === 'invoice.payment_failed') return { kind: 'payment.failed', ...common };
      // An invoice is updated on other occasions too; only a paid one is a payment.
      if (data.paid !== true && data.status !== 'success') return { kind: 'none' };
      // Its next payment date, from Paystack's own schedule: adding a month to the last date would
      // drift after a short month (31 January, 28 February, 28 March).
      return {
        kind: 'payment.succeeded',
        purpose: 'subscription',
        ...common,
        renewsAt: iso(subscription?.next_payment_date),
      };
    }
    default:
      return { kind: 'none' };
  }
}
