import type { Logger } from 'pino';
import type { Broadcaster } from '../../realtime/realtime.server';

/** Who sees an owner's items besides the owner (the teams module answers). */
export interface ItemWatchers {
  /** The members of the owner's team folders that are, or hold, any of the items. */
  membersAbove(ownerId: string, itemIds: readonly string[]): Promise<string[]>;
}

/**
 * Every write that changes a folder ends here, after it is stored: `items.changed` goes to everyone
 * who can see the folder — its owner and the members of the team folder that holds it — so their open
 * listings fetch again, whichever client (web, share link, upload request, WebDAV, a render) wrote.
 */
export class ItemChanges {
  constructor(
    private readonly deps: {
      watchers: ItemWatchers;
      realtime: Broadcaster;
      logger: Pick<Logger, 'warn'>;
    },
  ) {}

  /**
   * Announces a stored change of the owner's tree. `itemIds` are the items written and the folders
   * they left (any of them may be gone since); what a team member sees is found from them. Never
   * throws: the write it reports is done, so a failure is only logged.
   */
  async announce(ownerId: string, itemIds: readonly (string | null)[]): Promise<void> {
    try {
      const ids = [...new Set(itemIds.filter((id): id is string => id !== null))];
      const members = ids.length > 0 ? await this.deps.watchers.membersAbove(ownerId, ids) : [];
      await this.deps.realtime.emitToUsers([ownerId, ...members], 'items.changed', { owner_id: ownerId });
    } catch (error) {
      this.deps.logger.warn({ err: error, ownerId }, 'items.changed not announced');
    }
  }
}
