import type { PaymentDriver } from '@atelier/contracts';

/**
 * Why a provider call could not be made or was refused:
 * - `not_configured`: the admin has not entered the keys this call needs;
 * - `plan_unsupported`: the plan cannot be sold through a provider (a metered plan, settled from
 *   the balance, or a fixed plan without a price or interval);
 * - `plan_not_registered`: the provider needs the plan registered first (Paystack), and the
 *   registration job has not done it yet: try again shortly;
 * - `swap_unsupported`: the provider has no way to move a subscription to another plan;
 * - `provider_rejected`: the provider answered with an error or could not be reached.
 */
export type PaymentProviderErrorReason =
  'not_configured' | 'plan_unsupported' | 'plan_not_registered' | 'swap_unsupported' | 'provider_rejected';

/** A provider call that failed; nothing was changed here, and `reason` says what to tell the person. */
export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';

  constructor(
    readonly driver: PaymentDriver,
    readonly reason: PaymentProviderErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The provider changes the subscription only once the payer approves it on `approveUrl` (PayPal's
 * revision to a new price); its own event applies the change after that.
 */
export class PaymentApprovalRequired extends PaymentProviderError {
  override name = 'PaymentApprovalRequired';

  constructor(
    driver: PaymentDriver,
    readonly approveUrl: string,
  ) {
    super(driver, 'swap_unsupported', "The provider needs the payer's approval of the change");
  }
}

/**
 * The provider refused for good to take money the payer approved (an order expired, unknown, or its
 * instrument declined): asking again would be refused again, so the event is settled as failed.
 */
export class PaymentNotCompletable extends PaymentProviderError {
  override name = 'PaymentNotCompletable';

  constructor(driver: PaymentDriver, message: string, options?: { cause?: unknown }) {
    super(driver, 'provider_rejected', message, options);
  }
}
