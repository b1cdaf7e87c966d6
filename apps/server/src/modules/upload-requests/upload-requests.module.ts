import type { Database } from '../../db/database';
import type { JobQueue } from '../../jobs/job-queue';
import type { ActorResolver } from '../files/files.access';
import type { ItemReader } from '../files/files.ports';
import type { FilesService } from '../files/files.service';
import type { UploadService } from '../files/upload.service';
import type { I18nService } from '../i18n/i18n.service';
import type { MailRecipientQuota } from '../mail/mail-quota';
import type { MailTemplates } from '../mail/mail.templates';
import type { Mailer } from '../mail/mailer';
import type { NotificationsService } from '../notifications/notifications.service';
import type { UsersService } from '../users/users.service';
import { uploadRequestLinkMailJob, uploadRequestMailJob } from './upload-requests.jobs';
import { UploadRequestsRepository } from './upload-requests.repository';
import { UploadRequestsService } from './upload-requests.service';

export interface UploadRequestsModuleDeps {
  database: Database;
  items: ItemReader;
  files: FilesService;
  uploads: Pick<UploadService, 'receive' | 'abandonAllOf'>;
  users: UsersService;
  /** Recipients a day each account may mail with its own text. */
  mailQuota: MailRecipientQuota;
  notifications: NotificationsService;
  mailer: Mailer;
  mails: MailTemplates;
  i18n: I18nService;
  jobs: JobQueue;
  actors: ActorResolver;
  appUrl: string;
  now: () => Date;
}

/** The upload requests service, wired once; services.ts spreads it into the app's dependencies. */
export function createUploadRequestServices({ database, jobs, ...deps }: UploadRequestsModuleDeps) {
  const uploadRequests = new UploadRequestsService({
    ...deps,
    requests: new UploadRequestsRepository(database, deps.items),
    units: database,
    mailOwnerLater: async (requestId, event) => {
      await jobs.enqueue(uploadRequestMailJob, { request_id: requestId, event });
    },
    mailLinkLater: async (requestId) => {
      await jobs.enqueue(uploadRequestLinkMailJob, { request_id: requestId });
    },
  });
  return { uploadRequests };
}

/** The background jobs of the upload requests module, for the worker's list. */
export const uploadRequestJobDefinitions = [uploadRequestMailJob, uploadRequestLinkMailJob];
