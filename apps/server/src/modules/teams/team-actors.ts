import { folderIdOf, memberActor, ownerActor, type Actor, type ActorResolver } from '../files/files.access';
import type { ItemReader } from '../files/files.ports';
import type { ItemRow } from '../files/files.tables';
import type { TeamsRepository } from './teams.repository';

/**
 * Decides who a signed-in user acts as for a call: the owner, for their own items (and for anything
 * unknown, which then answers 404); a member, confined to the nearest team folder above the named
 * item that they belong to, writing only with `can_edit`. Every file route goes through it, so a
 * member reaches a team folder through the owner's usual calls and nothing else of the owner's.
 */
export class TeamActorResolver implements ActorResolver {
  constructor(
    private readonly items: ItemReader,
    private readonly teams: TeamsRepository,
  ) {}

  async of(userId: string, anchors: readonly (string | null | undefined)[]): Promise<Actor> {
    const id = anchors.map(folderIdOf).find((anchor) => anchor !== null);
    return this.actorOver(userId, id ? await this.items.findAny(id) : undefined);
  }

  /**
   * The folder, its marks, counts and listing version are read in the statement that decides the
   * actor; they go with the actor only when the folder is in the tree the actor reaches.
   */
  async ofFolderPage(userId: string, ref: string): Promise<Actor> {
    const id = folderIdOf(ref);
    const listed = id ? await this.items.findListed(id, userId) : undefined;
    const actor = await this.actorOver(userId, listed);
    return listed && listed.user_id === actor.ownerId ? { ...actor, listed } : actor;
  }

  /** Who the user acts as over the item a call names (none, or none that exists: their own tree). */
  private async actorOver(userId: string, item: Pick<ItemRow, 'id' | 'user_id'> | undefined): Promise<Actor> {
    if (!item || item.user_id === userId) return ownerActor(userId);
    const chain = await this.items.ancestorIds(item.user_id, item.id);
    const memberships = new Map(
      (await this.teams.membershipsAmong(userId, chain)).map((m) => [m.folder_id, m.permission]),
    );
    const folderId = chain.find((ancestor) => memberships.has(ancestor));
    if (!folderId) return ownerActor(userId);
    return memberActor({
      ownerId: item.user_id,
      userId,
      folderId,
      canWrite: memberships.get(folderId) === 'can_edit',
    });
  }
}
