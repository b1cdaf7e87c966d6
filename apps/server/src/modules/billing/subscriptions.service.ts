import {
  PAYMENT_REFERENCE_LENGTH,
  fromMinorUnits,
  toMinorUnits,
  type BalanceCheckoutBody,
  type CheckoutAnswer,
  type CheckoutBody,
  type SubscriptionDetail,
  type SubscriptionResource,
  type SwapAnswer,
} from '@atelier/contracts';
import type { Logger } from 'pino';
import type { UserRow } from '../../db/schema';
import type { Broadcaster } from '../../realtime/realtime.server';
import { AppError } from '../../lib/app-error';
import { randomAlphanumeric } from '../../lib/tokens';
import { timeOrderedId } from '../../lib/time-ordered-id';
import type { Settings } from '../settings/settings.defaults';
import type { SettingsService } from '../settings/settings.service';
import type { PlanRow, SubscriptionRow } from './billing.tables';
import type { CheckoutPurpose, PaymentProvider } from './payment-provider';
import { callProvider, type PaymentProviders } from './payment-providers';
import { PaymentApprovalRequired } from './providers/provider-error';
import type { CheckoutsRepository } from './checkouts.repository';
import type { PlanRegistrationsRepository } from './plan-registrations.repository';
import { presentPlan } from './plans.presenter';
import type { PlansRepository } from './plans.repository';
import type { SubscriptionsRepository } from './subscriptions.repository';
import type { MeteredBilling } from './metered-billing';
import type { BillingStanding, BillingTerms } from '../users/account-limits.service';

export interface SubscriptionsServiceDeps {
  metered: MeteredBilling;
  subscriptions: SubscriptionsRepository;
  checkouts: CheckoutsRepository;
  plans: PlansRepository;
  registrations: PlanRegistrationsRepository;
  providers: PaymentProviders;
  settings: SettingsService;
  /**
   * Queues the plan's registration when a checkout finds none for the provider (the admin set the
   * provider up after the plan was made). Stripe prices such a checkout inline; the others answer
   * `plan_not_registered` until the job has run.
   */
  registerPlan?: (planId: string) => Promise<void>;
  realtime: Broadcaster;
  appUrl: string;
  logger: Logger;
  now: () => Date;
}

/** What a user's subscription grants right now: the plan's limits while it is in effect. */
export interface PlanLimits {
  /** GB. */
  maxStorageAmount: number;
  /** -1: unlimited. */
  maxTeamMembers: number;
}

/** The user's side of subscriptions: what they hold, checkout, cancel and swap. */
export class SubscriptionsService {
  constructor(private readonly deps: SubscriptionsServiceDeps) {}

  /** The subscription in effect: active, or cancelled with paid time left. */
  async current(userId: string): Promise<SubscriptionRow | undefined> {
    const open = await this.deps.subscriptions.open(userId);
    if (!open) return undefined;
    if (open.status === 'cancelled' && open.ends_at !== null && open.ends_at <= this.deps.now().toISOString())
      return undefined;
    return open;
  }

  /** The fixed plan's limits while its subscription is in effect; null for the defaults. */
  async limits(userId: string): Promise<PlanLimits | null> {
    const plan = await this.deps.subscriptions.fixedPlanInEffect(userId, this.deps.now().toISOString());
    return plan ? { maxStorageAmount: plan.max_storage_amount, maxTeamMembers: plan.max_team_members } : null;
  }

  /** What the account's limits take from billing: the plan's and metered restrictions, nothing costlier. */
  async terms(userId: string): Promise<BillingTerms> {
    const [plan, restriction] = await Promise.all([
      this.limits(userId),
      this.deps.metered.restriction(userId),
    ]);
    return { plan, restriction };
  }

  /** Why metered billing restricts the account now (unpaid use), or null. */
  restriction(userId: string): Promise<string | null> {
    return this.deps.metered.restriction(userId);
  }

  /** What billing decides for the account now: the plan's limits, metered restrictions and estimate. */
  async standing(userId: string): Promise<BillingStanding> {
    const [plan, metered] = await Promise.all([this.limits(userId), this.deps.metered.standing(userId)]);
    return { plan, ...metered };
  }

  /** The storage (GB) fixed plans give these users now, for the admin's list of accounts. */
  planStorage(userIds: string[]): Promise<Map<string, number>> {
    return this.deps.subscriptions.planStorage(userIds, this.deps.now().toISOString());
  }

  /** The admin's line about the account's subscription. */
  async summary(userId: string): Promise<{ plan: string; status: string; renews_at: string | null } | null> {
    const subscription = await this.current(userId);
    const plan = subscription && (await this.deps.plans.find(subscription.plan_id));
    if (!subscription || !plan) return null;
    return { plan: plan.name, status: subscription.status, renews_at: subscription.renews_at };
  }

