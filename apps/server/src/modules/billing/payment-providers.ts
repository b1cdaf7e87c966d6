import type { PaymentDriver } from '@atelier/contracts';
import { AppError } from '../../lib/app-error';
import type { Settings } from '../settings/settings.defaults';
import type { PaymentProvider } from './payment-provider';
import { PaymentProviderError, type PaymentProviderErrorReason } from './providers/provider-error';

/** The providers this instance can talk to, and which of them the admin allows and has set up. */
export class PaymentProviders {
  private readonly byDriver: Map<PaymentDriver, PaymentProvider>;

  constructor(providers: PaymentProvider[]) {
    this.byDriver = new Map(providers.map((provider) => [provider.driver, provider]));
  }

  /** Any known provider, allowed or not (webhooks of a provider the admin switched off still land). */
  get(driver: PaymentDriver): PaymentProvider | undefined {
    return this.byDriver.get(driver);
  }

  /** The drivers a person may pay with: allowed by the admin and set up. */
  usable(settings: Settings): PaymentDriver[] {
    return settings.allowed_payment_drivers.filter((driver) =>
      this.byDriver.get(driver)?.configured(settings),
    );
  }

  /** The provider for a checkout: allowed and set up, else a 422 naming the driver. */
  forCheckout(driver: PaymentDriver, settings: Settings): PaymentProvider {
    const provider = this.byDriver.get(driver);
    if (!provider || !settings.allowed_payment_drivers.includes(driver))
      throw AppError.invalid('driver', 'billing.driver_not_allowed');
    if (!provider.configured(settings)) throw AppError.invalid('driver', 'billing.driver_not_configured');
    return provider;
  }

  configured(settings: Settings): PaymentProvider[] {
    return [...this.byDriver.values()].filter((provider) => provider.configured(settings));
  }
}

/** What the person is told when a provider call could not be made; nothing was stored. */
const REFUSALS: Record<Exclude<PaymentProviderErrorReason, 'provider_rejected'>, [string, string]> = {
  not_configured: ['driver', 'billing.driver_not_configured'],
  plan_unsupported: ['plan_id', 'billing.plan_unavailable'],
  plan_not_registered: ['plan_id', 'billing.plan_not_registered'],
  swap_unsupported: ['plan_id', 'billing.swap_unsupported'],
};

/**
 * Runs a provider call: a refusal this instance can explain is a 422 naming the field; a provider
 * that refused or could not be reached is a 502 the person may retry, logged without bodies.
 */
export async function callProvider<T>(call: () => Promise<T>, log: (error: unknown) => void): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof PaymentProviderError && error.reason !== 'provider_rejected') {
      const [field, message] = REFUSALS[error.reason];
      throw AppError.invalid(field, message);
    }
    log(error);
    throw new AppError('provider_unavailable', 'billing.provider_unreachable');
  }
}
