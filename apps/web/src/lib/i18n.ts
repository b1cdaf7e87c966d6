import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readLocal, writeLocal } from './local-store';

const RELOAD_DELAY_MS = 3000;

/** Loaded only when needed, so pages the server serves do not download every string twice. */
async function bundledEnglish(): Promise<Record<string, string>> {
  const { en } = await import('./english-strings');
  return en;
}

const LOCALE_KEY = 'atelier.locale';

const fetchStrings = (language: string) =>
  fetch(`/translations/${encodeURIComponent(language)}`, { headers: { Accept: 'application/json' } });

/** Strings asked for before the app knew its language, by language; each is used once. */
const early = new Map<string, Promise<Response>>();

/**
 * Asks for the strings the app will most likely show (the language it last showed in this browser,
 * else the instance's, which the server writes on the page) at once, instead of after the config and
 * the user arrive and behind the page's modules. A wrong guess costs one unused request.
 */
export function prefetchLikelyStrings(): void {
  // Without storage the page's language is the guess.
  const likely = readLocal(LOCALE_KEY) ?? document.documentElement.lang;
  if (likely) early.set(likely, fetchStrings(likely));
}

function rememberLocale(locale: string): void {
  document.documentElement.lang = locale;
  writeLocal(LOCALE_KEY, locale);
}

/** Strings are edited in the admin language editor, so they come from the server, not the bundle. */
export const translationBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const asked = early.get(language) ?? fetchStrings(language);
    early.delete(language);
    asked
      .then(
        async (response) => {
          // The server answered but could not give the map: the bundled English keeps the UI usable.
          callback(
            null,
            response.ok ? ((await response.json()) as Record<string, string>) : await bundledEnglish(),
          );
        },
        () => {
          // No response at all: the description reloads the page (typically a deploy or restart). The
          // pause keeps a server that is down from being hammered by a reload loop.
          setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
        },
      )
      .catch((error: unknown) => callback(error as Error, false));
  },
};

export async function createI18n(locale: string): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance
    .use(translationBackend)
    .use(initReactI18next)
    .init({
      lng: locale,
      fallbackLng: 'en',
      load: 'currentOnly',
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false },
      returnEmptyString: false,
      showSupportNotice: false,
      react: { useSuspense: true },
    });
  rememberLocale(locale);
  return instance;
}

/** Shows another language in this tab at once (the strings load from the server). */
export async function switchLanguage(instance: I18n, locale: string): Promise<void> {
  await instance.changeLanguage(locale);
  rememberLocale(locale);
}
