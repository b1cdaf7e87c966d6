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

  constructor(
    private readonly repository: TranslationsRepository,
    private readonly settings: SettingsService,
  ) {}

  async seed(): Promise<void> {
    await this.repository.insertMissing(DEFAULT_LOCALE, en);
    this.cache.clear();
  }

  /** The flat map of one locale, English filling the keys it lacks. */
  async messages(locale: string): Promise<Record<string, string>> {
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

  invalidate(): void {
    this.cache.clear();
  }
}
