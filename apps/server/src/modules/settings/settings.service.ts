import type { UnitOfWork } from '../../db/database';
import type { ChangeBus } from '../../lib/change-bus';
import { SETTING_DEFAULTS, type Settings } from './settings.defaults';
import type { SettingsRepository } from './settings.repository';

/**
 * Another process (a second API node) may change a setting: with Redis it says so at once through
 * the change bus; without (several processes on one SQLite file) re-read at most this often.
 */
const CACHE_TTL_MS = 5_000;
export const SETTINGS_TOPIC = 'settings';
/** A row outside the typed settings whose insertion only one request can win. */
const INSTALLATION_CLAIM = 'installation_claim';

/** The one way to read and write instance settings: typed, defaulted and cached. */
export class SettingsService {
  private cache: { settings: Settings; loadedAt: number } | null = null;

  /** Bumped by every invalidation, so a read that began before a change never caches what it read. */
  private generation = 0;
  private changes: ChangeBus | null = null;

  constructor(
    private readonly repository: SettingsRepository,
    /** A change made in a unit of work reaches the caches once it commits. */
    private readonly units: UnitOfWork,
    /** The app's clock: an installation claim records when it was taken. */
    private readonly now: () => Date,
    /**
     * Milliseconds elapsed in this process, which the cache's age is measured in: not the app's time,
     * which a test may stand still or move by days. Tests inject one to hold the cache fresh.
     */
    private readonly elapsedMs: () => number = () => performance.now(),
  ) {}

  /** Shares every change with the other processes of the instance, which drop their cache at once. */
  connect(changes: ChangeBus): void {
    this.changes = changes;
    changes.on(SETTINGS_TOPIC, () => this.invalidate());
  }

  async all(): Promise<Settings> {
    if (this.cache && this.elapsedMs() - this.cache.loadedAt < CACHE_TTL_MS) return this.cache.settings;
    const generation = this.generation;
    const settings: Settings = { ...SETTING_DEFAULTS };
    const target = settings as unknown as Record<string, unknown>;
    for (const row of await this.repository.all()) {
      if (row.key in SETTING_DEFAULTS) target[row.key] = JSON.parse(row.value);
    }
    if (generation === this.generation) this.cache = { settings, loadedAt: this.elapsedMs() };
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
    await this.changed();
  }

  /**
   * Sets one setting and answers the value it replaces, read from the database under a lock (not
   * from the cache, which another process's change may not have reached yet): of two changes at
   * once, the later sees the earlier's value.
   */
  async swap<K extends keyof Settings>(key: K, value: Settings[K]): Promise<Settings[K]> {
    const previous = await this.repository.swap(key, JSON.stringify(value));
    await this.changed();
    return previous === undefined ? SETTING_DEFAULTS[key] : (JSON.parse(previous) as Settings[K]);
  }

  /**
   * Every process drops its cache once the change commits (at once outside a unit of work): one
   * dropped before would fill again with the values the change replaces.
   */
  private changed(): Promise<void> {
    return this.units.afterCommit(async () => {
      this.invalidate();
      await this.changes?.publish({ topic: SETTINGS_TOPIC });
    });
  }

  /**
   * Lets exactly one request finish the installation, even when several race (on any number of
   * nodes): the first to insert the claim row wins.
   */
  claimInstallation(): Promise<boolean> {
    return this.repository.insertIfAbsent(INSTALLATION_CLAIM, JSON.stringify(this.now().toISOString()));
  }

  /** Forget cached values, e.g. after the database was switched. */
  invalidate(): void {
    this.generation += 1;
    this.cache = null;
  }
}
