import {
  TEAM_INVITATION_DAYS,
  TEAM_MEMBERS_UNLIMITED,
  type ConvertTeamFolderBody,
  type FolderNode,
  type CreateTeamFolderBody,
  type InvitationDocument,
  type ListQuery,
  type TeamFolderDocument,
  type TeamInvitationInput,
  type TeamFolderMeta,
  type ItemList,
  type NewNotification,
  type TeamItemList,
  type TeamPermission,
  type UpdateTeamFolderBody,
} from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { UnitOfWork } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { hashToken, randomToken } from '../../lib/tokens';
import { folderIdOf, ItemAccess, notFound, ownerActor, type Actor } from '../files/files.access';
import type { ItemReader } from '../files/files.ports';
import type { FilesService } from '../files/files.service';
import type { ItemChanges } from '../files/item-changes';
import type { I18nService } from '../i18n/i18n.service';
import type { MailRecipientQuota } from '../mail/mail-quota';
import type { MailTemplates } from '../mail/mail.templates';
import type { Mailer } from '../mail/mailer';
import type { NotificationsService } from '../notifications/notifications.service';
import type { SettingsService } from '../settings/settings.service';
import type { AccountLimitsService } from '../users/account-limits.service';
import type { UsersService } from '../users/users.service';
import type { TeamActorResolver } from './team-actors';
import { invitationStatusAt, presentInvitation, presentTeamFolderMeta } from './teams.presenter';
import type { InvitationView, TeamsRepository } from './teams.repository';
import type { NewTeamInvitation, TeamInvitationRow } from './teams.tables';

const DAY_MS = 86_400_000;

export interface TeamsDeps {
  teams: TeamsRepository;
  items: ItemReader;
  files: FilesService;
  actors: TeamActorResolver;
  users: UsersService;
  /** The owner's restrictions and member limit. */
  limits: Pick<AccountLimitsService, 'of'>;
  /** Recipients a day each account may mail with its own text. */
  mailQuota: MailRecipientQuota;
  settings: SettingsService;
  notifications: NotificationsService;
  mailer: Mailer;
  mails: MailTemplates;
  i18n: I18nService;
  /**
   * Told when people stop being members of a team folder (removed, left, or the team dissolved) or
   * may no longer write in it, so what they held there over WebDAV (their locks) ends with that.
   */
  endLocksOf: (ownerId: string, folderId: string, userIds: readonly string[]) => Promise<void>;
  /** Tells whoever sees a team folder, and whoever just stopped seeing it, that their listings changed. */
  itemChanges: Pick<ItemChanges, 'announce'>;
  /** A change of membership and what ends with it are stored together. */
  units: UnitOfWork;
  /** Queues an invitation's e-mail, so inviting many never waits for the mail server. */
  mailInvitationLater: (invitationId: string) => Promise<void>;
  appUrl: string;
  /** The clock every invitation's expiry is checked against. */
  now: () => Date;
}

/**
 * Team folders: the owner makes or converts a folder, invites people by e-mail (within the member
 * limit of the description), changes permissions, removes members and dissolves the team; invitees
 * accept or decline signed in with the invited (and, where required, verified) address; members
 * browse and change the folder through the file calls, as the actor resolver decides.
 */
export class TeamsService {
  private readonly access: ItemAccess;

  constructor(private readonly deps: TeamsDeps) {
    this.access = new ItemAccess(deps.items);
  }

  // ---- the owner's side --------------------------------------------------------------------

  async create(ownerId: string, body: z.output<typeof CreateTeamFolderBody>): Promise<TeamFolderDocument> {
    await this.assertMayCreateTeams(ownerId);
    const plan = await this.planInvitations(ownerId, null, body.invitations);
    // The folder's announcement waits for the commit, so the owner's other tabs list it as a team's;
    // its invitations and their mail jobs commit with it.
    const folder = await this.deps.units.transaction(async () => {
      const created = await this.deps.files.createFolder(ownerActor(ownerId), { name: body.name });
      await this.deps.teams.insertTeamFolder(created.id, ownerId, this.deps.now().toISOString());
      await this.sendInvitations(ownerId, created.id, plan);
      return created;
    });
    return { data: folder, meta: { teamFolder: await this.meta(folder.id, ownerId, null) } };
  }

