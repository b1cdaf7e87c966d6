import type { TeamPermission } from '@atelier/contracts';
import type { Insertable, Selectable } from 'kysely';

/** A folder its owner made a team folder (see migration 0014). */
export interface TeamFoldersTable {
  folder_id: string;
  user_id: string;
  created_at: string;
}

export interface TeamMembersTable {
  folder_id: string;
  user_id: string;
  permission: TeamPermission;
  created_at: string;
}

/** The statuses kept in the row; `expired` is read off `expires_at` while one is pending. */
export type StoredInvitationStatus = 'pending' | 'accepted' | 'rejected';

export interface TeamInvitationsTable {
  id: string;
  folder_id: string;
  inviter_id: string;
  /** Lowercased. */
  email: string;
  permission: TeamPermission;
  status: StoredInvitationStatus;
  expires_at: string;
  created_at: string;
  updated_at: string;
  /** The account that had the address when the invitation was sent (migration 0030), if any. */
  invitee_id: string | null;
  /** SHA-256 of the token in the invitation e-mail's link (migration 0030); null until it is mailed. */
  token_hash: string | null;
  /** The job that e-mails it (migration 0054); null until one claims the e-mail. */
  mailed_by_job: string | null;
}

export type TeamMemberRow = Selectable<TeamMembersTable>;
export type TeamInvitationRow = Selectable<TeamInvitationsTable>;
export type NewTeamInvitation = Insertable<TeamInvitationsTable>;

declare module '../../db/schema' {
  interface DB {
    team_folders: TeamFoldersTable;
    team_members: TeamMembersTable;
    team_invitations: TeamInvitationsTable;
  }
}
