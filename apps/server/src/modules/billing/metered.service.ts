import {
  PAYMENT_REFERENCE_LENGTH,
  fromMinorUnits,
  toMinorUnits,
  type Amount,
  type MeterKey,
  type SubscriptionDetail,
  type UsageEstimate,
} from '@atelier/contracts';
import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUniqueViolation } from '../../lib/db-errors';
import { randomAlphanumeric } from '../../lib/tokens';
import type { Broadcaster } from '../../realtime/realtime.server';
import type { I18nService } from '../i18n/i18n.service';
import type { NotificationsService } from '../notifications/notifications.service';
import type { SettingsService } from '../settings/settings.service';
import type { AccountDirectory } from '../users/users.service';
import type { PlanRow, StoredMeter, SubscriptionRow } from './billing.tables';
import type { MeteredBilling } from './metered-billing';
import { addMonths } from './billing-periods';
import { dayOf, gigabytesStarted, periodEndingAt, pricePeriod } from './metered-pricing';
import type { MeteredRepository } from './metered.repository';
import type { MeteredSettlementRow } from './metered.tables';
import type { SubscriptionsRepository } from './subscriptions.repository';
import type { TransactionsRepository } from './transactions.repository';

/** Days between the notice of an unpaid settlement and each reminder. */
export const REMINDER_INTERVAL_MS = 2 * 24 * 60 * 60_000;
/** The reminder with which the account is restricted. */
export const REMINDERS_BEFORE_RESTRICTION = 3;

/** What the rest of the app tells metered billing about an account's use. */
export interface MeteredUsageSources {
  /** Bytes the user's files take now. */
  storageBytes(userId: string): Promise<number>;
  /** Team members (and pending invitees) counted for the owner. */
  members(userId: string): Promise<number>;
}

export interface MeteredServiceDeps {
  metered: MeteredRepository;
  subscriptions: SubscriptionsRepository;
  transactions: TransactionsRepository;
  users: AccountDirectory;
  settings: SettingsService;
  notifications: NotificationsService;
  i18n: I18nService;
  realtime: Broadcaster;
  usage: MeteredUsageSources;
  logger: Logger;
  now: () => Date;
}

/** What one daily run did, for the job's log and the tests. */
export interface DailyRunReport {
  subscribed: number;
  recorded: number;
  settled: number;
  reminded: number;
}

interface Metered {
  subscription: SubscriptionRow;
  plan: PlanRow;
}

/**
 * Pay for what is used, from a prepaid balance: every user holds the metered plan, use is recorded
 * daily, each ended period is settled from the balance, and an unpaid one is reminded of every two
 * days until, with the third reminder, the account is restricted — until a credit pays it.
 */
export class MeteredService implements MeteredBilling {
  constructor(private readonly deps: MeteredServiceDeps) {}

  private async isMetered(): Promise<boolean> {
    return (await this.deps.settings.get('subscription_type')) === 'metered';
  }

  /** Subscribes the user to the metered plan when the instance is metered and they hold none. */
  async subscribe(userId: string, at = this.deps.now()): Promise<Metered | undefined> {
    if (!(await this.isMetered())) return undefined;
    const held = await this.deps.metered.openMetered(userId);
    if (held) return held;
    if (await this.deps.subscriptions.open(userId)) return undefined; // another plan: not ours to change
    const plan = await this.deps.metered.firstMeteredPlan();
    if (!plan) return undefined;
    const start = at.toISOString();
    try {
      await this.deps.subscriptions.insert({
        id: randomUUID(),
        user_id: userId,
        plan_id: plan.id,
        status: 'active',
        driver: null,
        provider_subscription_id: null,
        renews_at: addMonths(at, 1).toISOString(),
        ends_at: null,
        provider_updated_at: null,
        created_at: start,
        updated_at: start,
      });
    } catch (error) {
      // Subscribed at the same moment by another call (registration and a first page load).
      if (!isUniqueViolation(error)) throw error;
    }
    return this.deps.metered.openMetered(userId);
  }

