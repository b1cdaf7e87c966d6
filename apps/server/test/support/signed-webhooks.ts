import { createHmac } from 'node:crypto';
import Stripe from 'stripe';

/** A webhook as a provider sends it: the exact body bytes and the headers that sign them. */
export interface SignedWebhook {
  body: string;
  headers: Record<string, string>;
}

/**
 * A Stripe event signed as Stripe signs it (`Stripe-Signature: t=…,v1=…`) with the webhook secret.
 * `timestamp` is in seconds; pass an old one to make a stale signature.
 */
export function signStripeEvent(
  event: Record<string, unknown>,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): SignedWebhook {
  const body = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp });
  return { body, headers: { 'content-type': 'application/json', 'stripe-signature': signature } };
}

/** A Stripe event of `type` around `object`, as a webhook endpoint receives it. */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; created?: number } = {},
): Record<string, unknown> {
  return {
    id: options.id ?? `evt_${Math.random().toString(36).slice(2, 14)}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: options.created ?? Math.floor(Date.now() / 1000),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

/** A Paystack event signed as Paystack signs it: `x-paystack-signature`, hex HMAC-SHA512 of the body. */
export function signPaystackEvent(event: Record<string, unknown>, secretKey: string): SignedWebhook {
  const body = JSON.stringify(event);
  const signature = createHmac('sha512', secretKey).update(body).digest('hex');
  return { body, headers: { 'content-type': 'application/json', 'x-paystack-signature': signature } };
}
