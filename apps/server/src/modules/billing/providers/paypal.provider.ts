import { trimCharacters } from '../../../lib/trim-characters';
import { fromMinorUnits, PAYMENT_REFERENCE_LENGTH, toMinorUnits } from '@atelier/contracts';
import { verify as verifySignature, X509Certificate } from 'node:crypto';
import { request as httpsRequest, type Agent } from 'node:https';
import { crc32 } from 'node:zlib';
import { z } from 'zod';
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
import { PaymentApprovalRequired, PaymentNotCompletable, PaymentProviderError } from './provider-error';

export const PAYPAL_API_BASE_URL = 'https://api-m.paypal.com';

/** A token is used until this long before PayPal says it expires, so none expires in flight. */
const TOKEN_REFRESH_MARGIN_MS = 60_000;
const API_TIMEOUT_MS = 10_000;
/** A transmission older than this is refused: a captured webhook cannot be replayed later. */
const MAX_TRANSMISSION_AGE_MS = 5 * 60_000;
/** How far ahead of our clock a transmission may claim to be (clock skew, not more). */
const MAX_TRANSMISSION_SKEW_MS = 60_000;
const CERTIFICATE_TIMEOUT_MS = 5_000;
/** PayPal's certificate with its chain is a few KiB; anything much larger is not one. */
const CERTIFICATE_MAX_BYTES = 64 * 1024;
/** Signing certificates change rarely; a few URLs at most are ever live at once. */
const CERTIFICATE_CACHE_SIZE = 16;
const REFERENCE_PATTERN = new RegExp(`^[A-Za-z0-9]{${PAYMENT_REFERENCE_LENGTH}}$`);
const BASE64_PATTERN = /^[A-Za-z0-9+/]+={0,2}$/;
const PEM_BEGIN = '-----BEGIN CERTIFICATE-----';
const PEM_END = '-----END CERTIFICATE-----';

/** The PEM blocks of a certificate file, found by plain searches (no pattern can backtrack on it). */
function pemBlocks(pem: string): string[] {
  const blocks: string[] = [];
  let from = 0;
  for (;;) {
    const begin = pem.indexOf(PEM_BEGIN, from);
    if (begin < 0) return blocks;
    const end = pem.indexOf(PEM_END, begin + PEM_BEGIN.length);
    if (end < 0) return blocks;
    from = end + PEM_END.length;
    blocks.push(pem.slice(begin, from));
  }
}

export interface PayPalProviderOptions {
  /** PayPal's REST API; tests point it at a local server playing that API. */
  baseUrl?: string;
  /** The clock transmission times and certificate validity are checked against. */
  now: () => Date;
  /**
   * The agent the signing certificate is fetched through (Node's default trust store when absent);
   * tests give one that resolves a paypal.com name to a local HTTPS peer and trusts its test CA.
   */
  certificateAgent?: Agent;
  certificateTimeoutMs?: number;
}

/** A refusal of PayPal's API: the status and PayPal's error name, never the whole body. */
export class PayPalApiError extends PaymentProviderError {
  override name = 'PayPalApiError';
  constructor(
    readonly status: number,
    readonly issue: string | null,
    readonly debugId: string | null,
    operation: string,
  ) {
    super(
      'paypal',
      'provider_rejected',
      `PayPal ${operation} failed: ${status}${issue ? ` ${issue}` : ''}${debugId ? ` (debug id ${debugId})` : ''}`,
    );
  }
}

/** A swap PayPal will make only once the payer approves it at `approveUrl`. */
const TokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.number().positive() });
const IdAnswer = z.object({ id: z.string().min(1) });
const Links = z.array(z.object({ href: z.string(), rel: z.string() })).default([]);
const LinksAnswer = z.object({ id: z.string().min(1), links: Links });
const ErrorAnswer = z.object({ name: z.string().optional(), debug_id: z.string().optional() });

