import type { PublicConfig } from '@atelier/contracts';

export interface LocaleChoice {
  /** The user's own setting; null when they chose none (or nobody is signed in). */
  userLocale: string | null;
  /** The browser's preferences, best first (navigator.languages). */
  browserLanguages: readonly string[];
  /** The instance's languages. */
  available: readonly string[];
  /** The instance default. */
  fallback: string;
}

/**
 * The interface language: the user's setting when the instance still has it, else the first browser
 * language the instance has, exactly (case-insensitive: `pt-BR` is `pt-br`) or by its base (`de-AT`
 * gets `de`), else the instance default.
 */
export function pickLocale({ userLocale, browserLanguages, available, fallback }: LocaleChoice): string {
  const byLowerCase = new Map(available.map((locale) => [locale.toLowerCase(), locale]));
  const find = (tag: string) => byLowerCase.get(tag.toLowerCase());
  const chosen = userLocale ? find(userLocale) : undefined;
  if (chosen) return chosen;
  for (const tag of browserLanguages) {
    const match = find(tag) ?? find(tag.split(/[-_]/)[0]!);
    if (match) return match;
  }
  return fallback;
}

/** The language this browser shows for the instance config and the user's setting. */
export function localeFor(
  config: Pick<PublicConfig, 'locale' | 'languages'>,
  userLocale: string | null,
): string {
  return pickLocale({
    userLocale,
    browserLanguages: navigator.languages,
    available: config.languages.map((language) => language.locale),
    fallback: config.locale,
  });
}