  async detail(user: UserRow): Promise<SubscriptionDetail['data']> {
    // First: on a metered instance it subscribes a user who has no subscription yet.
    const metered = await this.deps.metered.detail(user);
    const [subscription, settings] = await Promise.all([this.current(user.id), this.deps.settings.all()]);
    const plan = subscription && (await this.deps.plans.find(subscription.plan_id));
    return {
      subscription: subscription && plan ? presentSubscription(subscription, plan) : null,
      ...metered,
      drivers: this.deps.providers.usable(settings),
    };
  }

  async checkout(user: UserRow, body: CheckoutBody): Promise<CheckoutAnswer['data']> {
    const settings = await this.deps.settings.all();
    const provider = this.deps.providers.forCheckout(body.driver, settings);
    const plan = await this.deps.plans.find(body.plan_id);
    if (
      !plan ||
      plan.status !== 'active' ||
      plan.type !== settings.subscription_type ||
      plan.type !== 'fixed'
    )
      throw AppError.invalid('plan_id', 'billing.plan_unavailable');
    const current = await this.current(user.id);
    // A metered subscription left by a switch to fixed plans bills nothing: the start replaces it.
    if (current?.status === 'active' && current.driver !== null)
      throw AppError.invalid('plan_id', 'billing.already_subscribed');
    const providerPlanId = await this.deps.registrations.providerPlanId(plan.id, body.driver);
    if (!providerPlanId) await this.deps.registerPlan?.(plan.id);
    return this.begin(provider, user, { kind: 'plan', plan, providerPlanId }, settings, {
      amount: fromMinorUnits(plan.amount_minor!, plan.currency),
      amountMinor: plan.amount_minor!,
      currency: plan.currency,
      plan: providerPlanId,
    });
  }

  async balanceCheckout(user: UserRow, body: BalanceCheckoutBody): Promise<CheckoutAnswer['data']> {
    const settings = await this.deps.settings.all();
    if (settings.subscription_type !== 'metered') throw AppError.invalid('amount', 'billing.not_metered');
    const provider = this.deps.providers.forCheckout(body.driver, settings);
    const currency = await this.deps.metered.balanceCurrency(user.id);
    const amountMinor = toMinorUnits(body.amount, currency);
    if (amountMinor === null || amountMinor <= 0) throw AppError.invalid('amount', 'billing.money_decimals');
    return this.begin(provider, user, { kind: 'balance', amountMinor, currency }, settings, {
      amount: fromMinorUnits(amountMinor, currency),
      amountMinor,
      currency,
      plan: null,
    });
  }

  /** Stops renewing at the provider; the subscription stays in effect until its period ends. */
  async cancel(user: UserRow): Promise<void> {
    const subscription = await this.current(user.id);
    if (!subscription || subscription.status !== 'active')
      throw AppError.invalid('subscription', 'billing.no_subscription');
    // A metered plan is how the instance bills use, settled from the balance: there is nothing to stop.
    if (subscription.driver === null) throw AppError.invalid('subscription', 'billing.metered_cancel');
    await this.stopRenewalAtProvider(subscription);
    const at = this.deps.now().toISOString();
    await this.deps.subscriptions.update(subscription.id, {
      status: 'cancelled',
      ends_at: subscription.renews_at ?? at,
      renews_at: null,
      updated_at: at,
    });
  }

  /**
   * Stops the account's renewals at its provider before the account is deleted: the card of an
   * account that is gone must not be charged again (the paid period simply runs out there).
   */
  async stopRenewingFor(userId: string): Promise<void> {
    const subscription = await this.current(userId);
    if (subscription?.status === 'active') await this.stopRenewalAtProvider(subscription);
  }

  /** The job's work: a subscription another replaced stops renewing at its provider. */
  async stopReplaced(subscriptionId: string): Promise<void> {
    const subscription = await this.deps.subscriptions.find(subscriptionId);
    if (subscription) await this.stopRenewalAtProvider(subscription);
  }

  private async stopRenewalAtProvider(subscription: SubscriptionRow): Promise<void> {
    const provider = subscription.driver && this.deps.providers.get(subscription.driver);
    if (!provider) return;
    const settings = await this.deps.settings.all();
    await callProvider(
      () => provider.cancelAtPeriodEnd(subscription, settings),
      (error) => this.logFailure(error, provider, 'cancel'),
    );
  }