const Money = z.object({ value: z.string(), currency_code: z.string() });
const Event = z.object({
  id: z.string().min(1),
  event_type: z.string().min(1),
  create_time: z.string().min(1),
  resource: z.record(z.string(), z.unknown()).default({}),
});
const SubscriptionResource = z.object({
  id: z.string().min(1),
  status: z.string().optional(),
  plan_id: z.string().min(1).optional(),
  custom_id: z.string().min(1).optional(),
  billing_info: z
    .object({
      next_billing_time: z.string().optional(),
      outstanding_balance: Money.optional(),
      last_failed_payment: z.object({ amount: Money }).optional(),
    })
    .optional(),
});
/** A v1 sale: what each subscription payment is. */
const SaleResource = z.object({
  id: z.string().min(1),
  amount: z.object({ total: z.string(), currency: z.string() }),
  billing_agreement_id: z.string().min(1).optional(),
  custom: z.string().min(1).optional(),
});
/** What PayPal answers an order it will never capture: malformed, not found, unprocessable. */
const PERMANENT_CAPTURE_REFUSALS = new Set([400, 404, 422]);

/** A v2 capture: what a captured top-up order is. */
const CaptureResource = z.object({
  id: z.string().min(1),
  amount: Money,
  custom_id: z.string().min(1).optional(),
  invoice_id: z.string().optional(),
});
/** A v2 order the payer approved: ours when its purchase unit carries our reference. */
const OrderResource = z.object({
  id: z.string().min(1),
  intent: z.string().optional(),
  purchase_units: z
    .array(z.object({ invoice_id: z.string().optional(), custom_id: z.string().optional() }))
    .min(1),
});

/**
 * PayPal through its REST API with plain fetch: subscriptions for fixed plans (a catalog product
 * and a billing plan per plan), orders for balance top-ups, and webhooks verified here with the
 * signing certificate, never by asking PayPal's verify endpoint.
 */
export class PayPalProvider implements PaymentProvider {
  readonly driver = 'paypal' as const;
  readonly checkoutInBrowser = false;
  private readonly baseUrl: string;
  private readonly now: () => Date;
  private readonly certificateAgent: Agent | undefined;
  private readonly certificateTimeoutMs: number;
  private token: { credentials: string; value: Promise<{ token: string; expiresAt: number }> } | null = null;
  private readonly certificates = new Map<string, Promise<X509Certificate[]>>();

  constructor(options: PayPalProviderOptions) {
    this.baseUrl = trimCharacters(options.baseUrl ?? PAYPAL_API_BASE_URL, '/');
    this.now = options.now;
    this.certificateAgent = options.certificateAgent;
    this.certificateTimeoutMs = options.certificateTimeoutMs ?? CERTIFICATE_TIMEOUT_MS;
  }

  configured(settings: Settings): boolean {
    return Boolean(settings.paypal_client_id && settings.paypal_secret && settings.paypal_webhook_id);
  }

