import { folderIdOf, memberActor, ownerActor, type Actor, type ActorResolver } from '../files/files.access';
import type { ItemReader } from '../files/files.ports';
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
    if (!id) return ownerActor(userId);
    const item = await this.items.findAny(id);
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