  async convert(
    ownerId: string,
    folderRef: string,
    body: z.output<typeof ConvertTeamFolderBody>,
  ): Promise<TeamFolderDocument> {
    const folder = await this.access.reachOne(ownerActor(ownerId), folderRef, 'live', 'folder');
    await this.assertMayCreateTeams(ownerId);
    // One team per branch of the tree: a team folder inside another would split who decides.
    const chain = await this.deps.items.ancestorIds(ownerId, folder.id);
    if ((await this.deps.teams.teamFoldersAmong(chain)).size > 0)
      throw AppError.invalid('id', 'teams.already_team');
    if ((await this.deps.items.teamFoldersWithin(ownerId, [folder.id])).length > 0)
      throw AppError.invalid('id', 'teams.team_in_team');
    const plan = await this.planInvitations(ownerId, null, body.invitations);
    await this.deps.units.transaction(async () => {
      await this.deps.teams.insertTeamFolder(folder.id, ownerId, this.deps.now().toISOString());
      await this.sendInvitations(ownerId, folder.id, plan);
      await this.deps.itemChanges.announce(ownerId, [folder.id]);
    });
    return {
      data: await this.deps.files.show(ownerActor(ownerId), folder.id),
      meta: { teamFolder: await this.meta(folder.id, ownerId, null) },
    };
  }

  /** The owner's team folders (`all`), or a folder inside one of them with its team. */
  async ownerListing(ownerId: string, folderRef: string, query: ListQuery): Promise<TeamItemList> {
    const owner = ownerActor(ownerId);
    const folderId = folderIdOf(folderRef);
    if (!folderId) {
      const list = await this.deps.files.browseTeamFolders(owner, query);
      return withTeam(list, {
        teamFolder: null,
        teams: await this.metas(list.data.map((item) => [item.id, ownerId, null] as const)),
      });
    }
    const teamId = await this.teamAbove(ownerId, folderId).catch(async (error: unknown) => {
      // The owner's view of a team a member belongs to: theirs is /shared-with-me (403, as the addendum has it).
      if ((await this.deps.actors.of(ownerId, [folderId])).rootId !== null)
        throw new AppError('forbidden', 'errors.forbidden');
      throw error;
    });
    return withTeam(await this.deps.files.browseFolder(owner, folderId, query), {
      teamFolder: await this.meta(teamId, ownerId, null),
    });
  }

  async update(
    ownerId: string,
    folderRef: string,
    body: z.output<typeof UpdateTeamFolderBody>,
  ): Promise<TeamFolderDocument> {
    const folderId = await this.ownedTeam(ownerId, folderRef);
    const plan = await this.planInvitations(ownerId, folderId, body.invitations ?? []);
    await this.deps.units.transaction(async () => {
      for (const member of body.members ?? [])
        await this.deps.teams.setPermission(folderId, member.id, member.permission);
      // A viewer holds no lock: an editor made one lets go of theirs (they kept blocking everyone's saves).
      const viewers = (body.members ?? []).filter((m) => m.permission === 'can_view').map((m) => m.id);
      if (viewers.length > 0) await this.deps.endLocksOf(ownerId, folderId, viewers);
      const removed = await this.removeMembers(ownerId, folderId, body.remove_members ?? []);
      await this.sendInvitations(ownerId, folderId, plan);
      await this.deps.itemChanges.announce(ownerId, [folderId], removed);
    });
    return {
      data: await this.deps.files.show(ownerActor(ownerId), folderId),
      meta: { teamFolder: await this.meta(folderId, ownerId, null) },
    };
  }

