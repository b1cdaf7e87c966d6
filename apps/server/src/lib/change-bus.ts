import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** What changed, so each process can drop what it cached of it. */
export interface ChangeMessage {
  /** The area that changed, e.g. `translations`. */
  topic: string;
  /** Which of the area's entries (a locale, a key), when the area has several. */
  subject?: string;
}

type Listener = (message: ChangeMessage) => void;

/**
 * Tells every API process that cached data changed, so an edit on one node is served by all of them
 * at once. Without Redis there is one process: listeners run in it directly. With Redis each message
 * goes through one pub/sub channel. The publishing process reacts before it publishes (its next
 * answer is fresh without waiting for Redis) and once more when its own message comes back, which
 * costs one more cache miss.
 */
export class ChangeBus {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly publisher: Redis | null;
  private readonly subscriber: Redis | null;
  private readonly ready: Promise<unknown>;
  private readonly channel: string;

  /** `redisPrefix`: the instance's (REDIS_PREFIX); its processes share the channel under it. */
  constructor(redisUrl: string | undefined, redisPrefix: string, logger?: Pick<Logger, 'warn'>) {
    this.channel = `${redisPrefix}:changes`;
    if (!redisUrl) {
      this.publisher = this.subscriber = null;
      this.ready = Promise.resolve();
      return;
    }
    this.publisher = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    // A subscribed connection can do nothing else, hence the second one.
    this.subscriber = this.publisher.duplicate();
    for (const client of [this.publisher, this.subscriber])
      client.on('error', (error: Error) => logger?.warn({ err: error }, 'change bus: redis error'));
    this.subscriber.on('message', (_channel: string, raw: string) => this.deliver(JSON.parse(raw)));
    this.ready = this.subscriber.subscribe(this.channel).catch((error: unknown) => {
      logger?.warn({ err: error }, 'change bus: not subscribed; caches expire on their own');
    });
  }

  on(topic: string, listener: Listener): void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener);
  }

  /** Resolves once the subscription is live (tests and start-up wait for it). */
  whenReady(): Promise<unknown> {
    return this.ready;
  }

  /**
   * Drops this process's copy at once, then tells the others. A lost Redis only delays the others
   * until their caches expire, so a failed publish never fails the edit.
   */
  async publish(message: ChangeMessage): Promise<void> {
    this.deliver(message);
    if (!this.publisher) return;
    await this.publisher.publish(this.channel, JSON.stringify(message)).catch(() => undefined);
  }

  async close(): Promise<void> {
    await Promise.all(
      [this.publisher, this.subscriber].map((client) => client?.quit().catch(() => client.disconnect())),
    );
  }

  private deliver(message: ChangeMessage): void {
    for (const listener of this.listeners.get(message.topic) ?? []) listener(message);
  }
}
