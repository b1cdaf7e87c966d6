import type { PaymentDriver } from '@atelier/contracts';
import type { JobQueue } from '../../jobs/job-queue';
import { timeOrderedId } from '../../lib/time-ordered-id';
import { AppError } from '../../lib/app-error';
import type { SettingsService } from '../settings/settings.service';
import type { BillingEventsRepository } from './billing-events.repository';
import { applyBillingEventJob } from './billing.jobs';
import type { BillingLedger } from './billing-ledger.service';
import { WebhookSignatureError, type BillingEffect } from './payment-provider';
import type { PaymentProviders } from './payment-providers';

export interface BillingEventsDeps {
  events: BillingEventsRepository;
  providers: PaymentProviders;
  ledger: BillingLedger;
  settings: SettingsService;
  jobs: JobQueue;
  now: () => Date;
}

/**
 * Provider webhooks: verified before anything else, stored once per provider event id, answered
 * at once, and applied by a job (retried when an event arrives before the one it depends on).
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
    const stored = await this.deps.events.insertOnce({
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
    if (stored) await this.deps.jobs.enqueue(applyBillingEventJob, { event_id: stored.id });
    return { received: true, duplicate: !stored };
  }

  /** The job's work: applies a stored event once; a settled event is left alone. */
  async apply(id: string): Promise<void> {
    const event = await this.deps.events.find(id);
    if (!event || event.status === 'applied' || event.status === 'ignored') return;
    const outcome = await this.deps.ledger.apply(
      event.driver,
      JSON.parse(event.effect) as BillingEffect,
      event.occurred_at,
    );
    await this.deps.events.settle(id, outcome, this.deps.now().toISOString());
  }
}
