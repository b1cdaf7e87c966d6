import { fromMinorUnits, type PaymentDriver } from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import type { UnitOfWork } from '../../db/database';
import { PermanentJobError } from '../../jobs/job-definition';
import type { JobQueue } from '../../jobs/job-queue';
import { isUniqueViolation } from '../../lib/db-errors';
import { timeOrderedId } from '../../lib/time-ordered-id';
import type { Broadcaster } from '../../realtime/realtime.server';
import type { I18nService } from '../i18n/i18n.service';
import type { NotificationsService } from '../notifications/notifications.service';
import type { AccountDirectory } from '../users/users.service';
import { addInterval } from './billing-periods';
import { stopReplacedSubscriptionJob } from './billing.jobs';
import type { CheckoutRow, PlanRow, SubscriptionRow } from './billing.tables';
import type { CheckoutsRepository } from './checkouts.repository';
import type { BillingEffect } from './payment-provider';
import { PaymentNotCompletable } from './providers/provider-error';
import type { PaymentProviders } from './payment-providers';
import type { SettingsService } from '../settings/settings.service';
import type { PlanRegistrationsRepository } from './plan-registrations.repository';
import type { PlansRepository } from './plans.repository';
import type { SubscriptionsRepository } from './subscriptions.repository';
import { BalanceCurrencyMismatch, type TransactionsRepository } from './transactions.repository';

/**
 * An event refers to a subscription the ledger does not know yet (providers do not promise order:
 * `customer.subscription.updated` may come before `checkout.session.completed`). The job retries.
 */
export class EventOutOfOrder extends Error {
  override name = 'EventOutOfOrder';
}

/** Why a verified event was not applied: each is kept as an event for the admin to look at. */
export type PaymentMismatchReason =
  | 'no_checkout'
  | 'other_user'
  | 'other_purpose'
  | 'amount'
  | 'currency'
  | 'balance_currency'
  | 'other_subscription';

/**
 * A verified payment that does not match the checkout made here (or there is none): the provider
 * signed what the payer's browser sent, so its user, amount and currency are claims, not facts.
 * It changes no balance and writes nothing into anyone's history. An event that would run an ended
 * subscription again beside the account's open one is kept the same way.
 */
export class PaymentMismatch extends Error {
  override name = 'PaymentMismatch';
  constructor(readonly reason: PaymentMismatchReason) {
    super(`payment does not match its checkout: ${reason}`);
  }
}

/** A payment this close to the renewal date (or after it) pays for the next period. */
const RENEWAL_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;
/**
 * How long before its subscription a browser's checkout may have been opened: a person may pay
 * hours after opening the form (Stripe's hosted checkout lives as long), never days.
 */
const BROWSER_CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;

type PlanReference = { id: string } | { providerPlanId: string };

export interface LedgerDeps {
  subscriptions: SubscriptionsRepository;
  transactions: TransactionsRepository;
  checkouts: CheckoutsRepository;
  plans: PlansRepository;
  registrations: PlanRegistrationsRepository;
  users: AccountDirectory;
  providers: PaymentProviders;
  settings: SettingsService;
  notifications: NotificationsService;
  i18n: I18nService;
  realtime: Broadcaster;
  /** Metered billing settles what a top-up can now pay for. */
  onBalanceCredited: (userId: string) => Promise<void>;
  /** The unit of work an event is applied in: what follows a commit waits for it. */
  units: UnitOfWork;
  /** Jobs enqueued in the unit of work: they run only once it commits. */
  jobs: JobQueue;
  now: () => Date;
}

/**
 * Applies what verified provider events mean to subscriptions, transactions and balances. Every
 * effect is idempotent (a repeated one changes nothing), and needs no call back to the provider to
 * know what happened (taking approved money, which only the provider can do, is the one call).
 */
export class BillingLedger {
  constructor(private readonly deps: LedgerDeps) {}

