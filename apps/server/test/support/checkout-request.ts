import type { CheckoutPurpose, CheckoutRequest, Payer } from '../../src/modules/billing/payment-provider';

/** A checkout request as the subscriptions service makes one, with return pages that are never visited. */
export const checkoutRequest = (
  payer: Payer,
  purpose: CheckoutPurpose,
  reference: string,
): CheckoutRequest => ({
  payer,
  purpose,
  reference,
  successUrl: 'https://atelier.test/ok',
  cancelUrl: 'https://atelier.test/no',
});
