import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Database } from './db/database';
import type { Env } from './env';
import { createJobQueue } from './jobs/create-job-queue';
import { Scheduler } from './jobs/scheduler';
import { ErrorLog } from './lib/error-log';
import { AvatarService } from './modules/account/avatar.service';
import { TwoFactorRepository } from './modules/account/two-factor.repository';
import { TwoFactorService } from './modules/account/two-factor.service';
import { AppPasswordsRepository } from './modules/app-passwords/app-passwords.repository';
import { AppPasswordsService } from './modules/app-passwords/app-passwords.service';
import { passwordResetMailJob } from './modules/auth/auth.jobs';
import { AuthService } from './modules/auth/auth.service';
import { DevicesRepository } from './modules/devices/devices.repository';
import { DevicesService } from './modules/devices/devices.service';
import { LoginThrottle, MemoryAttemptCounter, RedisAttemptCounter } from './modules/auth/login-throttle';
import { SessionsRepository } from './modules/auth/sessions.repository';
import { SignInChallengesRepository } from './modules/auth/sign-in-challenges.repository';
import { SignInChallengesService } from './modules/auth/sign-in-challenges.service';
import { SignInDevicesRepository } from './modules/auth/sign-in-devices.repository';
import { SessionsService } from './modules/auth/sessions.service';
import { UserTokensRepository } from './modules/auth/user-tokens.repository';
import { ChangeBus } from './lib/change-bus';
import { I18nService } from './modules/i18n/i18n.service';
import { LanguagesService } from './modules/i18n/languages.service';
import { TranslationsRepository } from './modules/i18n/translations.repository';
import { NotificationsRepository } from './modules/notifications/notifications.repository';
import { NotificationsService } from './modules/notifications/notifications.service';
import { MailTemplates } from './modules/mail/mail.templates';
import { MailRecipientQuota, MemoryAmountCounter, RedisAmountCounter } from './modules/mail/mail-quota';
import { Mailer } from './modules/mail/mailer';
import { PagesRepository } from './modules/pages/pages.repository';
import { PagesService } from './modules/pages/pages.service';
import { AdminSettingsService } from './modules/settings/admin-settings.service';
import { ServerStatusService } from './modules/settings/server-status.service';
import { SettingsImagesService } from './modules/settings/settings-images.service';
import { SettingsRepository } from './modules/settings/settings.repository';
import { SettingsService } from './modules/settings/settings.service';
import { SocialProviderClient } from './modules/social-sign-in/social-provider.client';
import { SocialSignInRepository } from './modules/social-sign-in/social-sign-in.repository';
import { SocialSignInService } from './modules/social-sign-in/social-sign-in.service';
import { SetupTokensRepository } from './modules/setup/setup-tokens.repository';
import { SetupService } from './modules/setup/setup.service';
import { UsersRepository } from './modules/users/users.repository';
import { UsersAdminRepository } from './modules/users/users-admin.repository';
import { AccountLimitsService } from './modules/users/account-limits.service';
import { normalizedEmail, UsersService } from './modules/users/users.service';
import { createFilesServices } from './modules/files/files.module';
import { StorageUsageRepository } from './modules/files/storage-usage.repository';
import { createProjectsServices } from './modules/projects/projects.module';
import { createSharingServices } from './modules/sharing/sharing.module';
import { SharingRepository } from './modules/sharing/sharing.repository';
import { createTeamsServices } from './modules/teams/teams.module';
import { TeamActorResolver } from './modules/teams/team-actors';
import { TeamsRepository } from './modules/teams/teams.repository';
import { createUploadRequestServices } from './modules/upload-requests/upload-requests.module';
import { RealtimeServer } from './realtime/realtime.server';
import { WebdavRepository } from './modules/webdav/webdav.repository';
import { WebdavService } from './modules/webdav/webdav.service';
import { ChunkedUploadsRepository } from './modules/webdav/webdav.chunked-uploads.repository';
import { ChunkedUploadsService } from './modules/webdav/webdav.chunked-uploads.service';
import { DavTrashbinService } from './modules/webdav/dav-trashbin.service';
import { DavVersionsService } from './modules/webdav/dav-versions.service';
import { DavPreviewsService } from './modules/webdav/dav-previews.service';
import { SyncClientsService } from './modules/sync-clients/sync-clients.service';
import { LoginFlowsRepository } from './modules/sync-clients/login-flows.repository';
import { LoginFlowsService } from './modules/sync-clients/login-flows.service';
import { OcsSharesService } from './modules/sync-clients/ocs-shares.service';
import { createAdminServices } from './modules/admin/admin.module';
import { createBillingServices, paymentProvidersFor } from './modules/billing/billing.module';
import type { PaymentProvider } from './modules/billing/payment-provider';
import { BandwidthCounter } from './modules/billing/bandwidth-counter';