  /** A catalog product and a monthly or yearly plan with one regular cycle at the plan's price. */
  async registerPlan(plan: PlanRow, settings: Settings): Promise<string> {
    if (plan.type !== 'fixed' || plan.amount_minor === null || plan.interval === null) {
      throw new PaymentProviderError(
        'paypal',
        'plan_unsupported',
        'PayPal plans have a fixed price per interval: a metered plan is paid from the balance',
      );
    }
    // The request ids make a retried registration answer the same product and plan, not new ones.
    const product = read(
      IdAnswer,
      await this.call(settings, 'create product', 'POST', '/v1/catalogs/products', {
        requestId: `atelier-product-${plan.id}`,
        body: {
          name: plan.name.slice(0, 127),
          description: plan.description ? plan.description.slice(0, 256) : undefined,
          type: 'SERVICE',
          category: 'SOFTWARE',
        },
      }),
    );
    const created = read(
      IdAnswer,
      await this.call(settings, 'create plan', 'POST', '/v1/billing/plans', {
        requestId: `atelier-plan-${plan.id}`,
        body: {
          product_id: product.id,
          name: plan.name.slice(0, 127),
          description: plan.description ? plan.description.slice(0, 127) : undefined,
          status: 'ACTIVE',
          billing_cycles: [
            {
              frequency: { interval_unit: plan.interval === 'year' ? 'YEAR' : 'MONTH', interval_count: 1 },
              tenure_type: 'REGULAR',
              sequence: 1,
              total_cycles: 0,
              pricing_scheme: {
                fixed_price: {
                  value: fromMinorUnits(plan.amount_minor, plan.currency),
                  currency_code: plan.currency,
                },
              },
            },
          ],
          payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: 3 },
        },
      }),
    );
    return created.id;
  }

  /**
   * A plan: a subscription awaiting the payer's approval. A top-up: an order to capture once
   * approved (see captureOrder), its purchase unit carrying our reference as invoice id.
   */
  async createCheckout(request: CheckoutRequest, settings: Settings): Promise<CheckoutSession> {
    const { purpose, payer, reference } = request;
    if (purpose.kind === 'plan') {
      if (!purpose.providerPlanId) {
        throw new PaymentProviderError(
          'paypal',
          'plan_not_registered',
          `Plan ${purpose.plan.id} is not registered with PayPal yet`,
        );
      }
      const answer = read(
        LinksAnswer,
        await this.call(settings, 'create subscription', 'POST', '/v1/billing/subscriptions', {
          requestId: `atelier-checkout-${reference}`,
          body: {
            plan_id: purpose.providerPlanId,
            custom_id: payer.id,
            subscriber: { email_address: payer.email },
            application_context: {
              user_action: 'SUBSCRIBE_NOW',
              shipping_preference: 'NO_SHIPPING',
              return_url: request.successUrl,
              cancel_url: request.cancelUrl,
            },
          },
        }),
      );
      return { url: linkOf(answer.links, ['approve'], 'subscription') };
    }
    const answer = read(
      LinksAnswer,
      await this.call(settings, 'create order', 'POST', '/v2/checkout/orders', {
        requestId: `atelier-checkout-${reference}`,
        body: {
          intent: 'CAPTURE',
          purchase_units: [
            {
              reference_id: reference,
              invoice_id: reference,
              custom_id: payer.id,
              amount: {
                currency_code: purpose.currency,
                value: fromMinorUnits(purpose.amountMinor, purpose.currency),
              },
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                user_action: 'PAY_NOW',
                shipping_preference: 'NO_SHIPPING',
                return_url: request.successUrl,
                cancel_url: request.cancelUrl,
              },
            },
          },
        },
      }),
    );
    return { url: linkOf(answer.links, ['payer-action', 'approve'], 'order') };
  }

  /**
   * Takes the money of an order the payer approved. PayPal sends the payer back to the success URL
   * with the order id as `token`; capturing it there (or in a job on CHECKOUT.ORDER.APPROVED) makes
   * PayPal send PAYMENT.CAPTURE.COMPLETED, which credits the balance. Capturing twice is harmless:
   * PayPal answers 422 ORDER_ALREADY_CAPTURED, taken as done.
   */
  completePayment(orderId: string, settings: Settings): Promise<void> {
    return this.captureOrder(orderId, settings);
  }

  async captureOrder(orderId: string, settings: Settings): Promise<void> {
    try {
      await this.call(
        settings,
        'capture order',
        'POST',
        `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`,
        {
          requestId: `atelier-capture-${orderId}`,
          body: {},
        },
      );
    } catch (error) {
      if (!(error instanceof PayPalApiError)) throw error;
      if (error.status === 422 && error.issue === 'ORDER_ALREADY_CAPTURED') return;
      // The order itself is refused (unknown or expired, not approved, its instrument declined):
      // PayPal answers so however often it is asked. Sign-in, throttling and outages are retried.
      if (PERMANENT_CAPTURE_REFUSALS.has(error.status))
        throw new PaymentNotCompletable('paypal', error.message, { cause: error });
      throw error;
    }
  }

  /**
   * PayPal has no cancel-at-period-end: a cancelled subscription stops billing at once and cannot be
   * resumed. Nothing is refunded, so the ledger keeps ours active until its renews_at, then
   * completed; BILLING.SUBSCRIPTION.CANCELLED says the same (subscription.changed). A subscription
   * PayPal already has cancelled (422) counts as cancelled.
   */
  async cancelAtPeriodEnd(subscription: SubscriptionRow, settings: Settings): Promise<void> {
    const id = requireProviderId(subscription);
    try {
      await this.call(
        settings,
        'cancel subscription',
        'POST',
        `/v1/billing/subscriptions/${encodeURIComponent(id)}/cancel`,
        {
          body: { reason: 'Cancelled by the subscriber' },
        },
      );
    } catch (error) {
      if (error instanceof PayPalApiError && error.status === 422) return;
      throw error;
    }
  }

  /**
   * Revises the subscription to the other plan. When PayPal wants the payer to approve the new
   * price first, nothing has changed yet: the swap is refused with the approval page, so the ledger
   * does not move to a plan PayPal is not billing; BILLING.SUBSCRIPTION.UPDATED moves it once approved.
   */
  async swap(
    subscription: SubscriptionRow,
    _plan: PlanRow,
    providerPlanId: string,
    settings: Settings,
  ): Promise<void> {
    const { approveUrl } = await this.revise(subscription, providerPlanId, settings);
    if (approveUrl) throw new PaymentApprovalRequired('paypal', approveUrl);
  }

  /**
   * Moves a subscription to another plan. PayPal answers an `approve` link when the payer must
   * agree to the new price; the change takes effect once they do (BILLING.SUBSCRIPTION.UPDATED).
   */
  async revise(
    subscription: SubscriptionRow,
    providerPlanId: string,
    settings: Settings,
  ): Promise<{ approveUrl: string | null }> {
    const id = requireProviderId(subscription);
    const answer = read(
      z.object({ links: Links }),
      await this.call(
        settings,
        'revise subscription',
        'POST',
        `/v1/billing/subscriptions/${encodeURIComponent(id)}/revise`,
        {
          body: { plan_id: providerPlanId },
        },
      ),
    );
    return { approveUrl: answer.links.find((link) => link.rel === 'approve')?.href ?? null };
  }

  async verifyWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    settings: Settings,
  ): Promise<VerifiedEvent> {
    const transmissionId = header(headers, 'paypal-transmission-id');
    const transmissionTime = header(headers, 'paypal-transmission-time');
    const signature = header(headers, 'paypal-transmission-sig');
    const certUrl = header(headers, 'paypal-cert-url');
    const algorithm = header(headers, 'paypal-auth-algo');
    if (algorithm !== 'SHA256withRSA')
      throw new WebhookSignatureError('unsupported PayPal signing algorithm');
    const webhookId = settings.paypal_webhook_id;
    if (!webhookId) throw new WebhookSignatureError('no PayPal webhook id is configured');

    const sentAt = Date.parse(transmissionTime);
    if (Number.isNaN(sentAt)) throw new WebhookSignatureError('unreadable PayPal transmission time');
    const age = this.now().getTime() - sentAt;
    if (age > MAX_TRANSMISSION_AGE_MS || age < -MAX_TRANSMISSION_SKEW_MS) {
      throw new WebhookSignatureError('stale PayPal transmission');
    }
    if (!BASE64_PATTERN.test(signature)) throw new WebhookSignatureError('malformed PayPal signature');
    const url = allowedCertificateUrl(certUrl);

    const [certificate] = await this.certificate(url);
    const now = this.now().getTime();
    const validFrom = Date.parse(certificate!.validFrom);
    const validTo = Date.parse(certificate!.validTo);
    if (!(validFrom <= now && now <= validTo)) {
      throw new WebhookSignatureError('the PayPal signing certificate is not valid now');
    }
    const message = `${transmissionId}|${transmissionTime}|${webhookId}|${crc32(rawBody)}`;
    const valid = verifySignature(
      'sha256',
      Buffer.from(message),
      certificate!.publicKey,
      Buffer.from(signature, 'base64'),
    );
    if (!valid) throw new WebhookSignatureError('bad PayPal signature');

    let parsed: z.infer<typeof Event>;
    try {
      parsed = Event.parse(JSON.parse(rawBody.toString('utf8')));
    } catch {
      throw new WebhookSignatureError('not a PayPal event');
    }
    return {
      eventId: parsed.id,
      type: parsed.event_type,
      occurredAt: parsed.create_time,
      effect: effectOf(parsed),
    };
  }

  /** The certificate (first) and its chain, fetched once per URL; a failed fetch is not kept. */
  private certificate(url: URL): Promise<X509Certificate[]> {
    const key = url.href;
    let pending = this.certificates.get(key);
    if (!pending) {
      pending = this.fetchCertificate(url);
      this.certificates.set(key, pending);
      pending.catch(() => this.certificates.delete(key));
      while (this.certificates.size > CERTIFICATE_CACHE_SIZE) {
        this.certificates.delete(this.certificates.keys().next().value!);
      }
    }
    return pending;
  }

  private async fetchCertificate(url: URL): Promise<X509Certificate[]> {
    const pem = await this.download(url);
    const blocks = pemBlocks(pem);
    if (blocks.length === 0)
      throw new WebhookSignatureError('the PayPal certificate URL answered no certificate');
    let chain: X509Certificate[];
    try {
      chain = blocks.map((block) => new X509Certificate(block));
    } catch {
      throw new WebhookSignatureError('the PayPal certificate is not a valid X.509 certificate');
    }
    // When the answer carries its chain, each certificate must be issued and signed by the next.
    for (let i = 0; i + 1 < chain.length; i += 1) {
      if (!chain[i]!.checkIssued(chain[i + 1]!) || !chain[i]!.verify(chain[i + 1]!.publicKey)) {
        throw new WebhookSignatureError('the PayPal certificate chain does not hold together');
      }
    }
    return chain;
  }

  /** One GET over HTTPS, no redirects followed, within a deadline and a size cap. */
  private download(url: URL): Promise<string> {
    return new Promise((resolve, reject) => {
      const fail = (reason: string) =>
        reject(new WebhookSignatureError(`PayPal certificate fetch: ${reason}`));
      const request = httpsRequest(url, { method: 'GET', agent: this.certificateAgent }, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          fail(`status ${response.statusCode}`);
          return;
        }
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > CERTIFICATE_MAX_BYTES) {
          request.destroy();
          fail('too large');
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > CERTIFICATE_MAX_BYTES) {
            request.destroy();
            fail('too large');
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', () => fail('interrupted'));
      });
      const timer = setTimeout(() => {
        request.destroy();
        fail('timed out');
      }, this.certificateTimeoutMs);
      // A connection that closes before the body ended settles too (a settled promise ignores it).
      request.on('close', () => {
        clearTimeout(timer);
        fail('interrupted');
      });
      request.on('error', () => fail('unreachable'));
      request.end();
    });
  }

  private async call(
    settings: Settings,
    operation: string,
    method: 'GET' | 'POST',
    path: string,
    options: { body?: unknown; requestId?: string } = {},
  ): Promise<unknown> {
    const token = await this.accessToken(settings);
    const response = await send(operation, `${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json',
        ...(options.requestId ? { 'paypal-request-id': options.requestId } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text().catch(() => '');
    const json: unknown = text ? safeJson(text) : {};
    if (!response.ok) {
      const error = ErrorAnswer.safeParse(json);
      const issue = error.success ? (issueOf(json) ?? error.data.name ?? null) : null;
      throw new PayPalApiError(
        response.status,
        issue,
        error.success ? (error.data.debug_id ?? null) : null,
        operation,
      );
    }
    return json;
  }

  /** Client-credentials token, kept until shortly before it expires and for these credentials only. */
  private async accessToken(settings: Settings): Promise<string> {
    const { paypal_client_id: clientId, paypal_secret: secret } = settings;
    if (!clientId || !secret) {
      throw new PaymentProviderError('paypal', 'not_configured', 'No PayPal client id and secret are set');
    }
    const credentials = `${clientId}:${secret}`;
    const now = this.now().getTime();
    if (this.token?.credentials === credentials) {
      const cached = await this.token.value.catch(() => null);
      if (cached && cached.expiresAt - TOKEN_REFRESH_MARGIN_MS > now) return cached.token;
    }
    const value = this.requestToken(credentials);
    this.token = { credentials, value };
    value.catch(() => {
      if (this.token?.value === value) this.token = null;
    });
    return (await value).token;
  }

  private async requestToken(credentials: string): Promise<{ token: string; expiresAt: number }> {
    const response = await send('sign-in', `${this.baseUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      const json = safeJson(text);
      throw new PayPalApiError(response.status, issueOf(json) ?? errorField(json), null, 'sign-in');
    }
    const answer = read(TokenAnswer, safeJson(text), 'sign-in');
    return { token: answer.access_token, expiresAt: this.now().getTime() + answer.expires_in * 1000 };
  }
}

