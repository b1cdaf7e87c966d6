import {
  fromMinorUnits,
  type AdminPaymentEventItem,
  type AdminPaymentEventList,
  type PaymentDriver,
} from '@atelier/contracts';
import type { Logger } from 'pino';
import type { UnitOfWork } from '../../db/database';
import { PermanentJobError } from '../../jobs/job-definition';
import type { JobQueue } from '../../jobs/job-queue';
import { timeOrderedId } from '../../lib/time-ordered-id';
import { AppError } from '../../lib/app-error';
import type { I18nService } from '../i18n/i18n.service';
import type { NotificationsService } from '../notifications/notifications.service';
import type { SettingsService } from '../settings/settings.service';
import type { AccountDirectory } from '../users/users.service';
import { paginate } from '../files/files.presenter';
import type { BillingEventsRepository } from './billing-events.repository';
import type { BillingEventRow } from './billing.tables';
import { applyBillingEventJob } from './billing.jobs';
import {
  EventOutOfOrder,
  PaymentMismatch,
  type BillingLedger,
  type PaymentMismatchReason,
} from './billing-ledger.service';
import { WebhookSignatureError, type BillingEffect } from './payment-provider';
import type { PaymentProviders } from './payment-providers';

/** An event still `received` this long after it was stored lost its job: the sweep enqueues it again. */
export const UNAPPLIED_AFTER_MS = 10 * 60_000;
/** How many lost events one sweep enqueues; the next sweep takes the rest. */
const SWEEP_BATCH = 200;
/** An event still waiting this long for the subscription it names never will: the admin looks at it. */
const OUT_OF_ORDER_GIVE_UP_MS = 24 * 60 * 60_000;

export interface BillingEventsDeps {
  events: BillingEventsRepository;
  providers: PaymentProviders;
  ledger: BillingLedger;
  settings: SettingsService;
  users: AccountDirectory;
  notifications: NotificationsService;
  i18n: I18nService;
  jobs: JobQueue;
  units: UnitOfWork;
  logger: Logger;
  now: () => Date;
}

/**
 * Provider webhooks: verified before anything else, stored once per provider event id, answered
 * at once, and applied by a job (retried when an event arrives before the one it depends on). No
 * verified event stays unapplied: a replay of one still waiting enqueues it again, and the sweep
 * enqueues whatever lost its job.
 */
export class BillingEventsService {
  constructor(private readonly deps: BillingEventsDeps) {}

