import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from './files.access';
import type { FilesRepository } from './files.repository';

interface Entry {
  version: number;
  body: string;
  etag: string;
}

/** Bytes of serialised listings one process keeps: about a thousand pages of 50 items. */
export const LISTING_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Serialised listings (folder pages, latest, trash, tree, favourites) per actor and URL, valid while
 * the owner's listing version stands. The version lives in the database and is moved by triggers on
 * every write that changes a listing, so every process of a scaled-out instance sees it and a cached
 * page is never served after a change. A repeated page then costs one primary-key read instead of
 * counting and walking a large folder, and browsers revalidate it with the content's ETag.
 */
export class ListingCache {
  private readonly entries = new Map<string, Entry>();
  /** Builds under way, so a page many ask for at once (a popular share link) is built once. */
  private readonly building = new Map<string, { version: number; entry: Promise<Entry> }>();
  private bytes = 0;

  constructor(
    private readonly items: FilesRepository,
    private readonly maxBytes = LISTING_CACHE_BYTES,
  ) {}

  async send(
    request: FastifyRequest,
    reply: FastifyReply,
    actor: Actor,
    build: () => Promise<unknown>,
  ): Promise<FastifyReply> {
    const key = [
      actor.ownerId,
      actor.userId,
      actor.rootId,
      actor.canWrite,
      actor.shareToken,
      actor.uploadRequestId,
      request.url,
    ].join('|');
    // Read before building (or with the folder the actor carries, in one statement): what is built is
    // then at least as new as the version it is kept under.
    const version =
      actor.listed?.user_id === actor.ownerId
        ? actor.listed.listing_version
        : await this.items.listingVersion(actor.ownerId);
    let entry = this.entries.get(key);
    if (entry?.version === version) {
      // Map order is the recency order: move the hit to the end.
      this.entries.delete(key);
      this.entries.set(key, entry);
    } else {
      // The builders are the presenters, typed by the contract the route declares; checking fifty items
      // against it again on every page built was about a twentieth of a first visit's CPU.
      entry = await this.buildOnce(key, version, async () => JSON.stringify(await build()));
    }
    reply.header('etag', entry.etag).header('cache-control', 'private, no-cache');
    if (request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(entry.body);
  }

  /** Joins a build of the same page and version already under way, or starts one and keeps its result. */
  private buildOnce(key: string, version: number, serialize: () => Promise<string>): Promise<Entry> {
    const underWay = this.building.get(key);
    if (underWay?.version === version) return underWay.entry;
    const entry = serialize()
      .then((body): Entry => {
        const built = { version, body, etag: `W/"${createHash('sha1').update(body).digest('base64url')}"` };
        this.store(key, built);
        return built;
      })
      .finally(() => {
        if (this.building.get(key)?.entry === entry) this.building.delete(key);
      });
    this.building.set(key, { version, entry });
    return entry;
  }

  private store(key: string, entry: Entry) {
    const previous = this.entries.get(key);
    if (previous) {
      this.bytes -= previous.body.length;
      this.entries.delete(key);
    }
    if (entry.body.length > this.maxBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.body.length;
    }
  }
}
