import {
  SOURCE_LOCALE,
  en,
  placeholderDifference,
  type CreateLanguageBody,
  type Language,
  type TranslationStatus,
  type TranslationString,
  type UpdateTranslationBody,
} from '@atelier/contracts';
import type { ChangeBus } from '../../lib/change-bus';
import { AppError } from '../../lib/app-error';
import type { RealtimeServer } from '../../realtime/realtime.server';
import type { SettingsService } from '../settings/settings.service';
import { TRANSLATIONS_TOPIC } from './i18n.service';
import type { LanguageRow, OverrideRow, TranslationsRepository } from './translations.repository';

export interface LanguagesServiceDeps {
  repository: TranslationsRepository;
  settings: SettingsService;
  changes: ChangeBus;
  realtime: Pick<RealtimeServer, 'emitToEveryone'>;
  now: () => Date;
}

const TOTAL = Object.keys(en).length;

function statusOf(key: string, override: Pick<OverrideRow, 'source'> | undefined): TranslationStatus {
  if (!override) return 'default';
  return override.source === en[key] ? 'overridden' : 'outdated';
}

/** The admin's language editor: languages, their strings, overrides and the default language. */
export class LanguagesService {
  constructor(private readonly deps: LanguagesServiceDeps) {}

  async list(): Promise<Language[]> {
    const [rows, sources, defaultLocale] = await Promise.all([
      this.deps.repository.languages(),
      this.deps.repository.allOverrideSources(),
      this.deps.settings.get('locale'),
    ]);
    const translated = new Map<string, number>();
    for (const row of sources)
      if (statusOf(row.key, row) === 'overridden' && row.key in en)
        translated.set(row.locale, (translated.get(row.locale) ?? 0) + 1);
    return rows.map((row) => this.present(row, translated.get(row.locale) ?? 0, defaultLocale));
  }

  /** A new language shows English until its strings are overridden. */
  async add(body: CreateLanguageBody): Promise<Language> {
    const row = { locale: body.locale, name: body.name, created_at: this.deps.now().toISOString() };
    if (!(await this.deps.repository.insertLanguage(row)))
      throw AppError.invalid('locale', 'admin_language.errors.exists');
    await this.changed(row.locale);
    return this.present(row, 0, await this.deps.settings.get('locale'));
  }

  /**
   * English is the source of every other language, and the default language is what visitors get,
   * so neither can go; the admin picks another default first (the refusal says so).
   */
  async remove(locale: string): Promise<void> {
    await this.language(locale);
    if (locale === SOURCE_LOCALE)
      throw AppError.invalid('locale', 'admin_language.errors.source_not_removable');
    if (locale === (await this.deps.settings.get('locale')))
      throw AppError.invalid('locale', 'admin_language.errors.default_not_removable');
    await this.deps.repository.deleteLanguage(locale);
    await this.changed(locale);
  }

  async setDefault(locale: string): Promise<void> {
    await this.language(locale);
    await this.deps.settings.set({ locale });
  }

  /** Every key with its English text and the language's own, filtered by a search and a status. */
  async strings(
    locale: string,
    filter: { search?: string; status?: TranslationStatus },
  ): Promise<TranslationString[]> {
    await this.language(locale);
    const overrides = new Map((await this.deps.repository.overrides(locale)).map((row) => [row.key, row]));
    const needle = filter.search?.trim().toLocaleLowerCase();
    const strings: TranslationString[] = [];
    for (const [key, english] of Object.entries(en)) {
      const override = overrides.get(key);
      const entry = {
        key,
        default: english,
        value: override?.value ?? english,
        status: statusOf(key, override),
      };
      if (filter.status && entry.status !== filter.status) continue;
      if (needle && ![key, english, entry.value].some((text) => text.toLocaleLowerCase().includes(needle)))
        continue;
      strings.push(entry);
    }
    return strings;
  }

  /**
   * Stores the admin's text with the English it was written against. Its placeholders must be the
   * English text's, else the screens would show a raw `{{name}}` or lose a figure. English set back
   * to its shipped text is simply the default again.
   */
  async update(locale: string, body: UpdateTranslationBody): Promise<TranslationString> {
    await this.language(locale);
    // Own keys only: `constructor` or `__proto__` would find what every object inherits.
    const english = Object.hasOwn(en, body.key) ? en[body.key] : undefined;
    if (english === undefined) throw AppError.invalid('key', 'admin_language.errors.unknown_key');
    if (body.value.trim() === '') throw AppError.invalid('value', 'admin_language.errors.blank');
    const { missing, extra } = placeholderDifference(english, body.value);
    if (missing.length > 0 || extra.length > 0) {
      const messages = [
        ...(missing.length > 0 ? ['admin_language.errors.placeholders_missing'] : []),
        ...(extra.length > 0 ? ['admin_language.errors.placeholders_unknown'] : []),
      ];
      throw new AppError(
        'validation_failed',
        messages[0],
        { value: messages },
        {
          missing: missing.join(', '),
          unknown: extra.join(', '),
        },
      );
    }
    const backToShipped = locale === SOURCE_LOCALE && body.value === english;
    if (backToShipped) {
      await this.deps.repository.deleteOverride(locale, body.key);
    } else {
      await this.deps.repository.upsertOverride({
        locale,
        key: body.key,
        value: body.value,
        source: english,
        updated_at: this.deps.now().toISOString(),
      });
    }
    await this.changed(locale);
    return {
      key: body.key,
      default: english,
      value: body.value,
      status: backToShipped ? 'default' : 'overridden',
    };
  }

  /** Back to the shipped text (English, or the English fallback of another language). */
  async revert(locale: string, key: string): Promise<void> {
    await this.language(locale);
    if (!(key in en)) throw new AppError('not_found', 'errors.not_found');
    if (await this.deps.repository.deleteOverride(locale, key)) await this.changed(locale);
  }

  private async language(locale: string): Promise<LanguageRow> {
    const row = await this.deps.repository.findLanguage(locale);
    if (!row) throw new AppError('not_found', 'errors.not_found');
    return row;
  }

  /** Every API process drops its copy, then open pages in that language fetch the strings again. */
  private async changed(locale: string): Promise<void> {
    await this.deps.changes.publish({ topic: TRANSLATIONS_TOPIC, subject: locale });
    await this.deps.realtime.emitToEveryone('translations.updated', { locale });
  }

  private present(row: LanguageRow, translated: number, defaultLocale: string): Language {
    return {
      locale: row.locale,
      name: row.name,
      translated: row.locale === SOURCE_LOCALE ? TOTAL : translated,
      total: TOTAL,
      is_default: row.locale === defaultLocale,
    };
  }
}