  async apply(
    driver: PaymentDriver,
    effect: BillingEffect,
    occurredAt: string,
  ): Promise<'applied' | 'ignored'> {
    switch (effect.kind) {
      case 'subscription.started':
        return this.start(driver, effect, occurredAt);
      case 'subscription.changed':
        return this.change(driver, effect, occurredAt);
      case 'subscription.ended':
        return this.end(driver, effect.providerSubscriptionId, occurredAt);
      case 'payment.succeeded':
        return this.paid(driver, effect);
      case 'payment.failed':
        return this.failed(driver, effect);
      case 'payment.approved':
        return this.complete(driver, effect.providerPaymentId);
      case 'none':
        return 'ignored';
    }
  }

  private async start(
    driver: PaymentDriver,
    effect: Extract<BillingEffect, { kind: 'subscription.started' }>,
    occurredAt: string,
  ): Promise<'applied' | 'ignored'> {
    const { subscriptions } = this.deps;
    if (await subscriptions.byProvider(driver, effect.providerSubscriptionId)) return 'ignored';
    const [user, plan] = await Promise.all([
      this.deps.users.findById(effect.userId),
      this.plan(driver, effect.plan),
    ]);
    if (!user) return 'ignored'; // the account was deleted since the checkout
    const at = this.deps.now().toISOString();
    // A browser's checkout names its subscriber as the payer chose: a subscription starts only from
    // a checkout of this plan the account made shortly before and that started none yet, never for
    // one a payer named (it would end that one's plan) on the strength of an old or used checkout.
    if (this.deps.providers.get(driver)?.checkoutInBrowser) {
      const since = new Date(Date.parse(occurredAt) - BROWSER_CHECKOUT_LIFETIME_MS).toISOString();
      if (!(await this.deps.checkouts.usePlanCheckout(driver, user.id, plan.id, since, at)))
        throw new PaymentMismatch('no_checkout');
    }
    const open = await subscriptions.open(user.id);
    // A new checkout while another subscription runs is a change of plan: the old one ends here, and
    // its renewals at its provider stop once this commits (the provider would charge for both).
    if (open) {
      await subscriptions.update(open.id, { status: 'completed', ends_at: at, updated_at: at });
      if (open.driver && open.provider_subscription_id)
        await this.deps.jobs.enqueue(stopReplacedSubscriptionJob, { subscription_id: open.id });
    }
    try {
      await subscriptions.insert({
        id: randomUUID(),
        user_id: user.id,
        plan_id: plan.id,
        status: 'active',
        driver,
        provider_subscription_id: effect.providerSubscriptionId,
        renews_at: effect.renewsAt ?? addInterval(this.deps.now(), plan.interval),
        ends_at: null,
        provider_updated_at: occurredAt,
        created_at: at,
        updated_at: at,
      });
    } catch (error) {
      // Another event for this user was applied at the same moment; the retry sees it.
      if (isUniqueViolation(error)) throw new EventOutOfOrder('a subscription of this user was being stored');
      throw error;
    }
    const vars = { plan: plan.name };
    await this.deps.notifications.notify(user.id, {
      category: 'subscription-created',
      title: await this.deps.i18n.translate('notifications.subscription_created.title', vars),
      description: await this.deps.i18n.translate('notifications.subscription_created.description', vars),
      action: { type: 'route', params: { route: 'Billing' } },
    });
    await this.changed(user.id);
    return 'applied';
  }