  /** The folder stays the owner's, a plain folder again; members and invitations go. */
  async dissolve(ownerId: string, folderRef: string): Promise<void> {
    const folderId = await this.ownedTeam(ownerId, folderRef);
    const members = (await this.deps.teams.members(folderId)).map((member) => member.id);
    await this.deps.units.transaction(async () => {
      await this.withdrawInvitations(ownerId, [folderId]);
      await this.deps.teams.deleteTeamFolder(folderId);
      await this.deps.endLocksOf(ownerId, folderId, members);
      await this.deps.itemChanges.announce(ownerId, [folderId], members);
    });
  }

  // ---- the members' side -------------------------------------------------------------------

  /** Team folders of others the user belongs to (`all`), or a folder inside one of them with its team. */
  async memberListing(userId: string, folderRef: string, query: ListQuery): Promise<TeamItemList> {
    if (!folderIdOf(folderRef)) {
      const list = await this.deps.files.browseSharedWithMe(userId, query);
      const folders = await this.deps.teams.membershipsAmong(
        userId,
        list.data.map((item) => item.id),
      );
      return withTeam(list, {
        teamFolder: null,
        teams: await this.metas(folders.map((f) => [f.folder_id, f.owner_id, f.permission] as const)),
      });
    }
    const actor = await this.memberActor(userId, folderRef);
    return withTeam(await this.deps.files.browseFolder(actor, folderRef, query), {
      teamFolder: await this.meta(actor.rootId!, actor.ownerId, actor.canWrite ? 'can_edit' : 'can_view'),
    });
  }

  /** The folder tree of a team folder, for its owner or a member. */
  async tree(userId: string, folderRef: string): Promise<FolderNode[]> {
    const actor = await this.deps.actors.of(userId, [folderRef]);
    if (actor.rootId !== null) return this.deps.files.navigation(actor);
    const teamId = await this.ownedTeam(userId, folderRef);
    return this.deps.files.navigation({ ...ownerActor(userId), rootId: teamId });
  }

  async leave(userId: string, folderRef: string): Promise<void> {
    const folderId = folderIdOf(folderRef);
    const ownerId = folderId ? await this.deps.teams.teamOwner(folderId) : undefined;
    if (folderId && ownerId) {
      const left = await this.deps.units.transaction(async () => {
        const removed = await this.removeMembers(ownerId, folderId, [userId]);
        if (removed.length === 1) {
          const [member, folder] = await Promise.all([
            this.deps.users.findById(userId),
            this.deps.items.findOne(ownerId, folderId),
          ]);
          await this.deps.notifications.notify(
            ownerId,
            await this.ownerNotice('left', member!, { id: folderId, name: folder!.name }),
          );
        }
        return removed;
      });
      if (left.length === 1) return this.deps.itemChanges.announce(ownerId, [folderId], left);
    }
    // The owner cannot leave their own team (they dissolve it); anyone else was never in it.
    if (ownerId === userId) throw new AppError('forbidden', 'errors.forbidden');
    throw notFound();
  }

  // ---- invitations -------------------------------------------------------------------------

  /**
   * The invitation, for its sender or its invitee (see isInvitee); `token` is the one its e-mailed
   * link carries, if the page was opened from it.
   */
  async invitation(user: UserRow, id: string, token?: string): Promise<InvitationDocument> {
    const invitation = await this.findInvitation(id);
    if (invitation.folder_owner_id !== user.id && !(await this.isInvitee(user, invitation, token)))
      throw new AppError('forbidden', 'errors.forbidden');
    return presentInvitation(invitation, this.deps.now());
  }

