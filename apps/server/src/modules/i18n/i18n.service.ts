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

/** The plural form a count takes in a language (`one`, `few`, `other`…); English's for a tag Intl does not know. */
function pluralCategory(locale: string, count: number): Intl.LDMLPluralRule {
  try {
    return new Intl.PluralRules(locale).select(count);
  } catch {
    return new Intl.PluralRules(SOURCE_LOCALE).select(count);
  }
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
  /** Bumped by every invalidation, so a load that began before an edit never caches what it read. */
  private generation = 0;

  constructor(
    private readonly repository: TranslationsRepository,
    private readonly settings: SettingsService,
    changes: ChangeBus,
    /** The language a person chose in their settings, or null. */
    private readonly localeOf: (userId: string) => Promise<string | null> = async () => null,
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
    const generation = this.generation;
    const messages: Record<string, string> = { ...en };
    const layers = locale === SOURCE_LOCALE ? [SOURCE_LOCALE] : [SOURCE_LOCALE, locale];
    for (const layer of layers)
      for (const row of await this.repository.overrides(layer))
        if (row.key in en) messages[row.key] = row.value;
    // Read before an edit that landed meanwhile: answered, never kept.
    if (generation === this.generation) this.cache.set(locale, { messages, loadedAt: Date.now() });
    return messages;
  }

  /**
   * Text for a key in the instance locale; anything that is not a key comes back as it is. Never
   * throws, because the error handler relies on it while the database may be the thing failing.
   */
  translate(keyOrText: string, vars?: Record<string, string | number>): Promise<string> {
    return this.translateIn(null, keyOrText, vars);
  }

  /**
   * Text for one person, in the language they chose (the instance's when they chose none, or one
   * since removed): what is stored for them to read later, such as a notification. Never throws.
   */
  async translateFor(userId: string, keyOrText: string, vars?: Record<string, string | number>) {
    let locale: string | null = null;
    try {
      locale = await this.localeOf(userId);
    } catch {
      // The instance's language, as for anyone who chose none.
    }
    return this.translateIn(locale, keyOrText, vars);
  }

  /**
   * The language one person reads in: the one they chose while the instance has it, else the
   * instance's (English when neither can be read). Never throws.
   */
  async localeFor(userId: string): Promise<string> {
    try {
      const chosen = await this.localeOf(userId);
      return chosen !== null && (await this.exists(chosen)) ? chosen : await this.settings.get('locale');
    } catch {
      return SOURCE_LOCALE;
    }
  }

  /**
   * With a numeric `count`, a key's plural forms come first as i18next names them on the client
   * (`key_one`, `key_few`, `key_other`…, chosen by the language's plural rules), then the key itself.
   */
  private async translateIn(
    chosen: string | null,
    keyOrText: string,
    vars?: Record<string, string | number>,
  ): Promise<string> {
    let messages: Record<string, string> = en;
    let locale: string = SOURCE_LOCALE;
    try {
      locale = chosen !== null && (await this.exists(chosen)) ? chosen : await this.settings.get('locale');
      messages = await this.messages(locale);
    } catch {
      // Fall back to the built-in English strings.
    }
    const count = vars?.count;
    const plural =
      typeof count === 'number'
        ? (messages[`${keyOrText}_${pluralCategory(locale, count)}`] ?? messages[`${keyOrText}_other`])
        : undefined;
    return interpolate(plural ?? messages[keyOrText] ?? keyOrText, vars);
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
    this.generation += 1;
    this.cache.clear();
    this.locales = null;
  }

  private async loadLocales(): Promise<NonNullable<I18nService['locales']>> {
    if (this.locales && Date.now() - this.locales.loadedAt < CACHE_TTL_MS) return this.locales;
    const generation = this.generation;
    const rows = await this.repository.languages();
    const locales = {
      list: rows.map((row) => ({ locale: row.locale, name: row.name })),
      names: new Set(rows.map((row) => row.locale)),
      loadedAt: Date.now(),
    };
    if (generation === this.generation) this.locales = locales;
    return locales;
  }
}
