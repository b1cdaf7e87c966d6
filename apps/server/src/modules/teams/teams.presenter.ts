import type {
  InvitationDocument,
  InvitationStatus,
  TeamFolderMeta,
  TeamInvitationSummary,
} from '@atelier/contracts';
import { presentAvatar } from '../users/users.presenter';
import type { InvitationView, TeamMemberView } from './teams.repository';
import type { TeamInvitationRow } from './teams.tables';

/** The status an invitation has at `now`: a pending one whose week ran out is `expired`. */
export function invitationStatusAt(invitation: TeamInvitationRow, now: Date): InvitationStatus {
  if (invitation.status !== 'pending') return invitation.status;
  return new Date(invitation.expires_at) <= now ? 'expired' : 'pending';
}

export function presentTeamFolderMeta(input: {
  folder: { id: string; name: string };
  owner: { id: string; name: string; avatar: string | null; color: string };
  permission: TeamFolderMeta['permission'];
  members: TeamMemberView[];
  invitations: TeamInvitationRow[];
  now: Date;
}): TeamFolderMeta {
  return {
    id: input.folder.id,
    name: input.folder.name,
    owner: { ...input.owner, avatar: presentAvatar(input.owner.avatar) },
    permission: input.permission,
    members: input.members.map((member) => ({ ...member, avatar: presentAvatar(member.avatar) })),
    invitations: input.invitations.map((invitation): TeamInvitationSummary => ({
      id: invitation.id,
      email: invitation.email,
      permission: invitation.permission,
      status: invitationStatusAt(invitation, input.now),
    })),
  };
}

export function presentInvitation(invitation: InvitationView, now: Date): InvitationDocument {
  return {
    data: {
      id: invitation.id,
      type: 'invitation',
      attributes: {
        status: invitationStatusAt(invitation, now),
        permission: invitation.permission,
        email: invitation.email,
        folder_id: invitation.folder_id,
        folder_name: invitation.folder_name,
        inviter: {
          name: invitation.inviter_name,
          avatar: presentAvatar(invitation.inviter_avatar),
          color: invitation.inviter_color,
        },
      },
    },
  };
}