  async answer(user: UserRow, id: string, accept: boolean, token?: string): Promise<void> {
    const invitation = await this.findInvitation(id).catch(async (error: unknown) => {
      // Gone, yet still offered to this user (by a notification stored before deleting an invitation
      // took its offers with it): every reload would offer it again.
      if (error instanceof AppError && error.code === 'not_found')
        await this.deps.notifications.withdrawInvitation(user.id, id);
      throw error;
    });
    if (!(await this.isInvitee(user, invitation, token))) throw new AppError('forbidden', 'errors.forbidden');
    const now = this.deps.now();
    const status = invitationStatusAt(invitation, now);
    if (status !== 'pending') {
      // A notification still offering the buttons (one sent before outcomes were kept) shows how it ended.
      await this.deps.notifications.settleInvitation(user.id, { ...invitation, outcome: status });
      throw new AppError('gone', `teams.invitation_${status}`);
    }
    const outcome = accept ? 'accepted' : 'rejected';
    const notice = await this.ownerNotice(outcome, user, {
      id: invitation.folder_id,
      name: invitation.folder_name,
    });
    await this.deps.units.transaction(async () => {
      if (!(await this.deps.teams.answer(invitation.id, outcome, now.toISOString())))
        throw new AppError('gone', 'teams.invitation_expired');
      // Read again with the invitation locked: a trash that committed since it was read above leaves
      // the invitation as if gone (one that comes later waits for this answer).
      if (!(await this.invitationView(invitation.id))) throw new AppError('not_found', 'errors.not_found');
      if (accept)
        await this.deps.teams.addMember(
          invitation.folder_id,
          user.id,
          invitation.permission,
          now.toISOString(),
        );
      await this.deps.notifications.settleInvitation(user.id, { ...invitation, outcome });
      await this.deps.notifications.notify(invitation.folder_owner_id, notice);
      // The new member's shared folders gain the team; the others' member lists and invitations change.
      await this.deps.itemChanges.announce(invitation.folder_owner_id, [invitation.folder_id]);
    });
  }

  /**
   * The account proved its address (verified it, reset its password through the e-mailed link, or
   * came from a provider that vouches for it): the invitations that waited for the address become
   * its own, and it is told of them.
   */
  async deliverWaiting(user: UserRow): Promise<void> {
    const now = this.deps.now().toISOString();
    await this.deps.teams.claimWaiting(user.email, user.id, now);
    for (const invitation of await this.deps.teams.waitingFor(user.email, now))
      if (await this.isInvitee(user, invitation)) await this.notifyInvitee(user.id, invitation.id);
  }

  /**
   * An invitation's e-mail (run by a job, retried while the mail server fails). Its link carries a
   * token that proves the address; each e-mail sent gets a fresh one (the latest works), so no
   * token is ever stored in clear, not even in a job's payload. Of two jobs queued for one invitation
   * (its folder went to the trash and came back while the first waited), the first to run sends it.
   */
  async mailInvitation(id: string, jobId: string): Promise<void> {
    const invitation = await this.invitationView(id);
    if (!invitation || invitationStatusAt(invitation, this.deps.now()) !== 'pending') return;
    const token = randomToken();
    if (!(await this.deps.teams.claimInvitationMail(invitation.id, jobId, hashToken(token)))) return;
    await this.deps.mailer.send(
      await this.deps.mails.teamInvitation(invitation.email, {
        inviter: invitation.inviter_name,
        folder: invitation.folder_name,
        link: `${this.deps.appUrl}/team-folder-invitation/${invitation.id}?${new URLSearchParams({ token })}`,
      }),
    );
  }

  /**
   * The owner's folders go for good (see FoldersDeletedListener), in its unit of work: the
   * invitations to the team folders among them go with them, and so do their offers.
   */
  async foldersDeleted(ownerId: string, folderIds: readonly string[] | null): Promise<void> {
    await this.withdrawInvitations(ownerId, folderIds);
  }

  /**
   * The owner's folders went to the trash (see FoldersTrashedListener), in its unit of work: the
   * invitations to the team folders among them cannot be answered there (as if the folder were
   * gone), so their offers are taken back until the folders return.
   */
  async foldersTrashed(ownerId: string, folderIds: readonly string[]): Promise<void> {
    await this.withdrawInvitations(ownerId, folderIds);
  }