/**
 * Only an https URL on paypal.com or one of its subdomains, on the default port, without user
 * info: the signing key is trusted because PayPal's own host served it over TLS.
 */
export function allowedCertificateUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new WebhookSignatureError('unreadable PayPal certificate URL');
  }
  const host = url.hostname;
  if (
    url.protocol !== 'https:' ||
    url.username !== '' ||
    url.password !== '' ||
    url.port !== '' ||
    !(host === 'paypal.com' || host.endsWith('.paypal.com'))
  ) {
    throw new WebhookSignatureError('the PayPal certificate URL is not on a paypal.com host');
  }
  return url;
}

/** What the ledger does with each event; verified events it does not use are `none`. */
function effectOf(event: z.infer<typeof Event>): BillingEffect {
  const none = { kind: 'none' } as const;
  switch (event.event_type) {
    case 'BILLING.SUBSCRIPTION.ACTIVATED': {
      const resource = SubscriptionResource.safeParse(event.resource);
      if (!resource.success || !resource.data.custom_id || !resource.data.plan_id) return none;
      return {
        kind: 'subscription.started',
        userId: resource.data.custom_id,
        plan: { providerPlanId: resource.data.plan_id },
        providerSubscriptionId: resource.data.id,
        renewsAt: resource.data.billing_info?.next_billing_time ?? null,
      };
    }
    case 'BILLING.SUBSCRIPTION.UPDATED': {
      // A revision the payer approved (a swap): the plan it is on now.
      const resource = SubscriptionResource.safeParse(event.resource);
      if (!resource.success || resource.data.status !== 'ACTIVE' || !resource.data.plan_id) return none;
      return {
        kind: 'subscription.changed',
        providerSubscriptionId: resource.data.id,
        renewsAt: resource.data.billing_info?.next_billing_time ?? null,
        cancelAtPeriodEnd: false,
        plan: { providerPlanId: resource.data.plan_id },
      };
    }
    // Suspended after its payments failed (the plan's failure threshold), the subscription ends with
    // the period it paid for, as a cancelled one does; re-activated by the payer, it runs again.
    case 'BILLING.SUBSCRIPTION.RE-ACTIVATED': {
      const resource = SubscriptionResource.safeParse(event.resource);
      if (!resource.success || resource.data.status !== 'ACTIVE') return none;
      return {
        kind: 'subscription.changed',
        providerSubscriptionId: resource.data.id,
        renewsAt: resource.data.billing_info?.next_billing_time ?? null,
        cancelAtPeriodEnd: false,
      };
    }
    case 'BILLING.SUBSCRIPTION.SUSPENDED':
    case 'BILLING.SUBSCRIPTION.CANCELLED': {
      // Paid time is not refunded: active until the period ends. PayPal usually drops
      // next_billing_time on cancel, so renewsAt is then null: keep the period end already known.
      const resource = SubscriptionResource.safeParse(event.resource);
      if (!resource.success) return none;
      return {
        kind: 'subscription.changed',
        providerSubscriptionId: resource.data.id,
        renewsAt: resource.data.billing_info?.next_billing_time ?? null,
        cancelAtPeriodEnd: true,
      };
    }
    case 'BILLING.SUBSCRIPTION.EXPIRED': {
      const resource = SubscriptionResource.safeParse(event.resource);
      if (!resource.success) return none;
      return { kind: 'subscription.ended', providerSubscriptionId: resource.data.id };
    }
    case 'BILLING.SUBSCRIPTION.PAYMENT.FAILED': {
      const resource = SubscriptionResource.safeParse(event.resource);
      if (!resource.success) return none;
      const billing = resource.data.billing_info;
      const money = billing?.last_failed_payment?.amount ?? billing?.outstanding_balance;
      const amountMinor = money ? toMinorUnits(money.value, money.currency_code) : null;
      if (!money || amountMinor === null) return none;
      return {
        kind: 'payment.failed',
        // A failed renewal has no payment id of its own: the event's id is unique per failure.
        reference: event.id,
        amountMinor,
        currency: money.currency_code,
        userId: resource.data.custom_id ?? null,
        providerSubscriptionId: resource.data.id,
      };
    }
    case 'PAYMENT.SALE.COMPLETED': {
      // A subscription's payment; a sale outside a subscription is not ours.
      const resource = SaleResource.safeParse(event.resource);
      if (!resource.success || !resource.data.billing_agreement_id) return none;
      const amountMinor = toMinorUnits(resource.data.amount.total, resource.data.amount.currency);
      if (amountMinor === null) return none;
      return {
        kind: 'payment.succeeded',
        purpose: 'subscription',
        reference: resource.data.id,
        amountMinor,
        currency: resource.data.amount.currency,
        userId: resource.data.custom ?? null,
        providerSubscriptionId: resource.data.billing_agreement_id,
      };
    }
    case 'CHECKOUT.ORDER.APPROVED': {
      // A top-up the payer approved: the money is taken by capturing it (the job does).
      const resource = OrderResource.safeParse(event.resource);
      if (!resource.success || resource.data.intent !== 'CAPTURE') return none;
      const unit = resource.data.purchase_units[0]!;
      if (!unit.custom_id || !REFERENCE_PATTERN.test(unit.invoice_id ?? '')) return none;
      return { kind: 'payment.approved', providerPaymentId: resource.data.id };
    }
    case 'PAYMENT.CAPTURE.COMPLETED':
    case 'PAYMENT.CAPTURE.DENIED': {
      // A top-up order's capture: our reference came back as invoice_id, the user as custom_id.
      const resource = CaptureResource.safeParse(event.resource);
      if (!resource.success || !resource.data.custom_id) return none;
      const reference = resource.data.invoice_id ?? '';
      const amountMinor = toMinorUnits(resource.data.amount.value, resource.data.amount.currency_code);
      if (!REFERENCE_PATTERN.test(reference) || amountMinor === null) return none;
      const payment = {
        reference,
        amountMinor,
        currency: resource.data.amount.currency_code,
        userId: resource.data.custom_id,
        providerSubscriptionId: null,
      };
      return event.event_type === 'PAYMENT.CAPTURE.COMPLETED'
        ? { kind: 'payment.succeeded', purpose: 'balance', ...payment }
        : { kind: 'payment.failed', ...payment };
    }
    default:
      return none;
  }
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string {
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  if (typeof entry !== 'string' || entry === '') {
    throw new WebhookSignatureError(`missing or repeated ${name.toUpperCase()} header`);
  }
  return entry;
}

function linkOf(links: { href: string; rel: string }[], rels: string[], what: string): string {
  for (const rel of rels) {
    const link = links.find((candidate) => candidate.rel === rel);
    if (link) return link.href;
  }
  throw new PaymentProviderError(
    'paypal',
    'provider_rejected',
    `PayPal answered a ${what} without an approval link`,
  );
}

function requireProviderId(subscription: SubscriptionRow): string {
  if (!subscription.provider_subscription_id) {
    throw new PaymentProviderError(
      'paypal',
      'provider_rejected',
      `Subscription ${subscription.id} has no PayPal subscription id`,
    );
  }
  return subscription.provider_subscription_id;
}

/** One request to PayPal; a network failure or timeout is a provider error like a refusal. */
async function send(operation: string, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(API_TIMEOUT_MS) });
  } catch (error) {
    throw new PaymentProviderError('paypal', 'provider_rejected', `PayPal ${operation}: unreachable`, {
      cause: error,
    });
  }
}

function read<T>(schema: z.ZodType<T>, json: unknown, operation = 'call'): T {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new PaymentProviderError('paypal', 'provider_rejected', `PayPal ${operation}: unexpected answer`);
  }
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** PayPal's most specific error: the first detail's issue (ORDER_ALREADY_CAPTURED, …). */
function issueOf(json: unknown): string | null {
  const parsed = z.object({ details: z.array(z.object({ issue: z.string() })).min(1) }).safeParse(json);
  return parsed.success ? parsed.data.details[0]!.issue : null;
}

function errorField(json: unknown): string | null {
  const parsed = z.object({ error: z.string() }).safeParse(json);
  return parsed.success ? parsed.data.error : null;
}
