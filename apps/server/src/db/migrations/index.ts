import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import * as foundation from './0001-foundation';
import * as jobs from './0003-jobs';
import * as files from './0004-files';
import * as notifications from './0005-notifications';
import * as projects from './0008-projects';
import * as listingVersions from './0009-listing-versions';
import * as storageUsage from './0010-storage-usage';
import * as shares from './0011-shares';
import * as filedUploads from './0012-filed-uploads';
import * as uploadRequests from './0013-upload-requests';
import * as teams from './0014-teams';
import * as avatars from './0015-avatars';
import * as twoFactor from './0016-two-factor';
import * as socialAccounts from './0017-social-accounts';
import * as devicesAppPasswords from './0018-devices-app-passwords';
import * as adminUsers from './0019-admin-users';
import * as languageOverrides from './0020-language-overrides';
import * as webdav from './0022-webdav';
import * as plans from './0023-plans';
import * as userLocale from './0024-user-locale';
import * as subscriptions from './0025-subscriptions';
import * as meteredBilling from './0026-metered-billing';
import * as checkouts from './0027-checkouts';
import * as davPropertyUsage from './0028-dav-property-usage';
import * as signInDevices from './0029-sign-in-devices';
import * as invitationTokens from './0030-invitation-tokens';
import * as scheduledTasks from './0031-scheduled-tasks';
import * as jobOutbox from './0032-job-outbox';
import * as revokedShares from './0033-revoked-shares';
import * as renderStarted from './0034-render-started';
import * as fileVersions from './0035-file-versions';
import * as folderCounts from './0036-folder-counts';
import * as projectCovers from './0037-project-covers';
import * as blockStore from './0038-block-store';
import * as outputModelVersions from './0039-output-model-versions';
import * as blockCompression from './0040-block-compression';
import * as davChunkedUploads from './0041-dav-chunked-uploads';
import * as loginFlows from './0042-login-flows';
import * as renderVariants from './0043-render-variants';
import * as davSyncState from './0044-dav-sync-state';
import * as thumbnailRequests from './0046-thumbnail-requests';
import * as versionUsage from './0048-version-usage';
import * as shopPacks from './0049-shop-packs';
import * as versionUsagePurges from './0050-version-usage-purges';
import * as versionUsageNewFiles from './0051-version-usage-new-files';
import * as checkoutUse from './0052-checkout-use';
import * as outsiderNames from './0053-outsider-names';
import * as invitationMailJobs from './0054-invitation-mail-jobs';

export interface MigrationModule {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/**
 * Every migration, in order. To add one: create `NNNN-name.ts` exporting `up(db, dialect)` and
 * append one line here. Names are recorded in the database, so never rename or reorder entries.
 */
export const migrations: ReadonlyArray<readonly [name: string, migration: MigrationModule]> = [
  ['0001-foundation', foundation],
  ['0003-jobs', jobs],
  ['0004-files', files],
  ['0005-notifications', notifications],
  ['0008-projects', projects],
  ['0009-listing-versions', listingVersions],
  ['0010-storage-usage', storageUsage],
  ['0011-shares', shares],
  ['0012-filed-uploads', filedUploads],
  ['0013-upload-requests', uploadRequests],
  ['0014-teams', teams],
  ['0015-avatars', avatars],
  ['0016-two-factor', twoFactor],
  ['0017-social-accounts', socialAccounts],
  ['0018-devices-app-passwords', devicesAppPasswords],
  ['0019-admin-users', adminUsers],
  ['0020-language-overrides', languageOverrides],
  ['0022-webdav', webdav],
  ['0023-plans', plans],
  ['0024-user-locale', userLocale],
  ['0025-subscriptions', subscriptions],
  ['0026-metered-billing', meteredBilling],
  ['0027-checkouts', checkouts],
  ['0028-dav-property-usage', davPropertyUsage],
  ['0029-sign-in-devices', signInDevices],
  ['0030-invitation-tokens', invitationTokens],
  ['0031-scheduled-tasks', scheduledTasks],
  ['0032-job-outbox', jobOutbox],
  ['0033-revoked-shares', revokedShares],
  ['0034-render-started', renderStarted],
  ['0035-file-versions', fileVersions],
  ['0036-folder-counts', folderCounts],
  ['0037-project-covers', projectCovers],
  ['0038-block-store', blockStore],
  ['0039-output-model-versions', outputModelVersions],
  ['0040-block-compression', blockCompression],
  ['0041-dav-chunked-uploads', davChunkedUploads],
  ['0042-login-flows', loginFlows],
  ['0043-render-variants', renderVariants],
  ['0044-dav-sync-state', davSyncState],
  ['0046-thumbnail-requests', thumbnailRequests],
  ['0048-version-usage', versionUsage],
  ['0049-shop-packs', shopPacks],
  ['0050-version-usage-purges', versionUsagePurges],
  ['0051-version-usage-new-files', versionUsageNewFiles],
  ['0052-checkout-use', checkoutUse],
  ['0053-outsider-names', outsiderNames],
  ['0054-invitation-mail-jobs', invitationMailJobs],
];