  /**
   * The owner's folders came back from the trash, in its unit of work: the invitations to the team
   * folders among them that are still open are offered again to their invitees, and those whose
   * e-mail never went (its job ran while the folder was in the trash) are e-mailed now.
   */
  async foldersRestored(ownerId: string, folderIds: readonly string[]): Promise<void> {
    if (folderIds.length === 0) return;
    const back = new Set(folderIds);
    const invitations = await this.deps.teams.openInvitationsOf(ownerId, this.deps.now().toISOString());
    for (const invitation of invitations.filter((i) => back.has(i.folder_id))) {
      if (invitation.token_hash === null) await this.deps.mailInvitationLater(invitation.id);
      const invitee = invitation.invitee_id && (await this.deps.users.findById(invitation.invitee_id));
      if (!invitee || !(await this.isInvitee(invitee, invitation))) continue;
      // Made anew: an offer kept from before trashing a folder took them back goes first.
      await this.deps.notifications.withdrawInvitation(invitee.id, invitation.id);
      await this.notifyInvitee(invitee.id, invitation.id);
    }
  }

  // ---- shared ------------------------------------------------------------------------------

  /**
   * Before the invitations to these team folders of the owner's (null: all of them) are deleted, or
   * while the folders are in the trash: the notifications offering those still open to their
   * invitees are taken back, as answering them could only fail (404).
   */
  private async withdrawInvitations(ownerId: string, folderIds: readonly string[] | null) {
    if (folderIds?.length === 0) return;
    const going = folderIds && new Set(folderIds);
    const withdrawn = (
      await this.deps.teams.openInvitationsOf(ownerId, this.deps.now().toISOString())
    ).filter(
      (invitation): invitation is TeamInvitationRow & { invitee_id: string } =>
        invitation.invitee_id !== null && (!going || going.has(invitation.folder_id)),
    );
    // Only those that go are locked: deleting other folders for good leaves the rest free.
    await this.deps.teams.lockInvitations(withdrawn.map((invitation) => invitation.id));
    for (const invitation of withdrawn)
      await this.deps.notifications.withdrawInvitation(invitation.invitee_id, invitation.id);
  }

  /**
   * Ends these people's membership, and what they held in the folder over WebDAV; answers those who
   * were members, to be told their listings changed (they no longer see the folder).
   */
  private async removeMembers(ownerId: string, folderId: string, userIds: readonly string[]) {
    const removed = await this.deps.teams.removeMembers(folderId, userIds);
    if (removed.length > 0) await this.deps.endLocksOf(ownerId, folderId, removed);
    return removed;
  }

  private async assertMayCreateTeams(ownerId: string): Promise<void> {
    const { restrictions } = await this.deps.limits.of(ownerId);
    if (!restrictions.canCreateTeamFolder)
      throw new AppError('forbidden', restrictions.reason ?? 'errors.team_folder_disabled');
  }

  /**
   * Checks every invitation before any is sent: not the owner, at most one per address, and within
   * the description's member limit (a fixed subscription, a limit that is not -1, members and
   * invited addresses reaching it, and an address not already among them). Addresses already a
   * member or pending in this folder are left out; a refusal sends none.
   */
  private async planInvitations(
    ownerId: string,
    folderId: string | null,
    invitations: readonly TeamInvitationInput[],
  ): Promise<TeamInvitationInput[]> {
    if (invitations.length === 0) return [];
    const now = this.deps.now();
    const [owner, settings, counted, members, pending] = await Promise.all([
      this.deps.users.findById(ownerId),
      this.deps.settings.all(),
      this.deps.teams.countedEmails(ownerId, now.toISOString()),
      folderId ? this.deps.teams.members(folderId) : [],
      folderId ? this.deps.teams.invitations(folderId) : [],
    ]);
    const here = new Set([
      ...members.map((member) => member.email.toLowerCase()),
      ...pending.filter((i) => invitationStatusAt(i, now) === 'pending').map((i) => i.email),
    ]);
    const among = new Set(counted);
    const limit = (await this.deps.limits.of(ownerId)).teamMembers;
    const limited = settings.subscription_type === 'fixed' && limit !== TEAM_MEMBERS_UNLIMITED;
    const plan = new Map<string, TeamInvitationInput>();
    for (const invitation of invitations) {
      const email = invitation.email.toLowerCase();
      if (email === owner!.email.toLowerCase()) throw AppError.invalid('invitations', 'teams.invite_self');
      if (here.has(email) || plan.has(email)) continue;
      if (limited && among.size >= limit && !among.has(email))
        throw new AppError(
          'validation_failed',
          'teams.member_limit',
          { invitations: ['teams.member_limit'] },
          {
            limit,
          },
        );
      among.add(email);
      plan.set(email, { email, permission: invitation.permission });
    }
    await this.deps.mailQuota.take(ownerId, plan.size);
    return [...plan.values()];
  }

