import path from 'node:path';
import type {
  AdminSetupBody,
  AppSetupBody,
  DatabaseSetupBody,
  EnvironmentSetupBody,
  StatusCheck,
} from '@atelier/contracts';
import type { Redis } from 'ioredis';
import { Database, openConnection, pingConnection, type Dialect } from '../../db/database';
import { defaultSqliteUrl, saveDatabaseUrl } from '../../db/database-url';
import { prepareConnection } from '../../db/prepare';
import type { UserRow } from '../../db/schema';
import type { Env } from '../../env';
import { AppError } from '../../lib/app-error';
import { hashToken, randomToken } from '../../lib/tokens';
import type { I18nService } from '../i18n/i18n.service';
import { SettingsRepository } from '../settings/settings.repository';
import type { SettingsService } from '../settings/settings.service';
import type { UsersService } from '../users/users.service';
import type { SetupTokensRepository } from './setup-tokens.repository';
import { assertWritable, DATA_SUBFOLDERS, ffmpegVersion, probeEnvironment, reasonOf } from './setup.checks';

const MIN_NODE = [20, 19] as const;

export interface SetupDeps {
  env: Env;
  database: Database;
  databasePinned: boolean;
  settings: SettingsService;
  i18n: I18nService;
  users: UsersService;
  tokens: SetupTokensRepository;
  redis: Redis | null;
  /** The app's clock: settings carried to a new database are stamped with it. */
  now: () => Date;
}

/** The first-run wizard's steps; the HTTP routes and the CLI both drive it. */
export class SetupService {
  constructor(private readonly deps: SetupDeps) {}

  async isInstalled(): Promise<boolean> {
    return this.deps.settings.get('installed');
  }

  async assertNotInstalled(): Promise<void> {
    if (await this.isInstalled()) throw new AppError('gone', 'errors.setup_done');
  }

  /**
   * A one-time key to the wizard, printed by each API process that starts before the installation
   * is done; any of them opens the wizard (nodes share the database) until the installation ends.
   */
  async issueSetupToken(): Promise<string> {
    const token = randomToken();
    await this.deps.tokens.insert(hashToken(token));
    return token;
  }

  /** Whoever reaches the wizard first would become admin: it answers only to a printed token. */
  async assertSetupToken(token: string | undefined): Promise<void> {
    if (!token || !(await this.deps.tokens.exists(hashToken(token)))) {
      throw new AppError('forbidden', 'errors.setup_token');
    }
  }

  async statusCheck(): Promise<StatusCheck> {
    const { i18n, env, database } = this.deps;
    const check = async (key: string, probe: () => Promise<string>) => {
      const name = await i18n.translate(`setup.check.${key}`);
      try {
        return { name, ok: true, detail: await probe() };
      } catch (error) {
        return { name, ok: false, detail: reasonOf(error) };
      }
    };
    return {
      checks: await Promise.all([
        check('runtime', async () => {
          const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
          const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
          if (!ok)
            throw new Error(`Node.js ${process.versions.node}; ${MIN_NODE.join('.')} or newer is required`);
          return `Node.js ${process.versions.node}`;
        }),
        check('data_dir', async () => {
          for (const folder of ['', ...DATA_SUBFOLDERS]) await assertWritable(path.join(env.dataDir, folder));
          return env.dataDir;
        }),
        check('ffmpeg', ffmpegVersion),
        check('database', async () => {
          await pingConnection({ db: database.db, dialect: database.dialect, label: database.label });
          return database.label;
        }),
      ]),
    };
  }

  async savePurchaseCode(code: string): Promise<void> {
    await this.deps.settings.set({ purchase_code: code });
  }

  /**
   * Connects to the chosen database, migrates it, carries the settings chosen so far over, and
   * makes it the live database; the choice is saved in DATA_DIR for the next start.
   */
  async configureDatabase(body: DatabaseSetupBody): Promise<void> {
    const { env, database, databasePinned } = this.deps;
    const wanted: Dialect = body.connection === 'pgsql' ? 'postgres' : 'sqlite';
    if (databasePinned) {
      if (wanted !== database.dialect) throw AppError.invalid('connection', 'setup.database_pinned');
      await prepareConnection({ db: database.db, dialect: database.dialect, label: database.label });
      return;
    }

    const url =
      body.connection === 'sqlite'
        ? defaultSqliteUrl(env.dataDir)
        : `postgres://${encodeURIComponent(body.username)}:${encodeURIComponent(body.password)}@${body.host}:${body.port}/${encodeURIComponent(body.database)}`;
    const next = openConnection(url);
    if (next.label === database.label) {
      await next.db.destroy();
      await prepareConnection({ db: database.db, dialect: database.dialect, label: database.label });
      saveDatabaseUrl(env.dataDir, url);
      return;
    }
    try {
      await pingConnection(next);
      await prepareConnection(next);
      const carried = await new SettingsRepository(database, this.deps.now).all();
      await new SettingsRepository(new Database(next), this.deps.now).upsert(carried);
    } catch (error) {
      await next.db.destroy();
      throw AppError.invalid('connection', reasonOf(error));
    }
    saveDatabaseUrl(env.dataDir, url);
    await database.replace(next);
    this.deps.settings.invalidate();
    this.deps.i18n.invalidate();
  }

  /** Tests each chosen service, then stores the choices; a failure names the one that failed. */
  async configureEnvironment(body: EnvironmentSetupBody): Promise<void> {
    await probeEnvironment(body, { dataDir: this.deps.env.dataDir, redis: this.deps.redis });
    const { storage, mail, broadcasting } = body;
    await this.deps.settings.set({
      storage_driver: storage.driver,
      s3: storage.driver === 's3' ? { ...storage } : null,
      mail_driver: mail.driver,
      smtp_url: mail.driver === 'smtp' ? mail.url : null,
      mail_from: mail.driver === 'smtp' ? (mail.from ?? null) : null,
      broadcasting_driver: broadcasting.driver,
    });
  }

  async configureApp(body: AppSetupBody): Promise<void> {
    await this.deps.settings.set({
      app_title: body.title,
      app_description: body.description,
      contact_email: body.contactEmail,
      subscription_type: body.subscriptionType,
      registration: body.registration,
      storage_limitation: body.storageLimitation,
      default_storage_gb: body.defaultStorage,
      default_team_members: body.defaultTeamMembers,
      file_manager_cutoff: body.fileManagerCutoff,
      file_manager_for_all: body.fileManagerForAll,
    });
  }

  /**
   * Creates the first admin and finishes the installation, as one unit of work: the claim, the admin
   * and the finished installation commit together, so a failure leaves the wizard to be finished
   * again (with the same address), never an admin on an instance that still asks for one.
   */
  async createAdmin(body: AdminSetupBody): Promise<UserRow> {
    const { settings, users, database } = this.deps;
    try {
      return await database.transaction(async () => {
        // Two wizards racing: the second's claim waits for the first's unit, then finds it taken.
        if (!(await settings.claimInstallation())) throw new AppError('gone', 'errors.setup_done');
        const admin = await users.create({ ...body, role: 'admin', emailVerified: true });
        const contact = await settings.get('contact_email');
        await settings.set({ installed: true, ...(contact ? {} : { contact_email: admin.email }) });
        await this.deps.tokens.deleteAll();
        return admin;
      });
    } finally {
      // What was read while the unit was open (not installed) is not kept.
      settings.invalidate();
    }
  }
}
