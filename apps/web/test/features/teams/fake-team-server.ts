import type {
  InvitationDocument,
  ItemResource,
  TeamFolderMeta,
  TeamInvitationInput,
  TeamMember,
  TeamPermission,
} from '@atelier/contracts';
import { json, noContent } from '../../responses';
import { buildItem, fakeFilesServer, type SeenRequest } from '../files/fake-files-server';

const refusal = (status: number, message: string) => json({ message, code: String(status) }, status);
const NO_AVATAR = { xs: null, sm: null, md: null };

export function buildMember(name: string, permission: TeamPermission): TeamMember {
  const handle = name.split(' ')[0]!.toLowerCase();
  return {
    id: `user-${handle}`,
    name,
    email: `${handle}@atelier.test`,
    avatar: NO_AVATAR,
    color: '#3f7d58',
    permission,
  };
}

/**
 * One team folder ("Studio", owned by Olivia) with a folder and a file inside, answering the team
 * calls of the API addendum over the fake file store, as the owner or as a member with `permission`.
 */
export function fakeTeamServer({
  viewer = 'owner',
  members = [buildMember('Eddie Editor', 'can_edit')],
}: {
  /** Who is signed in: the owner, or a member with this permission. */
  viewer?: 'owner' | TeamPermission;
  members?: TeamMember[];
} = {}) {
  const studio = buildItem('folder', 'Studio', { items: 2 });
  const renders = buildItem('folder', 'Renders', { parent_id: studio.id });
  const brief = buildItem('file', 'brief.txt', { parent_id: studio.id });
  const files = fakeFilesServer([studio, renders, brief]);
  let seq = 0;
  const team: TeamFolderMeta = {
    id: studio.id,
    name: 'Studio',
    owner: { id: 'user-olivia', name: 'Olivia Owner', avatar: NO_AVATAR, color: '#b3541e' },
    permission: viewer === 'owner' ? null : viewer,
    members,
    invitations: [],
  };
  const invitations = new Map<string, InvitationDocument['data']>();
  const requests: SeenRequest[] = [];
  let override: ((request: SeenRequest) => Response | undefined) | undefined;

  // The owner's team folders: Studio, and any folder converted since.
  const teamIds = new Set([studio.id]);
  const inTeam = (id: string) => {
    for (let item = files.items.get(id); item; item = files.items.get(item.attributes.parent_id ?? '')) {
      if (teamIds.has(item.id)) return true;
    }
    return false;
  };
  const page = (
    data: ItemResource[],
    root: ItemResource | null,
    teamFolder: TeamFolderMeta | null,
    teams?: Record<string, TeamFolderMeta>,
  ) =>
    json({
      data,
      meta: {
        paginate: { current_page: 1, per_page: 100, total: data.length, last_page: 1 },
        root,
        teamFolder,
        ...(teams ? { teams } : {}),
      },
    });

  function invite({ email, permission }: TeamInvitationInput) {
    seq += 1;
    const id = `invitation-${seq}`;
    team.invitations.push({ id, email, permission, status: 'pending' });
    invitations.set(id, {
      id,
      type: 'invitation',
      attributes: {
        status: 'pending',
        permission,
        email,
        folder_id: team.id,
        folder_name: team.name,
        inviter: { name: team.owner.name, avatar: NO_AVATAR, color: team.owner.color },
      },
    });
    return id;
  }

  function handle(request: SeenRequest): Response | Promise<Response> {
    const { method, path } = request;
    const body = request.body as Record<string, unknown> | undefined;
    let match: RegExpMatchArray | null;
    if (method === 'GET' && (match = path.match(/^\/api\/teams\/(folders|shared-with-me)\/([^/]+)$/))) {
      const [, side, id] = match as unknown as [string, string, string];
      if ((side === 'folders') !== (viewer === 'owner')) return page([], null, null);
      if (id === 'all')
        return page(
          [...teamIds].map((teamId) => files.items.get(teamId)!),
          null,
          null,
          // Each listed folder's team, as the server gives it at the top.
          Object.fromEntries(
            [...teamIds]
              .filter((teamId) => teamId === team.id)
              .map((teamId) => [teamId, structuredClone(team)]),
          ),
        );
      if (!inTeam(id)) return refusal(404, 'Not found.');
      const children = [...files.items.values()].filter((item) => item.attributes.parent_id === id);
      const perPage = Number(request.query.get('per_page') ?? 100);
      return page(children.slice(0, perPage), files.items.get(id)!, structuredClone(team));
    }
    if (method === 'GET' && path === `/api/teams/folders/${studio.id}/tree`)
      return json({ data: [{ id: renders.id, name: 'Renders', emoji: null, color: null, folders: [] }] });
    if (method === 'POST' && path === `/api/teams/folders/${studio.id}` && body?._method === 'patch') {
      for (const change of (body.members as { id: string; permission: TeamPermission }[]) ?? []) {
        const member = team.members.find((entry) => entry.id === change.id);
        if (member) member.permission = change.permission;
      }
      const removed = new Set((body.remove_members as string[]) ?? []);
      team.members = team.members.filter((member) => !removed.has(member.id));
      for (const invitation of (body.invitations as TeamInvitationInput[]) ?? []) invite(invitation);
      return json({ data: files.items.get(studio.id), meta: { teamFolder: structuredClone(team) } });
    }
    if (method === 'POST' && (match = path.match(/^\/api\/teams\/folders\/([^/]+)\/convert$/))) {
      const folder = files.items.get(match[1]!);
      if (!folder) return refusal(404, 'Not found.');
      teamIds.add(folder.id);
      const teamFolder = {
        ...team,
        id: folder.id,
        name: folder.attributes.name,
        members: [],
        invitations: [],
      };
      return json({ data: folder, meta: { teamFolder } }, 201);
    }
    if ((match = path.match(/^\/api\/teams\/invitations\/([^/]+)$/))) {
      const invitation = invitations.get(match[1]!);
      if (!invitation) return refusal(404, 'Not found.');
      if (method === 'GET') return json({ data: invitation });
      if (invitation.attributes.status !== 'pending') return refusal(410, 'This invitation has expired.');
      invitation.attributes.status = method === 'PUT' ? 'accepted' : 'rejected';
      return noContent();
    }
    return files.fetch(`http://atelier.test${path}?${request.query}`, {
      method,
      body:
        body instanceof FormData || body === undefined
          ? (body as FormData | undefined)
          : JSON.stringify(body),
    });
  }

  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), 'http://atelier.test');
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body;
    const request: SeenRequest = {
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      body,
    };
    requests.push(request);
    return override?.(request) ?? handle(request);
  };

  return {
    fetch,
    team,
    studio,
    renders,
    brief,
    items: files.items,
    /** The file store under the team calls, for fakes of other calls to answer through. */
    files,
    invite,
    invitations,
    answer(next: typeof override) {
      override = next;
    },
    calls: (method: string, path: string) =>
      requests.filter((request) => request.method === method && request.path === path),
  };
}
