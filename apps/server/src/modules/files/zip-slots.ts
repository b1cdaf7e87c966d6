import type { FastifyReply } from 'fastify';
import { AppError } from '../../lib/app-error';

/** How long a client refused for a busy link or address is asked to wait before trying again. */
const RETRY_AFTER_SECONDS = 10;

export interface ZipSlotLimits {
  /** Zips of one share link at the same time. */
  perLink: number;
  /** Zips one client (an address, or a signed-in account) streams at the same time. */
  perClient: number;
}

/**
 * Bounds the zips this node streams at once. A zip holds a core for as long as its files take to
 * pack (seconds for thousands of files), so each link and each client gets a few at a time and the
 * next answers 429 with Retry-After. Counted per node, since a zip costs the node that streams it; a
 * slot is given back when its response closes, sent to the end or left by its client.
 */
export class ZipSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly limits: ZipSlotLimits) {}

  /** Takes a slot for the link (if any) and the client, all or none, for as long as `reply` is open. */
  hold(reply: FastifyReply, claim: { link?: string; client: string }): void {
    const keys = [
      ...(claim.link === undefined ? [] : [{ key: `link:${claim.link}`, limit: this.limits.perLink }]),
      { key: `client:${claim.client}`, limit: this.limits.perClient },
    ];
    if (keys.some(({ key, limit }) => (this.held.get(key) ?? 0) >= limit))
      throw new AppError('throttled', 'errors.zip_busy', undefined, undefined, {
        retry_after: RETRY_AFTER_SECONDS,
      });
    for (const { key } of keys) this.held.set(key, (this.held.get(key) ?? 0) + 1);
    // 'close' comes once for every response: after its last byte, or when its connection went away.
    reply.raw.setMaxListeners(reply.raw.getMaxListeners() + 1);
    reply.raw.once('close', () => {
      for (const { key } of keys) {
        const left = (this.held.get(key) ?? 1) - 1;
        if (left > 0) this.held.set(key, left);
        else this.held.delete(key);
      }
    });
  }

  /** Slots held now, for tests and metrics. */
  get size(): number {
    let total = 0;
    for (const count of this.held.values()) total += count;
    return total;
  }
}
