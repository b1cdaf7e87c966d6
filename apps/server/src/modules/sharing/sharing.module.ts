import type { Redis } from 'ioredis';
import type { Database } from '../../db/database';
import { MemoryAttemptCounter, RedisAttemptCounter } from '../auth/login-throttle';
import type { ActorResolver } from '../files/files.access';
import type { ItemReader } from '../files/files.ports';
import type { I18nService } from '../i18n/i18n.service';
import type { MailTemplates } from '../mail/mail.templates';
import type { Mailer } from '../mail/mailer';
import type { NotificationsService } from '../notifications/notifications.service';
import type { UsersService } from '../users/users.service';
import type { MailRecipientQuota } from '../mail/mail-quota';
import { SharePasswordThrottle } from './share-password-throttle';
import { shareHousekeepingJob } from './sharing.jobs';
import { SharingRepository } from './sharing.repository';
import { SharingService, type ProjectFolders } from './sharing.service';

export interface SharingModuleDeps {
  database: Database;
  items: ItemReader;
  /** Recipients a day each account may mail with its own text. */
  mailQuota: MailRecipientQuota;
  users: UsersService;
  mailer: Mailer;
  mails: MailTemplates;
  notifications: NotificationsService;
  i18n: I18nService;
  projectFolders: ProjectFolders;
  actors: ActorResolver;
  redis: Redis | null;
  /** The instance's REDIS_PREFIX, under which its counters live in Redis. */
  redisPrefix: string;
  appUrl: string;
  now: () => Date;
}

/** The sharing service, wired once; services.ts spreads it into the app's dependencies. */
export function createSharingServices({ database, redis, redisPrefix, now, ...deps }: SharingModuleDeps) {
  // Counted in Redis when several API nodes share the load, so a guesser cannot spread over them.
  const counter = redis
    ? new RedisAttemptCounter(redis, `${redisPrefix}:share-password-attempts:`)
    : new MemoryAttemptCounter(() => now().getTime());
  const sharing = new SharingService({
    ...deps,
    shares: new SharingRepository(database),
    throttle: new SharePasswordThrottle(counter),
    units: database,
    now,
  });
  return { sharing };
}

/** The background jobs of the sharing module, for the worker's list. */
export const sharingJobDefinitions = [shareHousekeepingJob];
