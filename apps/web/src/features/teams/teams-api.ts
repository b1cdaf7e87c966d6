import type {
  ConvertTeamFolderBody,
  CreateTeamFolderBody,
  InvitationDocument,
  NavigationTree,
  TeamFolderDocument,
  TeamFolderMeta,
  TeamItemList,
  UpdateTeamFolderBody,
} from '@atelier/contracts';
import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '../../lib/api-client';
import { LISTING_PAGE_SIZE, type SortOrder } from '../files/files-api';
import { userQueryKey } from '../session/session-queries';

/** The owner's team folders, or the team folders others shared with the viewer. */
export type TeamSide = 'owner' | 'member';
export type Team = TeamFolderMeta;
export type Invitation = InvitationDocument['data'];

export const teamsKeys = {
  all: ['teams'] as const,
  side: (side: TeamSide) => ['teams', side] as const,
  listings: (side: TeamSide) => ['teams', side, 'listing'] as const,
  /** The tree of one team (or, for null, the side's team folders themselves). */
  navigation: (side: TeamSide, teamId: string | null) =>
    ['teams', side, 'navigation', teamId ?? 'all'] as const,
  /** The team a folder belongs to, as the viewer sees it. */
  team: (side: TeamSide, folderId: string) => ['teams', side, 'team', folderId] as const,
  /** The ids of the owner's team folders, for the badge in My files. */
  ownedIds: ['teams', 'owner', 'ids'] as const,
  invitation: (id: string) => ['teams', 'invitation', id] as const,
};

const listingBase = (side: TeamSide) =>
  side === 'owner' ? '/api/teams/folders' : '/api/teams/shared-with-me';
const segment = (id: string) => encodeURIComponent(id);

/** One page of a side's team folders (folder null) or of a folder inside one, with `meta.teamFolder`. */
export function fetchTeamListing(
  side: TeamSide,
  folderId: string | null,
  query: Partial<SortOrder> & { page?: number; per_page?: number },
  signal?: AbortSignal,
) {
  return api.get<TeamItemList>(`${listingBase(side)}/${folderId ? segment(folderId) : 'all'}`, {
    query: { per_page: LISTING_PAGE_SIZE, ...query },
    signal,
  });
}

/** The team of a folder: a listing of one item carries it whole. */
export async function fetchTeamOf(side: TeamSide, folderId: string, signal?: AbortSignal): Promise<Team> {
  const listing = await fetchTeamListing(side, folderId, { per_page: 1 }, signal);
  if (!listing.meta.teamFolder) throw new Error('The listing carried no team folder.');
  return listing.meta.teamFolder;
}

export const fetchTeamTree = (teamId: string) =>
  api.get<NavigationTree>(`/api/teams/folders/${segment(teamId)}/tree`).then((body) => body.data);

const invitationPath = (id: string, token: string | null) =>
  `/api/teams/invitations/${segment(id)}${token ? `?${new URLSearchParams({ token })}` : ''}`;

/** Answers that refuse one thing (another address, a member's 403) without ending the session. */
const refusalOnly = { handleUnauthorized: false } as const;

export const teamsApi = {
  create: (body: CreateTeamFolderBody) => api.post<TeamFolderDocument>('/api/teams/folders', body),
  convert: (folderId: string, body: ConvertTeamFolderBody) =>
    api.post<TeamFolderDocument>(`/api/teams/folders/${segment(folderId)}/convert`, body),
  update: (teamId: string, body: UpdateTeamFolderBody) =>
    api.post<TeamFolderDocument>(`/api/teams/folders/${segment(teamId)}`, { ...body, _method: 'patch' }),
  /** The folder stays the owner's, a plain folder again. */
  dissolve: (teamId: string) => apiRequest(`/api/teams/folders/${segment(teamId)}`, { method: 'DELETE' }),
  leave: (teamId: string) =>
    apiRequest(`/api/teams/folders/${segment(teamId)}/leave`, { ...refusalOnly, method: 'DELETE' }),
  /** `token` is the one the invitation e-mail's link carries: the proof of the address it went to. */
  invitation: (id: string, token: string | null, signal?: AbortSignal) =>
    api
      .get<InvitationDocument>(invitationPath(id, token), { ...refusalOnly, signal })
      .then((body) => body.data),
  answer: (id: string, accept: boolean, token: string | null = null) =>
    apiRequest(invitationPath(id, token), {
      ...refusalOnly,
      method: accept ? 'PUT' : 'DELETE',
    }),
};

export const teamQuery = (side: TeamSide, folderId: string) =>
  queryOptions({
    queryKey: teamsKeys.team(side, folderId),
    queryFn: ({ signal }) => fetchTeamOf(side, folderId, signal),
  });

/** The team of the open folder (none at the top); the last one stays while the next folder loads. */
export function useTeamOf(side: TeamSide, folderId: string | null) {
  return useQuery({
    ...teamQuery(side, folderId ?? ''),
    enabled: folderId !== null,
    placeholderData: keepPreviousData,
  });
}

const NO_IDS: ReadonlySet<string> = new Set();

/** The owner's team folders, for their mark in My files (the first 500 are plenty). */
export const teamFolderIdsQuery = queryOptions({
  queryKey: teamsKeys.ownedIds,
  queryFn: ({ signal }) => fetchTeamListing('owner', null, { per_page: 500 }, signal),
  staleTime: 60_000,
});

/** The ids of the owner's team folders. */
export function useTeamFolderIds(enabled: boolean): ReadonlySet<string> {
  const ids = useQuery({
    ...teamFolderIdsQuery,
    select: (list) => new Set(list.data.map((item) => item.id)),
    enabled,
  });
  return ids.data ?? NO_IDS;
}

/**
 * A team changed (made, members, invitations, dissolved, left): the side's listings, trees and
 * teams are read again, and the owner's counted members live on the user resource.
 */
export function teamChanged(queryClient: QueryClient, side: TeamSide) {
  void queryClient.invalidateQueries({ queryKey: teamsKeys.side(side) });
  if (side === 'owner') void queryClient.invalidateQueries({ queryKey: userQueryKey });
}
