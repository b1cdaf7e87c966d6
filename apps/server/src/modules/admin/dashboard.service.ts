import type { AdminDashboard, DashboardTransaction, HealthState } from '@atelier/contracts';
import type { Redis } from 'ioredis';
import type { Database } from '../../db/database';
import { pingConnection } from '../../db/database';
import type { JobQueue } from '../../jobs/job-queue';
import type { StorageProvider } from '../../storage/storage-provider';
import type { ItemReader } from '../files/files.ports';
import { verifySmtp, type Mailer } from '../mail/mailer';
import type { SettingsService } from '../settings/settings.service';
import serverPackage from '../../../package.json' with { type: 'json' };
import { presentDashboardUser } from './admin.presenter';
import { databaseVersion } from '../../db/database-version';
import type { AccountDirectory } from '../users/users.ports';

const DAY_MS = 24 * 60 * 60 * 1000;
const MONTHS_SHOWN = 12;
const LATEST = 5;
/** A health probe that takes longer than this counts as failing, so the dashboard never hangs. */
const PROBE_TIMEOUT_MS = 3_000;

/** Where the dashboard's money comes from: billing's transactions. */
export interface RevenueSource {
  /** Amounts as decimal strings: the sum since `since`, and one per `months` entry (`YYYY-MM`). */
  revenue(
    since: Date,
    months: string[],
  ): Promise<{ currency: string | null; since: string; byMonth: string[] }>;
  latestTransactions(limit: number): Promise<DashboardTransaction[]>;
}

export interface DashboardDeps {
  accounts: AccountDirectory;
  items: Pick<ItemReader, 'storageTotals'>;
  revenue: RevenueSource;
  database: Database;
  settings: SettingsService;
  jobs: JobQueue;
  redis: Redis | null;
  storage: StorageProvider;
  mailer: Mailer;
  now: () => Date;
}

/** `YYYY-MM` of the last `count` months, oldest first, ending with the month of `now` (UTC). */
export function lastMonths(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (count - 1 - i), 1));
    return date.toISOString().slice(0, 7);
  });
}

async function probe(check: () => Promise<unknown>): Promise<HealthState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'failing';
  } finally {
    clearTimeout(timer);
  }
}

/** The figures of the admin's dashboard. */
export class DashboardService {
  constructor(private readonly deps: DashboardDeps) {}

  async dashboard(): Promise<AdminDashboard> {
    const now = this.deps.now();
    const since30 = new Date(now.getTime() - 30 * DAY_MS);
    const months = lastMonths(now, MONTHS_SHOWN);
    const firstMonth = `${months[0]}-01T00:00:00.000Z`;
    const { accounts, items, revenue } = this.deps;
    const [counts, storage, newest, created, money, transactions, database, health] = await Promise.all([
      accounts.countUsers(since30.toISOString()),
      items.storageTotals(),
      accounts.newest(LATEST),
      accounts.createdSince(firstMonth),
      revenue.revenue(since30, months),
      revenue.latestTransactions(LATEST),
      this.databaseName(),
      this.health(),
    ]);
    return {
      users: { total: counts.total, admins: counts.admins, new_30_days: counts.recent },
      storage,
      revenue: {
        currency: money.currency,
        last_30_days: money.since,
        by_month: months.map((month, i) => ({ month, amount: money.byMonth[i] ?? '0.00' })),
      },
      signups_by_month: months.map((month) => ({
        month,
        count: created.filter((at) => at.startsWith(month)).length,
      })),
      latest_users: newest.map(presentDashboardUser),
      latest_transactions: transactions,
      versions: { app: serverPackage.version, node: process.versions.node, database },
      health,
      links: { audit: '/api/admin/audit' },
    };
  }

  /** The database's kind and version, as the dashboard names it (`PostgreSQL 16.4`, `SQLite 3.46.1`). */
  private async databaseName(): Promise<string> {
    const { database } = this.deps;
    const kind = database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite';
    return `${kind} ${await databaseVersion(database)}`.trim();
  }

  private async health(): Promise<AdminDashboard['health']> {
    const { jobs, redis, database, settings, storage, mailer } = this.deps;
    const [broadcasting, store, smtpUrl] = await Promise.all([
      settings.get('broadcasting_driver'),
      storage.current(),
      mailer.smtpUrl(),
    ]);
    const [queue, realtime, files, mail] = await Promise.all([
      probe(() => (jobs.driver === 'bullmq' && redis ? redis.ping() : pingConnection(database))),
      broadcasting === 'null' ? ('off' as const) : probe(() => redis?.ping() ?? Promise.resolve()),
      probe(() => store.check()),
      smtpUrl ? probe(() => verifySmtp(smtpUrl)) : ('ok' as const),
    ]);
    return {
      queue: { driver: jobs.driver, state: queue },
      realtime: {
        driver: broadcasting === 'null' ? 'off' : redis ? 'socket.io + redis' : 'socket.io',
        state: realtime,
      },
      storage: { driver: store.driver, state: files },
      mail: { driver: smtpUrl ? 'smtp' : 'log', state: mail },
    };
  }
}
