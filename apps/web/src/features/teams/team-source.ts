import type { FolderNode } from '@atelier/contracts';
import { ApiError } from '../../lib/api-client';
import { fileUrl, filesApi, zipUrl, type FileItem } from '../files/files-api';
import { accountVersions, type FileSource } from '../files/file-source';
import { thumbnailUrl } from '../files/item-kind';
import { fetchTeamListing, fetchTeamTree, teamsKeys, type Team, type TeamSide } from './teams-api';

/** The screen of each side's team folders. */
export const teamsPath: Record<TeamSide, string> = {
  owner: '/platform/team-folders',
  member: '/platform/shared-with-me',
};

const nodeOf = (item: FileItem): FolderNode => ({
  id: item.id,
  name: item.attributes.name,
  emoji: item.attributes.emoji,
  color: item.attributes.color,
  folders: [],
});

/**
 * One side's team folders as a file source. The top lists the team folders (nothing is made or
 * moved there); a folder inside one reads through the team listing and changes through the
 * owner's usual calls, as the viewer's permission allows. `team` is the open folder's team (null
 * at the top): the tree shows that team alone, so nothing is moved out of it.
 */
export function createTeamSource(
  side: TeamSide,
  team: Team | null,
  /** A member's change was refused (403): their permission changed meanwhile, so the team is read again. */
  onRefused: () => void,
  /** The top's listing carries each listed folder's team; the list's rows read them from here. */
  onTeams: (teams: Record<string, Team>) => void,
): FileSource {
  const member = side === 'member';
  // A member's refusal is about the change, not the session.
  const calls = member ? ({ handleUnauthorized: false } as const) : undefined;
  const watched = <T>(call: Promise<T>) =>
    call.catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 403) onRefused();
      throw error;
    });
  return {
    // The owner's team folders are their own files: favourites, links and restrictions apply.
    kind: member ? 'team' : 'owner',
    writable: team !== null && team.permission !== 'can_view',
    topIsList: true,
    keys: { listings: teamsKeys.listings(side), navigation: teamsKeys.navigation(side, team?.id ?? null) },
    fetchListingPage: async (listing, order, { page }, signal) => {
      const answer = await fetchTeamListing(
        side,
        'id' in listing ? listing.id : null,
        { ...order, page },
        signal,
      );
      if (answer.meta.teams) onTeams(answer.meta.teams);
      return answer;
    },
    fetchNavigation: async () => {
      if (!team) return (await fetchTeamListing(side, null, {})).data.map(nodeOf);
      return [
        { id: team.id, name: team.name, emoji: null, color: null, folders: await fetchTeamTree(team.id) },
      ];
    },
    createFolder: (body) => watched(filesApi.createFolder(body, calls)),
    rename: (item, changes) => watched(filesApi.rename(item, changes, calls)),
    move: (toId, items) => watched(filesApi.move(toId, items, calls)),
    remove: (items, forceDelete) => watched(filesApi.remove(items, forceDelete, calls)),
    bytes: { fileUrl, thumbnailUrl, zipUrl },
    versions: accountVersions,
    folderPath: (id) => (id ? `${teamsPath[side]}/${id}` : teamsPath[side]),
    upload: {
      endpoint: '/api/upload/chunks',
      delta: '/api/upload/blocks',
      parentId: (folderId) => folderId,
      // The queue sends the chunks itself; a member refused mid-upload must still see the change.
      fetch: member
        ? async (input, init) => {
            const answer = await fetch(input, init);
            if (answer.status === 403) onRefused();
            return answer;
          }
        : undefined,
    },
    normalise: (item) => item,
  };
}