  async detail(user: UserRow): Promise<Pick<SubscriptionDetail['data'], 'balance' | 'usage' | 'alert'>> {
    if (!(await this.isMetered())) return {};
    const [held, balance, alert, currency] = await Promise.all([
      this.subscribe(user.id),
      this.deps.transactions.balance(user.id),
      this.deps.metered.alertOf(user.id),
      this.deps.settings.get('currency'),
    ]);
    const balanceCurrency = currencyOfBalance(balance, held, currency);
    return {
      balance: {
        amount: fromMinorUnits(balance?.amount_minor ?? 0, balanceCurrency),
        currency: balanceCurrency,
      },
      usage: held ? await this.estimate(held) : null,
      alert: alert ? money(Number(alert.amount_minor), alert.currency) : null,
    };
  }

  async balanceCurrency(userId: string): Promise<string> {
    const [balance, held, currency] = await Promise.all([
      this.deps.transactions.balance(userId),
      this.subscribe(userId),
      this.deps.settings.get('currency'),
    ]);
    return currencyOfBalance(balance, held, currency);
  }

  async standing(userId: string): Promise<{ restriction: string | null; costEstimate: string | null }> {
    if (!(await this.isMetered())) return { restriction: null, costEstimate: null };
    const [held, restriction] = await Promise.all([
      this.deps.metered.openMetered(userId),
      this.unpaidRestriction(userId),
    ]);
    const costEstimate = held ? (await this.estimate(held)).total : null;
    return { restriction, costEstimate };
  }

  async restriction(userId: string): Promise<string | null> {
    return (await this.isMetered()) ? this.unpaidRestriction(userId) : null;
  }

  private async unpaidRestriction(userId: string): Promise<string | null> {
    const unpaid = await this.deps.metered.restrictedAmount(userId);
    return unpaid ? this.deps.i18n.translate('metered.restriction', { amount: formatMoney(unpaid) }) : null;
  }

  /** The current period's use per meter, priced through every tier. */
  async estimate({ subscription, plan }: Metered): Promise<UsageEstimate> {
    const period = currentPeriod(subscription, this.deps.now());
    const records = await this.deps.metered.usageOfPeriod(subscription.id, period.start);
    const priced = pricePeriod(metersOf(plan), records);
    return {
      period_start: period.start,
      period_end: period.end,
      currency: plan.currency,
      items: priced.items.map((item) => ({
        key: item.key,
        quantity: item.quantity,
        amount: fromMinorUnits(item.amountMinor, plan.currency),
      })),
      total: fromMinorUnits(priced.totalMinor, plan.currency),
    };
  }

  /** PATCH /api/subscriptions/alert: the threshold in the instance's currency, or none. */
  async setAlert(user: UserRow, amount: string | null): Promise<Amount | null> {
    if (!(await this.isMetered())) throw AppError.invalid('amount', 'metered.alert_not_metered');
    const held = await this.subscribe(user.id);
    const currency = held?.plan.currency ?? (await this.deps.settings.get('currency'));
    const at = this.deps.now().toISOString();
    if (amount === null) {
      await this.deps.metered.setAlert(user.id, null, at);
      return null;
    }
    const amountMinor = toMinorUnits(amount, currency);
    if (amountMinor === null || amountMinor <= 0) throw AppError.invalid('amount', 'billing.money_decimals');
    await this.deps.metered.setAlert(user.id, { amount_minor: amountMinor, currency }, at);
    if (held) await this.checkAlert(held, this.deps.now());
    return money(amountMinor, currency);
  }

  async onBalanceCredited(userId: string): Promise<void> {
    if (!(await this.isMetered())) return;
    const at = this.deps.now();
    for (const settlement of await this.deps.metered.unpaidOf(userId)) await this.retry(settlement, at);
  }

  /**
   * The daily job's work, safe to run any number of times a day: subscribes whoever has no plan,
   * settles ended periods, records today's use, sends alerts and due reminders.
   */
  async runDaily(now = this.deps.now()): Promise<DailyRunReport> {
    const report: DailyRunReport = { subscribed: 0, recorded: 0, settled: 0, reminded: 0 };
    if (!(await this.isMetered())) return report;
    for (const userId of await this.deps.metered.usersWithoutSubscription()) {
      if (await this.subscribe(userId, now)) report.subscribed += 1;
    }
    for (const held of await this.deps.metered.allOpenMetered()) {
      try {
        report.settled += await this.settleEnded(held, now);
        await this.recordDay(held.subscription, now);
        report.recorded += 1;
        await this.checkAlert(held, now);
      } catch (error) {
        this.deps.logger.error({ err: error, subscription: held.subscription.id }, 'metered run failed');
      }
    }
    for (const settlement of await this.deps.metered.allUnpaid()) {
      if (await this.retry(settlement, now)) continue;
      if (await this.remind(settlement, now)) report.reminded += 1;
    }
    return report;
  }

