import type { UserRow } from '../../db/schema';
import type { SettingsService } from '../settings/settings.service';
import type { AccountLimitsService } from '../users/account-limits.service';
import { capabilitiesOf, type Capabilities } from './capabilities';

/**
 * The Nextcloud release whose client APIs this server answers as. The desktop client refuses a
 * server below its minimum (16 up to 3.13, 20 since), and Nextcloud's clients read features from the
 * capabilities, not from the number, so the version only has to be one they all accept.
 */
export const NEXTCLOUD_COMPATIBLE_VERSION = { major: 30, minor: 0, micro: 0 } as const;
const VERSION_STRING = `${NEXTCLOUD_COMPATIBLE_VERSION.major}.${NEXTCLOUD_COMPATIBLE_VERSION.minor}.${NEXTCLOUD_COMPATIBLE_VERSION.micro}`;

/** Nextcloud's quota for "no limit" (its SPACE_UNLIMITED). */
const UNLIMITED = -3;

export interface SyncClientsDeps {
  settings: Pick<SettingsService, 'all'>;
  limits: Pick<AccountLimitsService, 'of'>;
  appUrl: string;
}

/** `/status.php`'s answer: whether the instance is up and which server it is. */
export interface ServerStatusDocument {
  installed: boolean;
  maintenance: boolean;
  needsDbUpgrade: boolean;
  version: string;
  versionstring: string;
  edition: string;
  productname: string;
  extendedSupport: boolean;
}

/** What the Nextcloud and ownCloud clients ask before and after signing in: the instance, its features, the account. */
export class SyncClientsService {
  constructor(private readonly deps: SyncClientsDeps) {}

  async status(): Promise<ServerStatusDocument> {
    const settings = await this.deps.settings.all();
    return {
      installed: settings.installed,
      maintenance: settings.maintenance,
      needsDbUpgrade: false,
      version: `${VERSION_STRING}.0`,
      versionstring: VERSION_STRING,
      edition: '',
      productname: settings.app_title,
      extendedSupport: false,
    };
  }

  async capabilities(): Promise<{ version: Record<string, unknown>; capabilities: Capabilities }> {
    const settings = await this.deps.settings.all();
    return {
      version: {
        ...NEXTCLOUD_COMPATIBLE_VERSION,
        string: VERSION_STRING,
        edition: '',
        extendedSupport: false,
      },
      capabilities: capabilitiesOf({ settings, appUrl: this.deps.appUrl }),
    };
  }

  /** The account as `cloud/user` tells it: the id the WebDAV paths take, names and the quota in bytes. */
  async user(user: UserRow) {
    const { capacity, used } = await this.deps.limits.of(user.id);
    const quota =
      capacity === null
        ? { free: UNLIMITED, used, total: UNLIMITED, relative: 0, quota: UNLIMITED }
        : {
            free: Math.max(0, capacity - used),
            used,
            total: capacity,
            relative: capacity > 0 ? Math.round((used / capacity) * 10_000) / 100 : 100,
            quota: capacity,
          };
    return {
      enabled: true,
      id: user.id,
      email: user.email,
      'display-name': user.name,
      displayname: user.name,
      quota,
      groups: [],
    };
  }
}
