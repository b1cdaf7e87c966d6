import type { Logger } from 'pino';
import type { Database } from '../../db/database';
import type { SettingsService } from '../settings/settings.service';
import { dayOf } from './metered-pricing';
import { MeteredRepository } from './metered.repository';

/**
 * Counts the bytes a user's files send (downloads, shared pages, WebDAV reads) and receive (finished
 * uploads) per day, for metered billing's bandwidth meter. Counted on metered instances only; a
 * counter that fails is logged and never fails the transfer.
 */
export class BandwidthCounter {
  private readonly metered: MeteredRepository;

  constructor(
    database: Database,
    private readonly settings: SettingsService,
    private readonly now: () => Date,
    private readonly logger: Logger,
  ) {
    this.metered = new MeteredRepository(database);
  }

  async count(userId: string, bytes: number): Promise<void> {
    if (bytes <= 0) return;
    try {
      if ((await this.settings.get('subscription_type')) !== 'metered') return;
      await this.metered.addBandwidth(userId, dayOf(this.now()), bytes);
    } catch (error) {
      this.logger.warn({ err: error, userId }, 'bandwidth could not be counted');
    }
  }
}
