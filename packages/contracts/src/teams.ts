import { z } from 'zod';
import { Email } from './auth';
import { TeamPermission } from './enums';
import { ItemName, ItemList, ItemResource } from './files';
import { Avatar } from './user';

/** `pending` until answered; `expired` 7 days after it was sent, if still unanswered. */
export const InvitationStatus = z.enum(['pending', 'accepted', 'rejected', 'expired']);
export type InvitationStatus = z.infer<typeof InvitationStatus>;

/** Days an invitation waits for its answer. */
export const TEAM_INVITATION_DAYS = 7;
/** Invitations one call may send. */
export const TEAM_INVITATIONS_MAX = 50;

export const TeamInvitationInput = z.object({ email: Email, permission: TeamPermission });
export type TeamInvitationInput = z.infer<typeof TeamInvitationInput>;
const Invitations = z.array(TeamInvitationInput).max(TEAM_INVITATIONS_MAX);

/** `POST /api/teams/folders`: a new team folder in the owner's root. */
export const CreateTeamFolderBody = z.object({ name: ItemName, invitations: Invitations.default([]) });
export type CreateTeamFolderBody = z.input<typeof CreateTeamFolderBody>;

/** `POST /api/teams/folders/{id}/convert`: one of the owner's folders becomes a team folder. */
export const ConvertTeamFolderBody = z.object({ invitations: Invitations.default([]) });
export type ConvertTeamFolderBody = z.input<typeof ConvertTeamFolderBody>;

/** `PATCH /api/teams/folders/{id}`: the owner changes permissions, invites more, removes members. */
export const UpdateTeamFolderBody = z.object({
  members: z
    .array(z.object({ id: z.string().max(64), permission: TeamPermission }))
    .max(500)
    .optional(),
  invitations: Invitations.optional(),
  remove_members: z.array(z.string().max(64)).max(500).optional(),
});
export type UpdateTeamFolderBody = z.input<typeof UpdateTeamFolderBody>;

export const TeamMember = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  avatar: Avatar,
  /** The letter avatar's background, the same as on the person's own pages. */
  color: z.string(),
  permission: TeamPermission,
});
export type TeamMember = z.infer<typeof TeamMember>;

export const TeamInvitationSummary = z.object({
  id: z.string(),
  email: z.string(),
  permission: TeamPermission,
  status: InvitationStatus,
});
export type TeamInvitationSummary = z.infer<typeof TeamInvitationSummary>;

/**
 * `meta.teamFolder` of team listings: the folder, its members and (for its owner only) its
 * invitations; `owner` and `permission` say whose it is and what the viewer may do.
 */
export const TeamFolderMeta = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.object({ id: z.string(), name: z.string(), avatar: Avatar, color: z.string() }),
  /** The viewer's permission; null for the owner. */
  permission: TeamPermission.nullable(),
  members: z.array(TeamMember),
  invitations: z.array(TeamInvitationSummary),
});
export type TeamFolderMeta = z.infer<typeof TeamFolderMeta>;

/**
 * A team listing: the folder's content with `meta.teamFolder` inside one; at the top (`all`), the
 * team folders with `meta.teams`, each listed folder's team by its id, so a list needs no more calls.
 */
export const TeamItemList = ItemList.extend({
  meta: ItemList.shape.meta.extend({
    teamFolder: TeamFolderMeta.nullable(),
    teams: z.record(z.string(), TeamFolderMeta).optional(),
  }),
});
export type TeamItemList = z.infer<typeof TeamItemList>;

export const TeamFolderDocument = z.object({
  data: ItemResource,
  meta: z.object({ teamFolder: TeamFolderMeta }),
});
export type TeamFolderDocument = z.infer<typeof TeamFolderDocument>;

/**
 * `GET/PUT/DELETE /api/teams/invitations/{id}`: `token` is the one the invitation e-mail's link
 * carries; it proves the invited address where registering does not.
 */
export const InvitationQuery = z.object({ token: z.string().min(1).max(200).optional() });
export type InvitationQuery = z.infer<typeof InvitationQuery>;

export const InvitationDocument = z.object({
  data: z.object({
    id: z.string(),
    type: z.literal('invitation'),
    attributes: z.object({
      status: InvitationStatus,
      permission: TeamPermission,
      email: z.string(),
      /** The team folder: its address once the invitee is a member (and for the inviter). */
      folder_id: z.string(),
      folder_name: z.string(),
      inviter: z.object({ name: z.string(), avatar: Avatar, color: z.string() }),
    }),
  }),
});
export type InvitationDocument = z.infer<typeof InvitationDocument>;
