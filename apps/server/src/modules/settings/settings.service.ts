import { SETTING_DEFAULTS, type Settings } from './settings.defaults';
import type { SettingsRepository } from './settings.repository';

/** Another process (a second API node) may change a setting; re-read at most this often. */
const CACHE_TTL_MS = 5_000;
/** A row outside the typed settings whose insertion only one request can win. */
const INSTALLATION_CLAIM = 'installation_claim';

/** The one way to read and write instance settings: typed, defaulted and cached. */
export class SettingsService {
  private cache: { settings: Settings; loadedAt: number } | null = null;

  constructor(private readonly repository: SettingsRepository) {}

  async all(): Promise<Settings> {
    if (this.cache && Date.now() - this.cache.loadedAt < CACHE_TTL_MS) return this.cache.settings;
    const settings: Settings = { ...SETTING_DEFAULTS };
    const target = settings as unknown as Record<string, unknown>;
    for (const row of await this.repository.all()) {
      if (row.key in SETTING_DEFAULTS) target[row.key] = JSON.parse(row.value);
    }
    this.cache = { settings, loadedAt: Date.now() };
    return settings;
  }

  async get<K extends keyof Settings>(key: K): Promise<Settings[K]> {
    return (await this.all())[key];
  }

  async set(values: Partial<Settings>): Promise<void> {
    const entries = Object.entries(values)
      .filter(([, v]) => v !== undefined)
      .map(([key, value]) => ({ key, value: JSON.stringify(value) }));
    await this.repository.upsert(entries);
    this.invalidate();
  }

  /**
   * Lets exactly one request finish the installation, even when several race (on any number of
   * nodes): the first to insert the claim row wins.
   */
  claimInstallation(): Promise<boolean> {
    return this.repository.insertIfAbsent(INSTALLATION_CLAIM, JSON.stringify(new Date().toISOString()));
  }

  async releaseInstallation(): Promise<void> {
    await this.repository.delete(INSTALLATION_CLAIM);
  }

  /** Forget cached values, e.g. after the database was switched. */
  invalidate(): void {
    this.cache = null;
  }
}
