import { SOURCE_LOCALE, en } from '@atelier/contracts';
import type { ChangeBus } from '../../lib/change-bus';
import type { SettingsService } from '../settings/settings.service';
import type { TranslationsRepository } from './translations.repository';

/**
 * Edits reach every process through the change bus at once; the expiry only bounds how stale a
 * process may be after a message it missed (a Redis outage). Measured in process time, not the app's
 * clock: a test's clock may stand still, and a cache's age decides no rule.
 */
const CACHE_TTL_MS = 60_000;
export const TRANSLATIONS_TOPIC = 'translations';

/** Replaces `{{name}}` placeholders (the syntax i18next uses on the client too). */
export function interpolate(text: string, vars: Record<string, string | number> = {}): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) =>
    name in vars ? String(vars[name]) : match,
  );
}

/**
 * The strings every screen and e-mail shows: the English shipped in the code (contracts `en`, so an
 * upgrade's new and changed text is served at once), English overrides of the admin, then the
 * language's own overrides. Overrides of keys the code no longer has are ignored.
 */
export class I18nService {
  private readonly cache = new Map<string, { messages: Record<string, string>; loadedAt: number }>();
  private locales: {
    list: Array<{ locale: string; name: string }>;
    names: Set<string>;
    loadedAt: number;
  } | null = null;

  constructor(
    private readonly repository: TranslationsRepository,
    private readonly settings: SettingsService,
    changes: ChangeBus,
  ) {
    changes.on(TRANSLATIONS_TOPIC, () => this.invalidate());
  }

  /**
   * The flat map of one locale, English filling the keys it lacks. A locale that was not added gets
   * English: only languages that exist are ever cached, so asking for junk costs nothing.
   */
  async messages(locale: string): Promise<Record<string, string>> {
    if (!(await this.exists(locale))) locale = SOURCE_LOCALE;
    const cached = this.cache.get(locale);
    if (cached && Date.now() - cached.loadedAt < CACHE_TTL_MS) return cached.messages;
    const messages: Record<string, string> = { ...en };
    const layers = locale === SOURCE_LOCALE ? [SOURCE_LOCALE] : [SOURCE_LOCALE, locale];
    for (const layer of layers)
      for (const row of await this.repository.overrides(layer))
        if (row.key in en) messages[row.key] = row.value;
    this.cache.set(locale, { messages, loadedAt: Date.now() });
    return messages;
  }

  /**
   * Text for a key in the instance locale; anything that is not a key comes back as it is. Never
   * throws, because the error handler relies on it while the database may be the thing failing.
   */
  async translate(keyOrText: string, vars?: Record<string, string | number>): Promise<string> {
    let messages: Record<string, string> = en;
    try {
      messages = await this.messages(await this.settings.get('locale'));
    } catch {
      // Fall back to the built-in English strings.
    }
    return interpolate(messages[keyOrText] ?? keyOrText, vars);
  }

  /** The instance's languages (English included), from the same cache as the messages. */
  async languages(): Promise<Array<{ locale: string; name: string }>> {
    return (await this.loadLocales()).list;
  }

  /** Whether the language was added (English always is). */
  async exists(locale: string): Promise<boolean> {
    return (await this.loadLocales()).names.has(locale);
  }

  /** The languages whose message sets are held in memory now. */
  cachedLocales(): string[] {
    return [...this.cache.keys()];
  }

  /** Forget what this process holds (after an edit, or after the database was switched). */
  invalidate(): void {
    this.cache.clear();
    this.locales = null;
  }

  private async loadLocales(): Promise<NonNullable<I18nService['locales']>> {
    if (!this.locales || Date.now() - this.locales.loadedAt >= CACHE_TTL_MS) {
      const rows = await this.repository.languages();
      this.locales = {
        list: rows.map((row) => ({ locale: row.locale, name: row.name })),
        names: new Set(rows.map((row) => row.locale)),
        loadedAt: Date.now(),
      };
    }
    return this.locales;
  }
}