  private async change(
    driver: PaymentDriver,
    effect: Extract<BillingEffect, { kind: 'subscription.changed' }>,
    occurredAt: string,
  ): Promise<'applied' | 'ignored'> {
    const subscription = await this.known(driver, effect.providerSubscriptionId);
    // A change older than the one applied arrived late: the newer state stands.
    if (subscription.provider_updated_at && occurredAt < subscription.provider_updated_at) return 'ignored';
    // Completed here (the sweep ends a suspended one with its paid period) while the provider bills it
    // again: it runs again, unless the user holds another subscription by now.
    if (subscription.status === 'completed') {
      if (effect.cancelAtPeriodEnd) return 'ignored';
      if (await this.deps.subscriptions.open(subscription.user_id))
        throw new PaymentMismatch('other_subscription');
    }
    // A plan this instance cannot name (a price made at the provider's side) leaves the plan as it is.
    const plan = effect.plan ? await this.findPlan(driver, effect.plan) : undefined;
    const renewsAt = effect.renewsAt ?? subscription.renews_at;
    await this.deps.subscriptions.update(subscription.id, {
      plan_id: plan?.id ?? subscription.plan_id,
      status: effect.cancelAtPeriodEnd ? 'cancelled' : 'active',
      renews_at: effect.cancelAtPeriodEnd ? null : renewsAt,
      ends_at: effect.cancelAtPeriodEnd ? (renewsAt ?? subscription.ends_at) : null,
      provider_updated_at: occurredAt,
      updated_at: this.deps.now().toISOString(),
    });
    await this.changed(subscription.user_id);
    return 'applied';
  }

  private async end(driver: PaymentDriver, providerSubscriptionId: string, occurredAt: string) {
    const subscription = await this.known(driver, providerSubscriptionId);
    if (subscription.status === 'completed') return 'ignored';
    // An end older than the change applied arrived late (a retried `unpaid` after the `active` that
    // followed it): the newer state stands, as for a change.
    if (subscription.provider_updated_at && occurredAt < subscription.provider_updated_at) return 'ignored';
    // A subscription cancelled with a period paid ahead runs to the end of it, whatever the provider's
    // end says (Paystack disables a cancelled one at once, naming no date): the scheduler completes it.
    if (subscription.status === 'cancelled' && subscription.ends_at && subscription.ends_at > occurredAt) {
      await this.deps.subscriptions.update(subscription.id, {
        provider_updated_at: occurredAt,
        updated_at: this.deps.now().toISOString(),
      });
      return 'applied';
    }
    await this.deps.subscriptions.update(subscription.id, {
      status: 'completed',
      renews_at: null,
      ends_at: occurredAt,
      provider_updated_at: occurredAt,
      updated_at: this.deps.now().toISOString(),
    });
    await this.changed(subscription.user_id);
    return 'applied';
  }

  private async paid(
    driver: PaymentDriver,
    effect: Extract<BillingEffect, { kind: 'payment.succeeded' }>,
  ): Promise<'applied' | 'ignored'> {
    const at = this.deps.now().toISOString();
    if (effect.purpose === 'balance') {
      // The checkout's user, amount and currency: the event's only had to agree with them.
      const checkout = await this.checkout(driver, effect, 'balance');
      const user = await this.deps.users.findById(checkout.user_id);
      if (!user) return 'ignored';
      const credit = {
        userId: user.id,
        deltaMinor: checkout.amount_minor,
        currency: checkout.currency,
        at,
      };
      const note = await this.deps.i18n.translate('transactions.note_top_up');
      const paidCredit = { amount_minor: checkout.amount_minor, currency: checkout.currency, note };
      const { transactions } = this.deps;
      const credited = async () =>
        (await transactions.recordOnce(
          {
            ...this.entry(user, at),
            ...paidCredit,
            type: 'credit',
            status: 'completed',
            driver,
            reference: effect.reference,
          },
          credit,
        )) ??
        // Reported failed first (a capture denied), paid now: its row becomes the credit.
        (await transactions.completeFailedCharge(
          driver,
          effect.reference,
          { ...paidCredit, type: 'credit', updated_at: at },
          credit,
        ));
      const stored = await credited().catch((error: unknown) => {
        if (error instanceof BalanceCurrencyMismatch) throw new PaymentMismatch('balance_currency');
        throw error;
      });
      if (!stored) return 'ignored';
      // Settling with the new balance is metered billing's own work: a failure there leaves the
      // top-up recorded, and its daily run settles what is still unpaid.
      await this.deps.units.afterCommit(() => this.deps.onBalanceCredited(user.id));
      await this.changed(user.id);
      return 'applied';
    }
    const { subscription, user, plan } = await this.payer(driver, effect, 'plan');
    if (!user) return 'ignored';
    const { transactions } = this.deps;
    const paidAfterFailing = () =>
      transactions.completeFailedCharge(driver, effect.reference, {
        amount_minor: effect.amountMinor,
        currency: effect.currency,
        updated_at: at,
      });
    const stored = await transactions.recordOnce({
      ...this.entry(user, at),
      plan_id: plan?.id ?? null,
      subscription_id: subscription?.id ?? null,
      type: 'charge',
      status: 'completed',
      amount_minor: effect.amountMinor,
      currency: effect.currency,
      driver,
      reference: effect.reference,
      note: await this.deps.i18n.translate('transactions.note_subscription', { plan: plan?.name ?? '' }),
    });
    // The same payment reported again changes nothing; one that had failed before is paid now.
    if (!stored && !(await paidAfterFailing())) return 'ignored';
    if (subscription && plan) await this.renewed(subscription, plan, at, effect.renewsAt ?? null);
    await this.changed(user.id);
    return 'applied';
  }

