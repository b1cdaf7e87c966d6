import { en } from '@atelier/contracts';
import type { SettingsService } from '../settings/settings.service';
import type { TranslationsRepository } from './translations.repository';

const DEFAULT_LOCALE = 'en';
const CACHE_TTL_MS = 5_000;

/** Replaces `{{name}}` placeholders (the syntax i18next uses on the client too). */
export function interpolate(text: string, vars: Record<string, string | number> = {}): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) =>
    name in vars ? String(vars[name]) : match,
  );
}

/** Strings live in the database (seeded from contracts `en`) so the language editor can change them. */
export class I18nService {
  private readonly cache = new Map<string, { messages: Record<string, string>; loadedAt: number }>();
  private locales: { names: Set<string>; loadedAt: number } | null = null;

  constructor(
    private readonly repository: TranslationsRepository,
    private readonly settings: SettingsService,
  ) {}

  async seed(): Promise<void> {
    await this.repository.insertMissing(DEFAULT_LOCALE, en);
    this.invalidate();
  }

  /**
   * The flat map of one locale, English filling the keys it lacks. A locale without any strings
   * gets English: only languages that exist are ever cached, so asking for junk costs nothing.
   */
  async messages(locale: string): Promise<Record<string, string>> {
    if (locale !== DEFAULT_LOCALE && !(await this.knownLocales()).has(locale)) locale = DEFAULT_LOCALE;
    const cached = this.cache.get(locale);
    if (cached && Date.now() - cached.loadedAt < CACHE_TTL_MS) return cached.messages;
    const messages: Record<string, string> = { ...en };
    const locales = locale === DEFAULT_LOCALE ? [DEFAULT_LOCALE] : [DEFAULT_LOCALE, locale];
    for (const l of locales)
      for (const row of await this.repository.forLocale(l)) messages[row.key] = row.value;
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

  /** The languages whose message sets are held in memory now. */
  cachedLocales(): string[] {
    return [...this.cache.keys()];
  }

  invalidate(): void {
    this.cache.clear();
    this.locales = null;
  }

  private async knownLocales(): Promise<Set<string>> {
    if (!this.locales || Date.now() - this.locales.loadedAt >= CACHE_TTL_MS)
      this.locales = { names: new Set(await this.repository.locales()), loadedAt: Date.now() };
    return this.locales.names;
  }
}