  /** Records today's use of every meter; a second run the same day overwrites, never adds. */
  async recordDay(subscription: SubscriptionRow, now: Date): Promise<void> {
    const userId = subscription.user_id;
    const day = dayOf(now);
    const period = periodOfDay(subscription, now);
    const at = now.toISOString();
    const [bytes, bandwidth, members, earlier] = await Promise.all([
      this.deps.usage.storageBytes(userId),
      this.deps.metered.bandwidthOn(userId, day),
      this.deps.usage.members(userId),
      this.deps.metered.usageOn(subscription.id, day),
    ]);
    const before = (key: MeterKey) => Number(earlier.find((row) => row.key === key)?.quantity ?? 0);
    const today: [MeterKey, number][] = [
      // The day's maximum: a later run keeps the larger of what it sees and what was seen.
      ['storage', Math.max(before('storage'), gigabytesStarted(bytes))],
      ['bandwidth', gigabytesStarted(bandwidth)],
      ['members', Math.max(before('members'), members)],
      ['flat_fee', 1],
    ];
    for (const [key, quantity] of today)
      await this.deps.metered.recordUsage(subscription.id, day, key, quantity, period.start, at);
  }

  /** Settles every period of the subscription that has ended by `now`; answers how many. */
  private async settleEnded({ subscription, plan }: Metered, now: Date): Promise<number> {
    let settled = 0;
    let renewsAt = subscription.renews_at;
    while (renewsAt !== null && new Date(renewsAt) <= now) {
      const period = periodEndingAt(subscription.created_at, renewsAt);
      await this.settle(subscription, plan, period, now);
      const next = addMonths(
        new Date(subscription.created_at),
        monthsBetween(subscription.created_at, renewsAt) + 1,
      );
      await this.deps.metered.advancePeriod(subscription.id, renewsAt, next.toISOString(), now.toISOString());
      renewsAt = next.toISOString();
      settled += 1;
    }
    if (settled > 0) {
      // The rest of the run records into the period that starts now.
      subscription.renews_at = renewsAt;
      await this.changed(subscription.user_id);
    }
    return settled;
  }

  private async settle(
    subscription: SubscriptionRow,
    plan: PlanRow,
    period: { start: string; end: string },
    now: Date,
  ): Promise<void> {
    const records = await this.deps.metered.usageOfPeriod(subscription.id, period.start);
    const { totalMinor } = pricePeriod(metersOf(plan), records);
    const at = now.toISOString();
    const settlement = await this.deps.metered.insertSettlement({
      id: randomUUID(),
      subscription_id: subscription.id,
      user_id: subscription.user_id,
      period_start: period.start,
      period_end: period.end,
      amount_minor: totalMinor,
      currency: plan.currency,
      status: 'paying',
      reminders: 0,
      notified_at: null,
      restricted_at: null,
      transaction_id: null,
      created_at: at,
      updated_at: at,
    });
    if (!settlement) return; // another run settles this period
    if (await this.pay(settlement, plan, now)) return;
    await this.deps.metered.updateSettlement(settlement.id, {
      status: 'unpaid',
      notified_at: at,
      updated_at: at,
    });
    const user = await this.deps.users.findById(subscription.user_id);
    if (!user) return;
    await this.deps.transactions.recordOnce({
      ...entry(user, settlement, at, plan),
      status: 'failed',
      reference: randomAlphanumeric(PAYMENT_REFERENCE_LENGTH),
      note: await this.deps.i18n.translate('metered.note_settlement', { plan: plan.name }),
    });
    const vars = { amount: formatMoney(settlement) };
    await this.deps.notifications.notify(user.id, {
      category: 'insufficient-balance',
      title: await this.deps.i18n.translate('notifications.insufficient_balance.title', vars),
      description: await this.deps.i18n.translate('notifications.insufficient_balance.description', vars),
      action: { type: 'route', params: { route: 'Billing' } },
    });
  }