  /**
   * A payment due at the renewal date starts the next period, until the date the provider names
   * with it (Paystack's invoice) or one interval on. Providers that report the new period themselves
   * (Stripe's subscription update) set the same date. The first payment, made at the start, falls
   * well before the date and moves nothing.
   */
  private async renewed(
    subscription: SubscriptionRow,
    plan: PlanRow,
    at: string,
    nextDate: string | null,
  ): Promise<void> {
    if (subscription.status !== 'active' || !subscription.renews_at) return;
    const due = new Date(new Date(subscription.renews_at).getTime() - RENEWAL_WINDOW_MS).toISOString();
    if (at < due) return;
    await this.deps.subscriptions.update(subscription.id, {
      renews_at:
        nextDate && nextDate > subscription.renews_at
          ? nextDate
          : addInterval(new Date(subscription.renews_at), plan.interval),
      updated_at: at,
    });
  }

  /** The one call to a provider the ledger makes: taking approved money, which only the provider can do. */
  private async complete(driver: PaymentDriver, providerPaymentId: string): Promise<'applied' | 'ignored'> {
    const provider = this.deps.providers.get(driver);
    if (!provider?.completePayment) return 'ignored';
    try {
      await provider.completePayment(providerPaymentId, await this.deps.settings.all());
    } catch (error) {
      // Not retried: the event is settled as failed, in the admin's list with the provider's answer.
      if (error instanceof PaymentNotCompletable)
        throw new PermanentJobError(error.message, { cause: error });
      throw error;
    }
    return 'applied';
  }

  private async failed(
    driver: PaymentDriver,
    effect: Extract<BillingEffect, { kind: 'payment.failed' }>,
  ): Promise<'applied' | 'ignored'> {
    const { subscription, user, plan } = await this.payer(driver, effect);
    if (!user) return 'ignored';
    const at = this.deps.now().toISOString();
    const planName = plan?.name ?? '';
    const stored = await this.deps.transactions.recordOnce({
      ...this.entry(user, at),
      plan_id: plan?.id ?? null,
      subscription_id: subscription?.id ?? null,
      type: 'charge',
      status: 'failed',
      amount_minor: effect.amountMinor,
      currency: effect.currency,
      driver,
      reference: effect.reference,
      note: await this.deps.i18n.translate('transactions.note_subscription', { plan: planName }),
    });
    if (!stored) return 'ignored';
    const vars = {
      plan: planName,
      amount: `${fromMinorUnits(effect.amountMinor, effect.currency)} ${effect.currency}`,
    };
    await this.deps.notifications.notify(user.id, {
      category: 'payment-alert',
      title: await this.deps.i18n.translate('notifications.payment_alert.title', vars),
      description: await this.deps.i18n.translate('notifications.payment_alert.description', vars),
      action: { type: 'route', params: { route: 'Billing' } },
    });
    await this.changed(user.id);
    return 'applied';
  }