export interface ServiceOptions {
  env: Env;
  database: Database;
  /** True when DATABASE_URL fixes the database, so the setup wizard may not switch it. */
  databasePinned: boolean;
  /** The clock expiries are checked against (tests move it); the system clock by default. */
  clock?: () => Date;
  /** Milliseconds elapsed in the process, for caches' ages (the settings'); tests may hold it still. */
  elapsedMs?: () => number;
  /** Instead of the environment's providers: tests hand in ones wired to their local peers. */
  paymentProviders?: PaymentProvider[];
}

/** Wires repositories into services once; routes reach them through `app.deps`. */
export function createServices(
  { env, database, databasePinned, clock = () => new Date(), elapsedMs, paymentProviders }: ServiceOptions,
  logger: Logger,
) {
  database.onAfterCommitError = (error) => logger.error({ err: error }, 'a task after a commit failed');
  const redis = env.REDIS_URL
    ? new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2, connectTimeout: 2_000 })
    : null;
  // ioredis reconnects by itself; without a listener each failed attempt would be an unhandled 'error'.
  redis?.on('error', (error: Error) => logger.warn({ err: error }, 'redis connection error'));
  const settings = new SettingsService(new SettingsRepository(database, clock), database, clock, elapsedMs);
  const changes = new ChangeBus(env.REDIS_URL, env.REDIS_PREFIX, logger);
  settings.connect(changes);
  const translations = new TranslationsRepository(database);
  const usersRepository = new UsersRepository(database, clock);
  const i18n = new I18nService(
    translations,
    settings,
    changes,
    async (userId) => (await usersRepository.findSettings(userId))?.locale ?? null,
  );
  const mailer = new Mailer(env, settings, logger);
  const mails = new MailTemplates(i18n, settings, env.appUrl);
  const mailQuota = new MailRecipientQuota(
    redis
      ? new RedisAmountCounter(redis, `${env.REDIS_PREFIX}:mail-recipients:`)
      : new MemoryAmountCounter(() => clock().getTime()),
    env.MAIL_RECIPIENTS_PER_DAY,
    clock,
  );
  const storageUsage = new StorageUsageRepository(database);
  const teamsRepository = new TeamsRepository(database);
  const realtime = new RealtimeServer({
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    settings,
    appUrl: env.appUrl,
    logger,
  });
  const notifications = new NotificationsService(
    new NotificationsRepository(database),
    realtime,
    clock,
    database,
  );
  const jobs = createJobQueue(env, database);
  const bandwidth = new BandwidthCounter(database, settings, clock, logger);
  const billingModule = createBillingServices({
    database,
    settings,
    users: usersRepository,
    notifications,
    i18n,
    realtime,
    jobs,
    providers:
      paymentProviders ??
      paymentProvidersFor(
        env,
        clock,
        async (email) => (await usersRepository.findByEmail(normalizedEmail(email)))?.id ?? null,
      ),
    usage: {
      storageBytes: (userId) => storageUsage.usedBytes(userId),
      members: async (userId) => (await teamsRepository.countedEmails(userId, clock().toISOString())).length,
    },
    appUrl: env.appUrl,
    logger,
    now: clock,
  });
  // The files module's quota and restrictions: the account's row, billing's terms and storage_usage.
  const limits = new AccountLimitsService({
    users: usersRepository,
    settings,
    i18n,
    billing: billingModule.subscriptionsService,
    usedBytes: (userId) => storageUsage.usedBytes(userId),
  });
  const users = new UsersService(usersRepository, settings, i18n, clock, {
    limits,
    billing: billingModule.subscriptionsService,
    notifications: (userId) => notifications.forUserResource(userId),
    teamEmails: (userId) => teamsRepository.countedEmails(userId, clock().toISOString()),
    // Metered billing subscribes every new account; one it misses is subscribed by the daily run.
    // Its own savepoint where the account is made in a unit of work (setup, social sign-in), so a
    // failure here is undone alone and leaves that unit usable.
    accountCreated: async (user) => {
      await database
        .transaction(() => billingModule.metered.subscribe(user.id))
        .catch((error: unknown) => {
          logger.warn({ err: error, userId: user.id }, 'metered subscription at registration failed');
        });
    },
  });
  const { fileEvents, ...filesModule } = createFilesServices({
    env,
    now: clock,
    settings,
    limits,
    jobs,
    database,
    realtime,
    watchers: teamsRepository,
    shareLinks: new SharingRepository(database),
    teamFolders: teamsRepository,
    authors: usersRepository,
    accounts: usersRepository,
    notifications,
    i18n,
    logger,
    countTransfer: (userId, bytes) => bandwidth.count(userId, bytes),
  });
  const { items } = filesModule;
  // Who may act on whose items (team members in team folders): the files routes and WebDAV ask it.
  const actors = new TeamActorResolver(items, teamsRepository);
  const webdav = new WebdavService({
    dav: new WebdavRepository(database, items),
    ...filesModule,
    actors,
    now: clock,
  });
  // Nextcloud's trash bin and versions over WebDAV, through the files module's services.
  const davTrashbin = new DavTrashbinService({ ...filesModule, actors });
  const davVersions = new DavVersionsService({ ...filesModule, actors });
  const davPreviews = new DavPreviewsService({ ...filesModule, actors, webdav });
  // The sync clients' chunked and bulk uploads write each file as a WebDAV PUT does.
  const chunkedUploads = new ChunkedUploadsService({
    repository: new ChunkedUploadsRepository(database),
    ...filesModule,
    actors,
    targets: webdav,
    now: clock,
  });
  const teamsModule = createTeamsServices({
    teamsRepository,
    actors,
    endLocksOf: (ownerId, folderId, userIds) => webdav.endLocksOf(ownerId, folderId, userIds),
    items,
    mailQuota,
    files: filesModule.files,
    itemChanges: filesModule.itemChanges,
    units: database,
    users,
    limits,
    settings,
    notifications,
    mailer,
    mails,
    i18n,
    jobs,
    appUrl: env.appUrl,
    now: clock,
  });
  // A team folder deleted for good takes its invitations' offers out of the invitees' notifications;
  // one in the trash hides them until it is restored.
  fileEvents.onFoldersDeleted(teamsModule.teams);
  fileEvents.onFoldersTrashed(teamsModule.teams);
  const sessions = new SessionsService(
    new SessionsRepository(database),
    env.SESSION_TTL_DAYS,
    clock,
    realtime,
    database,
  );
  const throttle = new LoginThrottle(
    redis
      ? new RedisAttemptCounter(redis, `${env.REDIS_PREFIX}:login-attempts:`)
      : new MemoryAttemptCounter(() => clock().getTime()),
  );
  const appPasswords = new AppPasswordsService({
    appPasswords: new AppPasswordsRepository(database),
    throttle,
    now: clock,
  });
  const loginFlows = new LoginFlowsService({
    flows: new LoginFlowsRepository(database),
    appPasswords,
    users,
    units: database,
    appUrl: env.appUrl,
    now: clock,
  });
  const signInChallengesRepository = new SignInChallengesRepository(database);
  const auth = new AuthService({
    env,
    users,
    sessions,
    units: database,
    challenges: signInChallengesRepository,
    settings,
    passwordResets: new UserTokensRepository(database, 'password_resets', clock),
    emailVerifications: new UserTokensRepository(database, 'email_verifications', clock),
    mailer,
    mails,
    throttle,
    devices: new SignInDevicesRepository(database),
    now: clock,
    mailPasswordResetLater: async (email) => {
      await jobs.enqueue(passwordResetMailJob, { email });
    },
    // Team invitations that waited for the address reach the account once it is known to be theirs.
    onAccountReady: (user) => teamsModule.teams.deliverWaiting(user),
    endAppAccess: async (userId) => {
      await appPasswords.revokeAll(userId);
      await loginFlows.forgetGrantsTo(userId);
    },
  });
  const twoFactor = new TwoFactorService({
    repository: new TwoFactorRepository(database),
    users,
    challenges: signInChallengesRepository,
    units: database,
    confirmPassword: (user, password, client) => auth.confirmPassword(user, password, client, 'password'),
    issuer: () => settings.get('app_title'),
    now: clock,
  });
  const signInChallenges = new SignInChallengesService({
    repository: signInChallengesRepository,
    twoFactor,
    users,
    throttle,
    now: clock,
  });
  const devices = new DevicesService({
    devices: new DevicesRepository(database),
    disconnectSession: (sessionIdHash) => realtime.disconnectStoredSession(sessionIdHash),
    now: clock,
  });
  const syncClients = new SyncClientsService({ settings, limits, appUrl: env.appUrl });
  const pages = new PagesService(new PagesRepository(database), settings, mailer, mails, clock);
  const languages = new LanguagesService({
    repository: translations,
    settings,
    changes,
    realtime,
    now: clock,
  });
  const setup = new SetupService({
    env,
    database,
    databasePinned,
    settings,
    i18n,
    users,
    tokens: new SetupTokensRepository(database, clock),
    redis,
    now: clock,
  });

  const socialSignIn = new SocialSignInService({
    repository: new SocialSignInRepository(database),
    client: new SocialProviderClient(),
    settings,
    users,
    units: database,
    appUrl: env.appUrl,
    now: clock,
    onAccountReady: (user) => teamsModule.teams.deliverWaiting(user),
  });

  /** The periodic tasks of the worker role; `startWorkerRole` starts it. */
  const scheduler = new Scheduler({ database, now: clock, logger });
  const avatars = new AvatarService({
    users: usersRepository,
    storage: filesModule.storage,
    uploads: filesModule.uploads,
    purges: filesModule.storagePurges,
    units: database,
  });
  const errorLog = new ErrorLog(clock);
  const settingsImages = new SettingsImagesService({
    settings,
    storage: filesModule.storage,
    uploads: filesModule.uploads,
    purges: filesModule.storagePurges,
  });
  const adminSettings = new AdminSettingsService({
    settings,
    images: settingsImages,
    units: database,
    locales: () => translations.locales(),
    dataDir: env.dataDir,
    redis,
    holdsObjects: async () =>
      (await filesModule.items.holdsAnyObject()) ||
      (await chunkedUploads.holdsAnyChunk()) ||
      (await avatars.holdsAny()) ||
      (await settingsImages.holdsAny()),
    onSaved: (changed) => billingModule.planRegistration.afterSettingsSaved(changed),
  });
  const serverStatus = new ServerStatusService({
    dataDir: env.dataDir,
    database,
    storage: filesModule.storage,
    jobs,
    errorLog,
  });
  const projectsModule = createProjectsServices({
    database,
    users,
    actors,
    jobs,
    realtime,
    notifications,
    i18n,
    logger,
    ...filesModule,
    now: clock,
  });
  // A project set to re-render when its model changes queues the render in the change's unit of work.
  fileEvents.onBytesReplaced({
    bytesReplaced: (file) => projectsModule.projects.modelReplaced(file),
  });
  const sharingModule = createSharingServices({
    database,
    items,
    mailQuota,
    users,
    mailer,
    mails,
    notifications,
    i18n,
    projectFolders: projectsModule.productPages,
    actors,
    redis,
    redisPrefix: env.REDIS_PREFIX,
    appUrl: env.appUrl,
    now: clock,
  });
  // The sync clients' share menus, through the sharing module's own rules.
  const ocsShares = new OcsSharesService({ sharing: sharingModule.sharing, items });
  const uploadRequestsModule = createUploadRequestServices({
    database,
    items,
    mailQuota,
    files: filesModule.files,
    uploads: filesModule.uploads,
    users,
    notifications,
    mailer,
    mails,
    i18n,
    jobs,
    actors,
    appUrl: env.appUrl,
    now: clock,
  });

  const adminModule = createAdminServices({
    database,
    users,
    accounts: new UsersAdminRepository(database, items),
    items,
    files: filesModule.files,
    avatars,
    chunkedUploads,
    settings,
    sessions,
    auth,
    realtime,
    jobs,
    redis,
    storage: filesModule.storage,
    mailer,
    revenue: billingModule.transactionsService,
    subscriptionOf: (userId) => billingModule.subscriptionsService.summary(userId),
    stopRenewing: (userId) => billingModule.subscriptionsService.stopRenewingFor(userId),
    planStorage: (userIds) => billingModule.subscriptionsService.planStorage(userIds),
    now: clock,
  });

  return {
    env,
    /** The app's time: every rule about when (expiry, schedules, stamps) reads it. */
    clock,
    database,
    databasePinned,
    logger,
    redis,
    settings,
    changes,
    i18n,
    languages,
    mailer,
    users,
    sessions,
    auth,
    avatars,
    socialSignIn,
    twoFactor,
    signInChallenges,
    errorLog,
    settingsImages,
    adminSettings,
    serverStatus,
    appPasswords,
    devices,
    pages,
    setup,
    realtime,
    notifications,
    jobs,
    scheduler,
    ...filesModule,
    ...projectsModule,
    ...sharingModule,
    ...uploadRequestsModule,
    actors,
    ...teamsModule,
    webdav,
    chunkedUploads,
    davTrashbin,
    davVersions,
    davPreviews,
    syncClients,
    loginFlows,
    ocsShares,
    ...adminModule,
    ...billingModule,
  };
}

export type AppDeps = ReturnType<typeof createServices>;

export async function closeServices(deps: AppDeps): Promise<void> {
  deps.mailer.close();
  await deps.scheduler.stop();
  await deps.jobs.close();
  await deps.storage.close();
  await deps.realtime.close();
  await deps.changes.close();
  deps.redis?.disconnect();
  await deps.database.destroy();
}
