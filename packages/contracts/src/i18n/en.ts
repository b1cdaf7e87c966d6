import { enAccount } from './en-account';
import { enAccountServer } from './en-account-server';
import { enAdmin } from './en-admin';
import { enAdminLanguage } from './en-admin-language';
import { enAdminSettings } from './en-admin-settings';
import { enBilling } from './en-billing';
import { enBillingWeb } from './en-billing-web';
import { enMeteredServer } from './en-metered-server';
import { enDevices } from './en-devices';
import { enAdminUsers } from './en-admin-users';
import { enFiles } from './en-files';
import { enFilesServer } from './en-files-server';
import { enInvoicesServer } from './en-invoices-server';
import { enMail } from './en-mail';
import { enProductPage } from './en-product-page';
import { enProjects } from './en-projects';
import { enRemoteUpload } from './en-remote-upload';
import { enServer } from './en-server';
import { enSharing } from './en-sharing';
import { enSharingServer } from './en-sharing-server';
import { enShopPacks } from './en-shop-packs';
import { enSocial } from './en-social';
import { enSyncClients } from './en-sync-clients';
import { enUploadRequests } from './en-upload-requests';
import { enTeams } from './en-teams';
import { enTeamsServer } from './en-teams-server';
import { enBillingServer } from './en-billing-server';
import { enTwoFactor } from './en-two-factor';
import { enUploadRequestsServer } from './en-upload-requests-server';
import { enVersions } from './en-versions';
import { enWeb } from './en-web';

/** Default English strings, flat dotted keys; the server seeds the translations table from them. */
export const en: Record<string, string> = {
  ...enWeb,
  ...enFiles,
  ...enFilesServer,
  ...enProjects,
  ...enProductPage,
  ...enServer,
  ...enMail,
  ...enAdmin,
  ...enAdminLanguage,
  ...enAdminSettings,
  ...enAdminUsers,
  ...enBilling,
  ...enBillingWeb,
  ...enMeteredServer,
  ...enSharing,
  ...enSharingServer,
  ...enUploadRequests,
  ...enUploadRequestsServer,
  ...enRemoteUpload,
  ...enTeams,
  ...enTeamsServer,
  ...enBillingServer,
  ...enInvoicesServer,
  ...enAccount,
  ...enAccountServer,
  ...enTwoFactor,
  ...enSocial,
  ...enDevices,
  ...enVersions,
  ...enSyncClients,
  ...enShopPacks,
};
