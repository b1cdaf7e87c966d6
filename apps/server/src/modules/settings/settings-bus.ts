import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** The Redis channel every process listens on for "the settings changed, read them again". */
const CHANNEL = 'atelier:settings:changed';

/**
 * Tells every other process (API nodes, workers) that the settings changed, so their caches are
 * dropped at once instead of at the next expiry. One subscriber connection per process.
 */
export class SettingsBus {
  private readonly subscriber: Redis;
  private readonly subscribed: Promise<unknown>;

  constructor(
    private readonly publisher: Redis,
    onChange: () => void,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {
    // A subscribed connection can do nothing else, hence the second one.
    this.subscriber = publisher.duplicate();
    this.subscriber.on('error', (error: Error) => logger.warn({ err: error }, 'settings bus: Redis error'));
    this.subscriber.on('message', (channel: string) => {
      if (channel === CHANNEL) onChange();
    });
    this.subscribed = this.subscriber.subscribe(CHANNEL).catch((error: unknown) => {
      logger.warn({ err: error }, 'settings bus: not subscribed; caches expire on their own');
    });
  }

  /** Resolves once the subscription is live (tests wait for it). */
  whenReady(): Promise<unknown> {
    return this.subscribed;
  }

  /**
   * Resolves once Redis took the message; other processes drop their cache when it arrives. The
   * change is stored already, so a lost Redis only delays it to the others' cache expiry.
   */
  async announce(): Promise<void> {
    await this.publisher
      .publish(CHANNEL, String(process.pid))
      .catch((error: Error) => this.logger.warn({ err: error }, 'settings bus: change not announced'));
  }

  async close(): Promise<void> {
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}
