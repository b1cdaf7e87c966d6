import { createHmac, randomBytes } from 'node:crypto';
import { expect, request } from '@playwright/test';

/**
 * The provider's page cannot be reached from a test, so the journeys play Stripe's side: an event
 * signed the way Stripe signs it (`Stripe-Signature: t=<seconds>,v1=<HMAC-SHA256 of "t.body">`)
 * with the webhook secret the admin saved, posted to the instance's Stripe webhook address from
 * a fresh client each time: Stripe keeps no cookies between deliveries.
 */
export async function postStripeEvent(
  baseURL: string,
  secret: string,
  type: string,
  object: Record<string, unknown>,
): Promise<void> {
  const created = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    id: `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    created,
    type,
    livemode: false,
    pending_webhooks: 1,
    data: { object },
  });
  const signature = createHmac('sha256', secret).update(`${created}.${body}`).digest('hex');
  const stripe = await request.newContext({ baseURL });
  const answer = await stripe.post('/api/subscriptions/stripe/webhooks', {
    data: body,
    headers: { 'content-type': 'application/json', 'stripe-signature': `t=${created},v1=${signature}` },
  });
  expect(answer.status(), `${type}: ${await answer.text()}`).toBe(200);
  await stripe.dispose();
}

export const stripeId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