  /**
   * Takes the settlement's amount from the balance when it covers it; the charge's reference comes
   * from the settlement, so even two attempts at once store (and take) it once. Answers whether it
   * is paid; a settlement this call claimed and could not pay goes back to `unpaid` by the caller.
   */
  private async pay(
    settlement: MeteredSettlementRow,
    plan: PlanRow | undefined,
    now: Date,
  ): Promise<boolean> {
    const at = now.toISOString();
    const paid = async (transactionId: string | null) => {
      await this.deps.metered.updateSettlement(settlement.id, {
        status: 'paid',
        transaction_id: transactionId,
        updated_at: at,
      });
      return true;
    };
    if (Number(settlement.amount_minor) === 0) return paid(null);
    const user = await this.deps.users.findById(settlement.user_id);
    if (!user) return false;
    try {
      const charge = await this.deps.transactions.chargeBalance({
        ...entry(user, settlement, at, plan),
        status: 'completed',
        reference: settlementReference(settlement.id),
        note: await this.deps.i18n.translate('metered.note_settlement', { plan: plan?.name ?? '' }),
      });
      if (!charge) return false;
      return paid(charge.id);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return paid(null); // charged by another attempt at the same moment
    }
  }

  /** Tries an unpaid settlement again; when the balance now covers it, the restriction lifts. */
  private async retry(settlement: MeteredSettlementRow, now: Date): Promise<boolean> {
    if (!(await this.deps.metered.claim(settlement.id, now))) return false;
    let paid = false;
    try {
      paid = await this.pay(settlement, await this.planOf(settlement.subscription_id), now);
    } finally {
      if (!paid)
        await this.deps.metered.updateSettlement(settlement.id, {
          status: 'unpaid',
          updated_at: now.toISOString(),
        });
    }
    if (paid) await this.changed(settlement.user_id);
    return paid;
  }

  /** A reminder when two days passed since the last notice; the third restricts the account. */
  private async remind(settlement: MeteredSettlementRow, now: Date): Promise<boolean> {
    if (settlement.status !== 'unpaid' || settlement.reminders >= REMINDERS_BEFORE_RESTRICTION) return false;
    const last = settlement.notified_at ?? settlement.created_at;
    if (now.getTime() - new Date(last).getTime() < REMINDER_INTERVAL_MS) return false;
    const restrict = settlement.reminders + 1 >= REMINDERS_BEFORE_RESTRICTION;
    if (!(await this.deps.metered.markReminded(settlement, now.toISOString(), restrict))) return false;
    const vars = { amount: formatMoney(settlement) };
    const kind = restrict ? 'insufficient_balance_restricted' : 'insufficient_balance_reminder';
    await this.deps.notifications.notify(settlement.user_id, {
      category: 'insufficient-balance',
      title: await this.deps.i18n.translate(`notifications.${kind}.title`, vars),
      description: await this.deps.i18n.translate(`notifications.${kind}.description`, vars),
      action: { type: 'route', params: { route: 'Billing' } },
    });
    if (restrict) await this.changed(settlement.user_id);
    return true;
  }

  /** One `billing-alert` per period, when the estimate reaches the user's threshold. */
  private async checkAlert(held: Metered, now: Date): Promise<void> {
    const alert = await this.deps.metered.alertOf(held.subscription.user_id);
    if (!alert) return;
    const estimate = await this.estimate(held);
    const totalMinor = toMinorUnits(estimate.total, estimate.currency) ?? 0;
    if (alert.currency !== estimate.currency || totalMinor < Number(alert.amount_minor)) return;
    const userId = held.subscription.user_id;
    if (!(await this.deps.metered.markAlerted(userId, estimate.period_start, now.toISOString()))) return;
    const vars = {
      amount: formatMoney({ amount_minor: totalMinor, currency: estimate.currency }),
      threshold: formatMoney(alert),
    };
    await this.deps.notifications.notify(userId, {
      category: 'billing-alert',
      title: await this.deps.i18n.translate('notifications.billing_alert.title', vars),
      description: await this.deps.i18n.translate('notifications.billing_alert.description', vars),
      action: { type: 'route', params: { route: 'Billing' } },
    });
  }

