import type { Redis } from 'ioredis';
import type { Database } from '../../db/database';
import type { JobQueue } from '../../jobs/job-queue';
import type { RealtimeServer } from '../../realtime/realtime.server';
import type { StorageProvider } from '../../storage/storage-provider';
import type { AuthService } from '../auth/auth.service';
import type { SessionsService } from '../auth/sessions.service';
import type { ItemReader } from '../files/files.ports';
import type { Mailer } from '../mail/mailer';
import type { SettingsService } from '../settings/settings.service';
import type { AccountDirectory } from '../users/users.ports';
import type { UsersService } from '../users/users.service';
import { AdminUsersService, type AdminUsersDeps } from './admin-users.service';
import { AuditLogRepository } from './audit-log.repository';
import { DashboardService, type RevenueSource } from './dashboard.service';

export interface AdminModuleDeps {
  database: Database;
  users: UsersService;
  /** The users module's accounts as the administration reads and changes them. */
  accounts: AccountDirectory;
  items: ItemReader;
  files: AdminUsersDeps['files'];
  avatars: AdminUsersDeps['avatars'];
  chunkedUploads: AdminUsersDeps['chunkedUploads'];
  settings: SettingsService;
  sessions: SessionsService;
  auth: AuthService;
  realtime: RealtimeServer;
  jobs: JobQueue;
  redis: Redis | null;
  storage: StorageProvider;
  mailer: Mailer;
  /** Billing's transactions. */
  revenue: RevenueSource;
  subscriptionOf: AdminUsersDeps['subscriptionOf'];
  stopRenewing: AdminUsersDeps['stopRenewing'];
  planStorage: AdminUsersDeps['planStorage'];
  now: () => Date;
}

/** The administration of accounts and the dashboard; services.ts spreads them in. */
export function createAdminServices(deps: AdminModuleDeps) {
  const adminUsers = new AdminUsersService({
    ...deps,
    units: deps.database,
    audit: new AuditLogRepository(deps.database, deps.now),
  });
  const dashboard = new DashboardService(deps);
  return { adminUsers, dashboard };
}
