import type { Logger } from 'pino';
import type { UnitOfWork } from '../../db/database';
import type { Broadcaster } from '../../realtime/realtime.server';
import type { FilesRepository } from './files.repository';

/** Who sees an owner's items besides the owner (the teams module answers). */
export interface ItemWatchers {
  /** The members of each of the owner's team folders; none for an owner without one. */
  teamMembers(ownerId: string): Promise<{ folder_id: string; user_id: string }[]>;
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
      items: Pick<FilesRepository, 'selfAndAncestorIds' | 'teamFoldersWithin'>;
      realtime: Broadcaster;
      units: Pick<UnitOfWork, 'afterCommit'>;
      logger: Pick<Logger, 'warn'>;
    },
  ) {}

  /**
   * Announces a change of the owner's tree once it is stored: at once, or inside a unit of work when
   * it commits (never for writes rolled back). `itemIds` are the items written and the folders they
   * left (any of them may be gone by then); what a team member sees is found from them. `formerMembers`
   * stopped seeing them with this write (they left a team folder), so they are told besides.
   */
  announce(
    ownerId: string,
    itemIds: readonly (string | null)[],
    formerMembers: readonly string[] = [],
  ): Promise<void> {
    return this.deps.units.afterCommit(() => this.send(ownerId, itemIds, formerMembers));
  }

  /**
   * The owner's whole tree goes (their account is deleted): the members of their team folders, read
   * now while the memberships still exist, are told once it is gone.
   */
  async announceTreeGone(ownerId: string): Promise<void> {
    const members = new Set((await this.deps.watchers.teamMembers(ownerId)).map((team) => team.user_id));
    if (members.size > 0) await this.announce(ownerId, [], [...members]);
  }

  /**
   * The members of the team folders among these folders and below them, read before they go (to the
   * trash, or for good with their memberships) or once they are back from the trash: the write that
   * removes or restores them tells them too.
   */
  async membersWithin(ownerId: string, folderIds: readonly string[]): Promise<string[]> {
    if (folderIds.length === 0) return [];
    const teams = await this.deps.watchers.teamMembers(ownerId);
    if (teams.length === 0) return [];
    const within = new Set(await this.deps.items.teamFoldersWithin(ownerId, folderIds));
    return [...new Set(teams.filter((team) => within.has(team.folder_id)).map((team) => team.user_id))];
  }

  /** Never throws: the write it reports is done, so a failure is only logged. */
  private async send(
    ownerId: string,
    itemIds: readonly (string | null)[],
    formerMembers: readonly string[],
  ): Promise<void> {
    try {
      const members = await this.membersAbove(ownerId, itemIds);
      await this.deps.realtime.emitToUsers([ownerId, ...members, ...formerMembers], 'items.changed', {
        owner_id: ownerId,
      });
    } catch (error) {
      this.deps.logger.warn({ err: error, ownerId }, 'items.changed not announced');
    }
  }

  /** The members of the owner's team folders that are, or hold, any of the items. */
  private async membersAbove(ownerId: string, itemIds: readonly (string | null)[]): Promise<string[]> {
    const ids = [...new Set(itemIds.filter((id): id is string => id !== null))];
    if (ids.length === 0) return [];
    // Most owners have no team folder: then the walk up the tree is not worth a query.
    const teams = await this.deps.watchers.teamMembers(ownerId);
    if (teams.length === 0) return [];
    const above = new Set(await this.deps.items.selfAndAncestorIds(ownerId, ids));
    return [...new Set(teams.filter((team) => above.has(team.folder_id)).map((team) => team.user_id))];
  }
}
