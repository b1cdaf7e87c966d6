import type { Env } from '../env';
import type { SettingsService } from '../modules/settings/settings.service';
import { createStorage, type StorageConfig } from './create-storage';
import type { Storage } from './storage';

const RETIRED_KEPT = 8;

/**
 * The storage the instance uses now: STORAGE_DRIVER (with S3_*) from the environment when set,
 * else the driver the setup wizard saved, else local disk. Rebuilt when the choice changes.
 */
export class StorageProvider {
  private active: { fingerprint: string; storage: Storage } | null = null;
  /**
   * Storages a change of settings replaced (new S3 keys, another region): the transfers under way on
   * them go on to their end, so they are closed with the provider, not when replaced. The oldest go
   * once there are many (a transfer does not outlast so many changes).
   */
  private readonly retired: Storage[] = [];

  constructor(
    private readonly env: Env,
    private readonly settings: SettingsService,
  ) {}

  async current(): Promise<Storage> {
    const config = await this.config();
    const fingerprint = JSON.stringify(config);
    if (this.active?.fingerprint !== fingerprint) {
      const previous = this.active?.storage;
      this.active = { fingerprint, storage: createStorage(config) };
      if (previous) this.retired.push(previous);
      if (this.retired.length > RETIRED_KEPT) await this.retired.shift()!.close();
    }
    return this.active.storage;
  }

  /** The driver in use now (for the admin's server status). */
  async driver(): Promise<StorageConfig['driver']> {
    return (await this.config()).driver;
  }

  async close(): Promise<void> {
    await Promise.all([...this.retired.splice(0), this.active?.storage].map((storage) => storage?.close()));
    this.active = null;
  }

  private async config(): Promise<StorageConfig> {
    const { env } = this;
    if (env.STORAGE_DRIVER === 's3') {
      return {
        driver: 's3',
        endpoint: env.S3_ENDPOINT,
        region: env.S3_REGION!,
        bucket: env.S3_BUCKET!,
        accessKeyId: env.S3_ACCESS_KEY_ID!,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
        forcePathStyle: env.S3_FORCE_PATH_STYLE,
      };
    }
    if (env.STORAGE_DRIVER === 'local') return { driver: 'local', dataDir: env.dataDir };
    const settings = await this.settings.all();
    if (settings.storage_driver === 's3' && settings.s3) return { driver: 's3', ...settings.s3 };
    return { driver: 'local', dataDir: env.dataDir };
  }
}
