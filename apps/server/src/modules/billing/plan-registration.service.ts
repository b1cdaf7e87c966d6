import type { Logger } from 'pino';
import type { JobQueue } from '../../jobs/job-queue';
import type { Settings } from '../settings/settings.defaults';
import type { SettingsService } from '../settings/settings.service';
import type { PlanRegistrationsRepository } from './plan-registrations.repository';
import type { PlansRepository } from './plans.repository';
import type { PaymentProviders } from './payment-providers';
import { PaymentProviderError } from './providers/provider-error';
import { registerPlanJob } from './billing.jobs';

export interface PlanRegistrationDeps {
  plans: Pick<PlansRepository, 'find' | 'activeOfType'>;
  registrations: PlanRegistrationsRepository;
  providers: PaymentProviders;
  settings: SettingsService;
  jobs: JobQueue;
  logger: Logger;
  now: () => Date;
}

/** The settings that make a provider configured: a change to any may make plans registrable. */
const PAYMENT_KEYS: ReadonlyArray<keyof Settings> = [
  'allowed_payment_drivers',
  'stripe_secret_key',
  'stripe_webhook_secret',
  'paypal_client_id',
  'paypal_secret',
  'paypal_webhook_id',
  'paystack_public_key',
  'paystack_secret_key',
];

/** A checkout asks again at most this often per plan, so a click storm cannot flood the queue. */
const CHECKOUT_SCHEDULE_EVERY_MS = 60_000;

/** Thrown by the job so it is retried; names the drivers that failed, never a provider's body. */
export class PlanRegistrationFailed extends Error {
  override name = 'PlanRegistrationFailed';
}

/**
 * Registering fixed plans with each configured provider (Stripe price, PayPal plan, Paystack plan),
 * always in the `billing.register-plan` job: the admin's create answers at once, a provider that is
 * down is retried with backoff, and a provider that has the plan already is never asked again.
 * Metered plans are settled from the balance and never registered.
 */
export class PlanRegistrationService {
  /** When each plan was last queued, in process time: a throttle, not a rule of the app's clock. */
  private readonly lastScheduled = new Map<string, number>();

  constructor(private readonly deps: PlanRegistrationDeps) {}

  /** Queues the registration; a queue failure is logged, not thrown (the sweeps queue it again). */
  async schedule(planId: string): Promise<void> {
    try {
      await this.deps.jobs.enqueue(registerPlanJob, { plan_id: planId });
      this.lastScheduled.set(planId, Date.now());
    } catch (error) {
      this.deps.logger.error({ err: error, planId }, 'plan registration could not be queued');
    }
  }

  /** At a checkout of a plan the provider does not know yet: queued again, at most once a minute. */
  async scheduleFromCheckout(planId: string): Promise<void> {
    const last = this.lastScheduled.get(planId);
    if (last !== undefined && Date.now() - last < CHECKOUT_SCHEDULE_EVERY_MS) return;
    await this.schedule(planId);
  }

  /** After the admin saved settings: when payment keys changed, every active fixed plan is queued. */
  async afterSettingsSaved(changed: Partial<Settings>): Promise<void> {
    if (!PAYMENT_KEYS.some((key) => key in changed)) return;
    try {
      const settings = await this.deps.settings.all();
      if (this.deps.providers.configured(settings).length === 0) return;
      for (const plan of await this.deps.plans.activeOfType('fixed')) await this.schedule(plan.id);
    } catch (error) {
      // The settings are stored already; a checkout queues what this could not.
      this.deps.logger.error({ err: error }, 'plan registrations could not be queued after a settings save');
    }
  }

  /**
   * The job's work: each configured provider without a registration for the plan registers it.
   * Every provider is tried; if any failed the job throws so it runs again, and those that
   * succeeded are skipped next time.
   */
  async register(planId: string): Promise<void> {
    const plan = await this.deps.plans.find(planId);
    if (!plan || plan.type !== 'fixed' || plan.status !== 'active') return;
    const settings = await this.deps.settings.all();
    const failed: string[] = [];
    for (const provider of this.deps.providers.configured(settings)) {
      if (await this.deps.registrations.providerPlanId(plan.id, provider.driver)) continue;
      try {
        const providerPlanId = await provider.registerPlan(plan, settings);
        await this.deps.registrations.store(
          plan.id,
          provider.driver,
          providerPlanId,
          this.deps.now().toISOString(),
        );
      } catch (error) {
        if (error instanceof PaymentProviderError && error.reason === 'plan_unsupported') {
          // Retrying cannot help: the provider cannot take this plan (its checkout says so).
          this.deps.logger.warn({ planId, driver: provider.driver }, 'provider cannot register the plan');
          continue;
        }
        this.deps.logger.warn(
          {
            planId,
            driver: provider.driver,
            // A provider error's message is written here; any other error is named only, never its body.
            reason: error instanceof PaymentProviderError ? error.message : (error as Error)?.name,
          },
          'plan registration failed; will retry',
        );
        failed.push(provider.driver);
      }
    }
    if (failed.length > 0)
      throw new PlanRegistrationFailed(`plan ${plan.id} not registered with ${failed.join(', ')}`);
  }
}