  private planOf(subscriptionId: string): Promise<PlanRow | undefined> {
    return this.deps.metered.planOfSubscription(subscriptionId);
  }

  /** The person's restrictions or estimate moved: their open tabs fetch the user resource again. */
  private async changed(userId: string): Promise<void> {
    await this.deps.realtime.emitToUser(userId, 'user.updated', { user_id: userId });
  }
}

/** The period the subscription is in at `now`: the one ending at renews_at (or containing now). */
export function currentPeriod(subscription: SubscriptionRow, now: Date): { start: string; end: string } {
  return periodEndingAt(subscription.created_at, subscription.renews_at ?? addMonths(now, 1).toISOString());
}

/**
 * The period a UTC day's use counts in: the one its last instant falls in. A day a period ends on
 * (the renewal at any hour of it) counts whole in the next period, whichever side of the renewal it
 * is recorded from; so the period settled at the renewal holds whole days only, none twice.
 */
function periodOfDay(subscription: SubscriptionRow, now: Date): { start: string; end: string } {
  const period = currentPeriod(subscription, now);
  const nextDay = Date.parse(`${dayOf(now)}T00:00:00.000Z`) + 24 * 60 * 60_000;
  if (Date.parse(period.end) >= nextDay) return period;
  return periodEndingAt(subscription.created_at, new Date(Date.parse(period.end) + 1).toISOString());
}

function monthsBetween(anchor: string, end: string): number {
  const from = new Date(anchor);
  const until = new Date(end).getTime();
  let n = 0;
  while (addMonths(from, n).getTime() < until && n < 12_000) n += 1;
  return n;
}

function metersOf(plan: PlanRow): StoredMeter[] {
  return plan.meters ? (JSON.parse(plan.meters) as StoredMeter[]) : [];
}

function money(amountMinor: number, currency: string): Amount {
  return { amount: fromMinorUnits(amountMinor, currency), currency };
}

/** An amount as notifications and notes write it: "2.60 EUR". */
export function formatMoney(value: { amount_minor: number; currency: string }): string {
  return `${fromMinorUnits(Number(value.amount_minor), value.currency)} ${value.currency}`;
}

/**
 * A sum as the web app shows it to a reader of `locale` ("€10.00" in English): the decimal string
 * goes to Intl as it is, so it is never rounded through a float. A tag Intl refuses reads as English.
 */
export function formatMoneyIn(locale: string, value: { amount_minor: number; currency: string }): string {
  const amount = fromMinorUnits(Number(value.amount_minor), value.currency) as `${number}`;
  const style = { style: 'currency', currency: value.currency } as const;
  try {
    return new Intl.NumberFormat(locale, style).format(amount);
  } catch {
    return new Intl.NumberFormat('en', style).format(amount);
  }
}

/** Ten characters `[A-Za-z0-9]` that only this settlement's charge carries. */
export function settlementReference(settlementId: string): string {
  const digest = createHash('sha256').update(`metered-settlement:${settlementId}`).digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let i = 0; i < PAYMENT_REFERENCE_LENGTH; i += 1) out += alphabet[digest[i]! % alphabet.length];
  return out;
}

function entry(user: UserRow, settlement: MeteredSettlementRow, at: string, plan: PlanRow | undefined) {
  return {
    id: randomUUID(),
    user_id: user.id,
    user_name: user.name,
    user_email: user.email,
    plan_id: plan?.id ?? null,
    subscription_id: settlement.subscription_id,
    type: 'charge' as const,
    amount_minor: Number(settlement.amount_minor),
    currency: settlement.currency,
    driver: 'balance' as const,
    created_at: at,
    updated_at: at,
  };
}

/**
 * A balance's currency: its own, else the metered plan's, so that a balance a EUR plan settles from
 * is topped up in EUR on an instance whose currency is USD; else the instance's.
 */
function currencyOfBalance(
  balance: { currency: string } | undefined,
  held: Metered | undefined,
  instanceCurrency: string,
): string {
  return balance?.currency ?? held?.plan.currency ?? instanceCurrency;
}