  /**
   * Who a subscription's payment is from: its subscription's user, once the subscription is known.
   * Without one, only a checkout made here can say whose it is (the first charge of Paystack's
   * inline form); a payment naming a subscription not stored yet waits for it.
   */
  private async payer(
    driver: PaymentDriver,
    effect: {
      reference: string;
      amountMinor: number;
      currency: string;
      userId: string | null;
      providerSubscriptionId: string | null;
    },
    /** What a successful payment must have been checked out for; a failed one may be either. */
    purpose?: CheckoutRow['purpose'],
  ) {
    const subscription = effect.providerSubscriptionId
      ? await this.deps.subscriptions.byProvider(driver, effect.providerSubscriptionId)
      : undefined;
    if (subscription) {
      const [user, plan] = await Promise.all([
        this.deps.users.findById(subscription.user_id),
        this.deps.plans.find(subscription.plan_id),
      ]);
      return { subscription, user, plan };
    }
    const checkout = await this.checkout(driver, effect, purpose).catch((error: unknown) => {
      if (error instanceof PaymentMismatch && error.reason === 'no_checkout' && effect.providerSubscriptionId)
        throw new EventOutOfOrder(`subscription ${effect.providerSubscriptionId} is not known yet`);
      throw error;
    });
    const [user, plan] = await Promise.all([
      this.deps.users.findById(checkout.user_id),
      checkout.plan_id ? this.deps.plans.find(checkout.plan_id) : undefined,
    ]);
    return { subscription: undefined, user, plan };
  }

  /** The checkout a payment answers: the same reference, user, purpose, amount and currency. */
  private async checkout(
    driver: PaymentDriver,
    payment: { reference: string; amountMinor: number; currency: string; userId: string | null },
    purpose?: CheckoutRow['purpose'],
  ): Promise<CheckoutRow> {
    const checkout = await this.deps.checkouts.find(driver, payment.reference);
    if (!checkout) throw new PaymentMismatch('no_checkout');
    if (payment.userId !== null && payment.userId !== checkout.user_id)
      throw new PaymentMismatch('other_user');
    if (purpose && checkout.purpose !== purpose) throw new PaymentMismatch('other_purpose');
    if (payment.currency.toUpperCase() !== checkout.currency.toUpperCase())
      throw new PaymentMismatch('currency');
    if (payment.amountMinor !== checkout.amount_minor) throw new PaymentMismatch('amount');
    return checkout;
  }

  private async known(driver: PaymentDriver, providerSubscriptionId: string): Promise<SubscriptionRow> {
    const subscription = await this.deps.subscriptions.byProvider(driver, providerSubscriptionId);
    if (!subscription) throw new EventOutOfOrder(`subscription ${providerSubscriptionId} is not known yet`);
    return subscription;
  }

  private async plan(driver: PaymentDriver, ref: PlanReference): Promise<PlanRow> {
    const plan = await this.findPlan(driver, ref);
    if (!plan) throw new PermanentJobError('the event names a plan this instance does not have');
    return plan;
  }

  private async findPlan(driver: PaymentDriver, ref: PlanReference): Promise<PlanRow | undefined> {
    const id = 'id' in ref ? ref.id : await this.deps.registrations.planIdOf(driver, ref.providerPlanId);
    return id ? this.deps.plans.find(id) : undefined;
  }

  private entry(user: { id: string; name: string; email: string }, at: string) {
    return {
      // Time-ordered: transactions of one instant still list newest first.
      id: timeOrderedId(),
      user_id: user.id,
      user_name: user.name,
      user_email: user.email,
      plan_id: null,
      subscription_id: null,
      created_at: at,
      updated_at: at,
    };
  }

  /** The person's limits may have moved: their open tabs fetch the user resource again. */
  private async changed(userId: string): Promise<void> {
    await this.deps.units.afterCommit(() =>
      this.deps.realtime.emitToUser(userId, 'user.updated', { user_id: userId }),
    );
  }
}