  /**
   * Cancelled subscriptions whose paid period ended by `at` become `completed`. The plan's limits
   * already stopped applying at the end of the period (see `current`); each owner's open pages are
   * told their account changed, so the limits they show return to the defaults.
   */
  async completeEnded(at: Date): Promise<number> {
    const userIds = await this.deps.subscriptions.completeEnded(at.toISOString());
    for (const userId of userIds)
      await this.deps.realtime.emitToUser(userId, 'user.updated', { user_id: userId });
    return userIds.length;
  }

  /**
   * Moves the subscription to another plan at its provider. A provider that wants the payer to
   * approve the new price first (PayPal) leaves it as it is and answers the page to approve it on;
   * its own event applies the change once they do.
   */
  async swap(user: UserRow, planId: string): Promise<SwapAnswer> {
    const subscription = await this.current(user.id);
    const provider = subscription?.driver && this.deps.providers.get(subscription.driver);
    // Only a provider's subscription moves to a fixed plan (and bills for it); a metered one is checked out of.
    if (!subscription || subscription.status !== 'active' || !provider)
      throw AppError.invalid('plan_id', 'billing.no_subscription');
    if (subscription.plan_id === planId) throw AppError.invalid('plan_id', 'billing.same_plan');
    const settings = await this.deps.settings.all();
    const plan = await this.deps.plans.find(planId);
    if (
      !plan ||
      plan.status !== 'active' ||
      plan.type !== 'fixed' ||
      plan.type !== settings.subscription_type
    )
      throw AppError.invalid('plan_id', 'billing.plan_unavailable');
    const providerPlanId = await this.deps.registrations.providerPlanId(plan.id, provider.driver);
    if (!providerPlanId) {
      await this.deps.registerPlan?.(plan.id);
      throw AppError.invalid('plan_id', 'billing.plan_not_registered');
    }
    const approveUrl = await callProvider(
      () =>
        provider.swap(subscription, plan, providerPlanId, settings).then(
          () => null,
          (error: unknown) => {
            if (error instanceof PaymentApprovalRequired) return error.approveUrl;
            throw error;
          },
        ),
      (error) => this.logFailure(error, provider, 'swap'),
    );
    if (approveUrl) {
      const held = (await this.deps.plans.find(subscription.plan_id))!;
      return { data: presentSubscription(subscription, held), meta: { approve_url: approveUrl } };
    }
    const updated = await this.deps.subscriptions.update(subscription.id, {
      plan_id: plan.id,
      updated_at: this.deps.now().toISOString(),
    });
    return { data: presentSubscription(updated!, plan) };
  }

  private async begin(
    provider: PaymentProvider,
    user: UserRow,
    purpose: CheckoutPurpose,
    settings: Settings,
    form: { amount: string; amountMinor: number; currency: string; plan: string | null },
  ): Promise<CheckoutAnswer['data']> {
    const reference = randomAlphanumeric(PAYMENT_REFERENCE_LENGTH);
    // Stored before the provider hears of it: a payment is applied only when it matches this
    // (Paystack's inline form, for one, lets the payer's browser choose every field it sends).
    await this.deps.checkouts.insert({
      id: timeOrderedId(),
      driver: provider.driver,
      reference,
      user_id: user.id,
      purpose: purpose.kind,
      plan_id: purpose.kind === 'plan' ? purpose.plan.id : null,
      amount_minor: form.amountMinor,
      currency: form.currency,
      created_at: this.deps.now().toISOString(),
      used_at: null,
    });
    const back = `${this.deps.appUrl}/user/settings/billing`;
    const session = await callProvider(
      () =>
        provider.createCheckout(
          {
            payer: { id: user.id, name: user.name, email: user.email },
            purpose,
            reference,
            successUrl: `${back}?checkout=success`,
            cancelUrl: `${back}?checkout=cancelled`,
          },
          settings,
        ),
      (error) => this.logFailure(error, provider, 'checkout'),
    );
    return {
      driver: provider.driver,
      reference,
      ...(session.url
        ? { url: session.url }
        : {
            public_key: session.publicKey,
            email: user.email,
            amount: form.amount,
            amount_subunit: form.amountMinor,
            currency: form.currency,
            plan: form.plan,
          }),
    };
  }

  /** The provider's message only: never a body, a key or a card detail. */
  private logFailure(error: unknown, provider: PaymentProvider, call: string): void {
    this.deps.logger.warn(
      { driver: provider.driver, call, message: error instanceof Error ? error.message : String(error) },
      'payment provider call failed',
    );
  }
}

export function presentSubscription(row: SubscriptionRow, plan: PlanRow): SubscriptionResource {
  return {
    id: row.id,
    plan: presentPlan(plan),
    status: row.status,
    driver: row.driver,
    renews_at: row.renews_at,
    ends_at: row.ends_at,
    created_at: row.created_at,
  };
}