  /**
   * Stores each invitation, mails it through a job, and tells an invitee who already has an account:
   * called inside the caller's unit of work, so an invitation exists exactly when its e-mail's job does.
   */
  private async sendInvitations(ownerId: string, folderId: string, plan: readonly TeamInvitationInput[]) {
    const now = this.deps.now();
    for (const { email, permission } of plan) {
      const id = randomUUID();
      const invitee = await this.deps.users.findByEmail(email);
      const invitation = {
        id,
        folder_id: folderId,
        inviter_id: ownerId,
        email,
        permission,
        status: 'pending',
        expires_at: new Date(now.getTime() + TEAM_INVITATION_DAYS * DAY_MS).toISOString(),
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        invitee_id: invitee?.id ?? null,
        token_hash: null,
        mailed_by_job: null,
      } satisfies NewTeamInvitation;
      await this.deps.teams.insertInvitation(invitation);
      await this.deps.mailInvitationLater(id);
      if (invitee && (await this.isInvitee(invitee, invitation))) await this.notifyInvitee(invitee.id, id);
    }
  }

  /** Offers the invitation in the user's notifications; one whose folder is in the trash waits for its return. */
  private async notifyInvitee(userId: string, invitationId: string): Promise<void> {
    const invitation = await this.invitationView(invitationId);
    if (!invitation) return;
    const vars = { inviter: invitation.inviter_name, folder: invitation.folder_name };
    await this.deps.notifications.notify(userId, {
      category: 'team-invitation',
      title: await this.deps.i18n.translate('notifications.team_invitation.title', vars),
      description: await this.deps.i18n.translate('notifications.team_invitation.description', vars),
      action: {
        type: 'invitation',
        params: { id: invitationId, folder_id: invitation.folder_id, expires_at: invitation.expires_at },
      },
    });
  }

  /** What the owner is told when someone joins, declines or leaves their team folder; it opens the folder. */
  private async ownerNotice(
    event: 'accepted' | 'rejected' | 'left',
    person: UserRow,
    folder: { id: string; name: string },
  ): Promise<NewNotification> {
    const vars = { name: person.name, email: person.email, folder: folder.name };
    const translate = (key: string) => this.deps.i18n.translate(key, vars);
    return {
      category: 'team-invitation',
      title: await translate(`notifications.team_${event}.title`),
      description: await translate(`notifications.team_${event}.description`),
      action: {
        type: 'route',
        params: { route: 'TeamFolders', id: folder.id, button: await translate('notifications.open_folder') },
      },
    };
  }

  /**
   * Whether the account may see and answer the invitation: it has the invited address, and the
   * address is proven — by the token of the invitation's e-mailed link, by a verified address where
   * the instance verifies addresses, or else by being the invitation's account: the one that had the
   * address when it was sent, or proved it since (see deliverWaiting). Without verification anyone
   * may register any address, so registering is no proof: whoever registers an invited address
   * first does not get the invitation.
   */
  private async isInvitee(
    user: UserRow,
    invitation: Pick<TeamInvitationRow, 'email' | 'invitee_id' | 'token_hash'>,
    token?: string,
  ): Promise<boolean> {
    if (user.email.toLowerCase() !== invitation.email) return false;
    if (token && invitation.token_hash !== null && hashToken(token) === invitation.token_hash) return true;
    if (await this.deps.settings.get('email_verification')) return user.email_verified_at !== null;
    return invitation.invitee_id === user.id;
  }

