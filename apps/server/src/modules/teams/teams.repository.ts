import type { TeamPermission } from '@atelier/contracts';
import type { Database } from '../../db/database';
import type { TeamFolderQueries } from '../files/files.ports';
import { accountCards } from '../users/account-queries';
import type { NewTeamInvitation, StoredInvitationStatus, TeamInvitationRow } from './teams.tables';

/** A member as the members panel shows them. */
export interface TeamMemberView {
  id: string;
  name: string;
  email: string;
  avatar: string | null;
  color: string;
  permission: TeamPermission;
}

/** An invitation with who sent it. */
export interface StoredInvitation extends TeamInvitationRow {
  inviter_name: string;
  inviter_color: string;
  inviter_avatar: string | null;
}

/** An invitation with what its page shows: the folder's name and owner (the files module's) and who invited. */
export interface InvitationView extends StoredInvitation {
  folder_name: string;
  folder_owner_id: string;
}

/** Team folders, their members and invitations. */
export class TeamsRepository implements TeamFolderQueries {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** For the files module's listings: the ids of the owner's team folders. */
  teamFolderIds(ownerId: string) {
    return this.db
      .selectFrom('team_folders')
      .select('team_folders.folder_id')
      .where('team_folders.user_id', '=', ownerId);
  }

  /** For the files module's listings: the ids of the team folders the user is a member of. */
  memberFolderIds(userId: string) {
    return this.db
      .selectFrom('team_members')
      .select('team_members.folder_id')
      .where('team_members.user_id', '=', userId);
  }

  /** For the files module: the team folders the user is a member of, and when they joined each. */
  memberships(userId: string) {
    return this.db
      .selectFrom('team_members')
      .select(['team_members.folder_id', 'team_members.created_at as joined_at'])
      .where('team_members.user_id', '=', userId);
  }

  async insertTeamFolder(folderId: string, ownerId: string, now: string): Promise<void> {
    await this.db
      .insertInto('team_folders')
      .values({ folder_id: folderId, user_id: ownerId, created_at: now })
      .execute();
  }

  /** The owner of a team folder, or undefined for a folder that is not one. */
  async teamOwner(folderId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('team_folders')
      .select('user_id')
      .where('folder_id', '=', folderId)
      .executeTakeFirst();
    return row?.user_id;
  }

  /** Which of the folders are team folders, as a set of their ids. */
  async teamFoldersAmong(folderIds: readonly string[]): Promise<Set<string>> {
    if (folderIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('team_folders')
      .select('folder_id')
      .where('folder_id', 'in', folderIds)
      .execute();
    return new Set(rows.map((row) => row.folder_id));
  }

  async deleteTeamFolder(folderId: string): Promise<void> {
    await this.db.deleteFrom('team_folders').where('folder_id', '=', folderId).execute();
  }

  // ---- members -------------------------------------------------------------------------------

  /** The user's memberships among these folders, with each team's owner. */
  membershipsAmong(
    userId: string,
    folderIds: readonly string[],
  ): Promise<{ folder_id: string; owner_id: string; permission: TeamPermission }[]> {
    if (folderIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('team_members')
      .innerJoin('team_folders', 'team_folders.folder_id', 'team_members.folder_id')
      .select(['team_members.folder_id', 'team_folders.user_id as owner_id', 'team_members.permission'])
      .where('team_members.user_id', '=', userId)
      .where('team_members.folder_id', 'in', folderIds)
      .execute();
  }

  /** The members of each of the owner's team folders. */
  teamMembers(ownerId: string): Promise<{ folder_id: string; user_id: string }[]> {
    return this.db
      .selectFrom('team_folders')
      .innerJoin('team_members', 'team_members.folder_id', 'team_folders.folder_id')
      .select(['team_members.folder_id', 'team_members.user_id'])
      .where('team_folders.user_id', '=', ownerId)
      .execute();
  }

  members(folderId: string): Promise<TeamMemberView[]> {
    return this.db
      .selectFrom('team_members')
      .innerJoin(accountCards(this.db).as('account'), 'account.id', 'team_members.user_id')
      .select([
        'account.id',
        'account.name',
        'account.email',
        'account.avatar',
        'account.color',
        'team_members.permission',
      ])
      .where('team_members.folder_id', '=', folderId)
      .orderBy('team_members.created_at', 'asc')
      .orderBy('account.id', 'asc')
      .execute();
  }

  /** Adds the member, or leaves an existing membership as it is. */
  async addMember(folderId: string, userId: string, permission: TeamPermission, now: string): Promise<void> {
    await this.db
      .insertInto('team_members')
      .values({ folder_id: folderId, user_id: userId, permission, created_at: now })
      .onConflict((oc) => oc.columns(['folder_id', 'user_id']).doNothing())
      .execute();
  }

  async setPermission(folderId: string, userId: string, permission: TeamPermission): Promise<void> {
    await this.db
      .updateTable('team_members')
      .set({ permission })
      .where('folder_id', '=', folderId)
      .where('user_id', '=', userId)
      .execute();
  }

  /** Removes the members; answers those who were members. */
  async removeMembers(folderId: string, userIds: readonly string[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    const rows = await this.db
      .deleteFrom('team_members')
      .where('folder_id', '=', folderId)
      .where('user_id', 'in', userIds)
      .returning('user_id')
      .execute();
    return rows.map((row) => row.user_id);
  }

  // ---- invitations ---------------------------------------------------------------------------

  async insertInvitation(row: NewTeamInvitation): Promise<void> {
    await this.db.insertInto('team_invitations').values(row).execute();
  }

  /**
   * Sets the proof the invitation e-mail's link carries (see migration 0030) for the job that sends
   * it: false when another job claimed the e-mail first (see migration 0054).
   */
  async claimInvitationMail(id: string, jobId: string, tokenHash: string): Promise<boolean> {
    const { numUpdatedRows } = await this.db
      .updateTable('team_invitations')
      .set({ token_hash: tokenHash, mailed_by_job: jobId })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('mailed_by_job', 'is', null), eb('mailed_by_job', '=', jobId)]))
      .executeTakeFirst();
    return numUpdatedRows > 0n;
  }