  /** Answers whether the event was new; a replay is answered the same and changes nothing. */
  async receive(
    driver: PaymentDriver,
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<{ received: true; duplicate: boolean }> {
    const provider = this.deps.providers.get(driver);
    if (!provider) throw new AppError('not_found', 'billing.unknown_driver');
    if (rawBody.length === 0) throw new AppError('bad_request', 'billing.webhook_signature');
    const settings = await this.deps.settings.all();
    let event;
    try {
      event = await provider.verifyWebhook(rawBody, headers, settings);
    } catch (error) {
      if (error instanceof WebhookSignatureError)
        throw new AppError('bad_request', 'billing.webhook_signature');
      throw error;
    }
    // The event and its job commit together: a failure of either answers 500 with nothing stored,
    // so the provider sends the event again.
    const stored = await this.deps.units.transaction(async () => {
      const inserted = await this.deps.events.insertOnce({
        id: timeOrderedId(),
        driver,
        event_id: event.eventId,
        event_type: event.type,
        payload: rawBody.toString('utf8'),
        effect: JSON.stringify(event.effect),
        occurred_at: event.occurredAt,
        status: 'received',
        error: null,
        received_at: this.deps.now().toISOString(),
        applied_at: null,
      });
      if (inserted) await this.deps.jobs.enqueue(applyBillingEventJob, { event_id: inserted.id });
      return inserted;
    });
    // A replay of an event still waiting is a moment to enqueue it again: its job may have failed for
    // good on a worker that lost the database, or the event predates the unit of work.
    if (!stored) {
      const pending = await this.deps.events.byEventId(driver, event.eventId);
      if (pending?.status === 'received')
        await this.deps.jobs.enqueue(applyBillingEventJob, { event_id: pending.id });
    }
    return { received: true, duplicate: !stored };
  }

  /** The job's work: applies a stored event once; a settled event is left alone. */
  async apply(id: string): Promise<void> {
    const event = await this.deps.events.find(id);
    if (!event || event.status !== 'received') return;
    const effect = JSON.parse(event.effect) as BillingEffect;
    // What the event changes and its settling commit together: a failure between two of its writes
    // (a renewal's charge recorded, its next period not yet set) leaves the event to its retry whole,
    // where a charge already recorded would make the retry skip the rest. Taking approved money is
    // a call to the provider, for which no transaction may hold the database.
    const applyAndSettle = async () => {
      const outcome = await this.deps.ledger.apply(event.driver, effect, event.occurred_at);
      await this.deps.events.settle(id, outcome, this.deps.now().toISOString());
    };
    try {
      await (effect.kind === 'payment.approved'
        ? applyAndSettle()
        : this.deps.units.transaction(applyAndSettle));
    } catch (error) {
      if (error instanceof PaymentMismatch) return this.review(event, effect, error.reason);
      if (error instanceof EventOutOfOrder && this.waitedTooLong(event))
        return this.review(event, effect, 'out_of_order');
      if (error instanceof PermanentJobError)
        await this.deps.events.settle(id, 'failed', this.deps.now().toISOString(), error.message);
      throw error;
    }
  }

  /**
   * Enqueues every event stored more than UNAPPLIED_AFTER_MS ago and still not applied. Applying is
   * idempotent, so an event whose job is merely slow loses nothing by being enqueued twice.
   */
  async sweep(): Promise<number> {
    const before = new Date(this.deps.now().getTime() - UNAPPLIED_AFTER_MS).toISOString();
    const ids = await this.deps.events.unapplied(before, SWEEP_BATCH);
    for (const id of ids) await this.deps.jobs.enqueue(applyBillingEventJob, { event_id: id });
    if (ids.length > 0)
      this.deps.logger.warn({ events: ids.length }, 'unapplied billing events enqueued again');
    return ids.length;
  }

  /** The admin's list of events the ledger did not apply. */
  async list(status: 'review' | 'failed', page: number, perPage: number): Promise<AdminPaymentEventList> {
    const { rows, total } = await this.deps.events.page(status, page, perPage);
    return { data: rows.map(presentPaymentEvent), meta: { paginate: paginate(total, page, perPage) } };
  }

  private waitedTooLong(event: BillingEventRow): boolean {
    return this.deps.now().getTime() - new Date(event.received_at).getTime() > OUT_OF_ORDER_GIVE_UP_MS;
  }

  /** Kept for the admin with the reason, moving nothing; every admin is told. */
  private async review(
    event: BillingEventRow,
    effect: BillingEffect,
    reason: PaymentMismatchReason | 'out_of_order',
  ): Promise<void> {
    await this.deps.events.settle(event.id, 'review', this.deps.now().toISOString(), reason);
    this.deps.logger.warn(
      { driver: event.driver, event: event.event_id, reason },
      'billing event kept for review',
    );
    const payment =
      effect.kind === 'payment.succeeded' || effect.kind === 'payment.failed'
        ? `${fromMinorUnits(effect.amountMinor, effect.currency)} ${effect.currency}, ${effect.reference}`
        : event.event_id;
    const vars = {
      driver: event.driver,
      payment,
      reason: await this.deps.i18n.translate(`billing.review_reason.${reason}`),
    };
    for (const adminId of await this.deps.users.adminIds()) {
      await this.deps.notifications.notify(adminId, {
        category: 'payment-alert',
        title: await this.deps.i18n.translate('notifications.payment_review.title', vars),
        description: await this.deps.i18n.translate('notifications.payment_review.description', vars),
        action: { type: 'route', params: { route: 'AdminPayments' } },
      });
    }
  }
}

function presentPaymentEvent(row: BillingEventRow): AdminPaymentEventItem {
  const effect = JSON.parse(row.effect) as BillingEffect;
  const payment =
    effect.kind === 'payment.succeeded' || effect.kind === 'payment.failed'
      ? {
          reference: effect.reference,
          amount: fromMinorUnits(effect.amountMinor, effect.currency),
          currency: effect.currency,
          user_id: effect.userId,
        }
      : null;
  return {
    id: row.id,
    driver: row.driver,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status === 'failed' ? 'failed' : 'review',
    reason: row.error,
    payment,
    received_at: new Date(row.received_at).toISOString(),
  };
}