  private async findInvitation(id: string): Promise<InvitationView> {
    const invitation = folderIdOf(id) ? await this.invitationView(id) : undefined;
    if (!invitation) throw notFound();
    return invitation;
  }

  /**
   * The invitation with its folder's name and owner; undefined when either is gone, or while the
   * folder is in the trash (it cannot be joined there; restored, it is offered again).
   */
  private async invitationView(id: string): Promise<InvitationView | undefined> {
    const invitation = await this.deps.teams.findInvitation(id);
    const folder = invitation && (await this.deps.items.findAny(invitation.folder_id));
    if (!folder || folder.deleted_at !== null) return undefined;
    return { ...invitation, folder_name: folder.name, folder_owner_id: folder.user_id };
  }

  /** A team folder of the owner's; a member asking is refused (403), anyone else told it does not exist. */
  private async ownedTeam(ownerId: string, folderRef: string): Promise<string> {
    const folderId = folderIdOf(folderRef);
    const owner = folderId ? await this.deps.teams.teamOwner(folderId) : undefined;
    if (owner === ownerId) {
      await this.access.reachOne(ownerActor(ownerId), folderId!, 'live', 'folder');
      return folderId!;
    }
    if (owner && (await this.deps.teams.membershipsAmong(ownerId, [folderId!])).length > 0)
      throw new AppError('forbidden', 'errors.forbidden');
    throw notFound();
  }

  /** The nearest team folder above (or at) one of the owner's folders; 404 outside every team. */
  private async teamAbove(ownerId: string, folderId: string): Promise<string> {
    await this.access.reachOne(ownerActor(ownerId), folderId, 'live', 'folder');
    const chain = await this.deps.items.ancestorIds(ownerId, folderId);
    const teams = await this.deps.teams.teamFoldersAmong(chain);
    const teamId = chain.find((id) => teams.has(id));
    if (!teamId) throw notFound();
    return teamId;
  }

  /** The member's actor for a folder of someone else's team; 404 for anyone who is not a member. */
  private async memberActor(userId: string, folderRef: string): Promise<Actor> {
    const actor = await this.deps.actors.of(userId, [folderRef]);
    if (actor.rootId === null) throw notFound();
    return actor;
  }

  /** The teams of a list's folders, each as `meta` gives it, by folder id. */
  private async metas(
    folders: readonly (readonly [folderId: string, ownerId: string, permission: TeamPermission | null])[],
  ): Promise<Record<string, TeamFolderMeta>> {
    const metas = await Promise.all(
      folders.map(
        async ([folderId, ownerId, permission]) =>
          [folderId, await this.meta(folderId, ownerId, permission)] as const,
      ),
    );
    return Object.fromEntries(metas);
  }

  /** `meta.teamFolder` as `viewer` sees it: the owner (permission null) sees the invitations too. */
  private async meta(folderId: string, ownerId: string, permission: TeamPermission | null) {
    const [folder, owner, members, invitations] = await Promise.all([
      this.deps.items.findOne(ownerId, folderId),
      this.deps.users.findById(ownerId),
      this.deps.teams.members(folderId),
      permission === null ? this.deps.teams.invitations(folderId) : [],
    ]);
    return presentTeamFolderMeta({
      folder: { id: folderId, name: folder!.name },
      owner: { id: ownerId, name: owner!.name, avatar: owner!.avatar, color: owner!.color },
      permission,
      members,
      invitations,
      now: this.deps.now(),
    });
  }
}

/** A listing with its team part: `teamFolder` inside a team, the listed folders' `teams` at the top. */
function withTeam(list: ItemList, team: Pick<TeamItemList['meta'], 'teamFolder' | 'teams'>): TeamItemList {
  return { ...list, meta: { ...list.meta, ...team } };
}