  findInvitation(id: string): Promise<StoredInvitation | undefined> {
    return this.db
      .selectFrom('team_invitations')
      .innerJoin(accountCards(this.db).as('inviter'), 'inviter.id', 'team_invitations.inviter_id')
      .selectAll('team_invitations')
      .select([
        'inviter.name as inviter_name',
        'inviter.color as inviter_color',
        'inviter.avatar as inviter_avatar',
      ])
      .where('team_invitations.id', '=', id)
      .executeTakeFirst();
  }

  invitations(folderId: string): Promise<TeamInvitationRow[]> {
    return this.db
      .selectFrom('team_invitations')
      .selectAll()
      .where('folder_id', '=', folderId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
  }

  /**
   * The pending invitations still open at `now` to the owner's team folders, those offered to an
   * account (see isInvitee) and those waiting for an address, to take back what they offer when the
   * folders go (or offer it again).
   */
  openInvitationsOf(ownerId: string, now: string): Promise<TeamInvitationRow[]> {
    return this.db
      .selectFrom('team_invitations')
      .innerJoin('team_folders', 'team_folders.folder_id', 'team_invitations.folder_id')
      .selectAll('team_invitations')
      .where('team_folders.user_id', '=', ownerId)
      .where('team_invitations.status', '=', 'pending')
      .where('team_invitations.expires_at', '>', now)
      .execute();
  }

  /**
   * Locks these invitations (PostgreSQL) before their notifications are touched, in the order an
   * answer takes them (the invitation, then its notification): an answer at that moment waits.
   */
  async lockInvitations(ids: readonly string[]): Promise<void> {
    if (ids.length === 0 || this.database.dialect !== 'postgres') return;
    await this.db.selectFrom('team_invitations').select('id').where('id', 'in', ids).forUpdate().execute();
  }

  /** Makes the account the invitee of the invitations still waiting for its address (it proved it). */
  async claimWaiting(email: string, userId: string, now: string): Promise<void> {
    await this.db
      .updateTable('team_invitations')
      .set({ invitee_id: userId })
      .where('email', '=', email.toLowerCase())
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .execute();
  }

  /** Pending invitations to this address, still unanswered at `now`. */
  waitingFor(email: string, now: string): Promise<TeamInvitationRow[]> {
    return this.db
      .selectFrom('team_invitations')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .execute();
  }

  /** Answers a pending invitation still open at `now`; true only for the call that answered it. */
  async answer(
    id: string,
    status: Exclude<StoredInvitationStatus, 'pending'>,
    now: string,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('team_invitations')
      .set({ status, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * The addresses counted against the owner's team-member limit: the members of all of the owner's
   * team folders and the addresses of their pending invitations still open at `now`, each once.
   */
  async countedEmails(ownerId: string, now: string): Promise<string[]> {
    const members = await this.db
      .selectFrom('team_members')
      .innerJoin('team_folders', 'team_folders.folder_id', 'team_members.folder_id')
      .innerJoin(accountCards(this.db).as('account'), 'account.id', 'team_members.user_id')
      .select('account.email')
      .where('team_folders.user_id', '=', ownerId)
      .execute();
    const invited = await this.db
      .selectFrom('team_invitations')
      .innerJoin('team_folders', 'team_folders.folder_id', 'team_invitations.folder_id')
      .select('team_invitations.email')
      .where('team_folders.user_id', '=', ownerId)
      .where('team_invitations.status', '=', 'pending')
      .where('team_invitations.expires_at', '>', now)
      .execute();
    return [...new Set([...members, ...invited].map((row) => row.email.toLowerCase()))].sort();
  }
}
