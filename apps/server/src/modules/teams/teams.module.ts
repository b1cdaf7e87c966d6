import type { UnitOfWork } from '../../db/database';
import type { JobQueue } from '../../jobs/job-queue';
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
import { teamInvitationMailJob } from './teams.jobs';
import type { TeamsRepository } from './teams.repository';
import { TeamsService } from './teams.service';

export interface TeamsModuleDeps {
  teamsRepository: TeamsRepository;
  /** Who may act on whose items; the teams service checks a member's folder through it. */
  actors: TeamActorResolver;
  items: ItemReader;
  files: FilesService;
  /** Membership changes are announced to the listings of everyone they concern. */
  itemChanges: Pick<ItemChanges, 'announce'>;
  units: UnitOfWork;
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
  jobs: JobQueue;
  appUrl: string;
  now: () => Date;
  /** What else ends with a membership, or with the right to write: the WebDAV locks taken in the folder. */
  endLocksOf: (ownerId: string, folderId: string, userIds: readonly string[]) => Promise<void>;
}

/** The teams service; services.ts spreads it in. */
export function createTeamsServices({ teamsRepository, jobs, ...deps }: TeamsModuleDeps) {
  const teams = new TeamsService({
    ...deps,
    teams: teamsRepository,
    mailInvitationLater: async (invitationId) => {
      await jobs.enqueue(teamInvitationMailJob, { invitation_id: invitationId });
    },
  });
  return { teams };
}

/** The background jobs of the teams module, for the worker's list. */
export const teamsJobDefinitions = [teamInvitationMailJob];
