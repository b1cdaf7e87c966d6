import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';

const RELOAD_DELAY_MS = 3000;

/** Loaded only when needed, so pages the server serves do not download every string twice. */
async function bundledEnglish(): Promise<Record<string, string>> {
  const { en } = await import('./english-strings');
  return en;
}

/** Strings are edited in the admin language editor, so they come from the server, not the bundle. */
export const translationBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    fetch(`/translations/${encodeURIComponent(language)}`, { headers: { Accept: 'application/json' } })
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
  document.documentElement.lang = locale;
  return instance;
}

/** Shows another language in this tab at once (the strings load from the server). */
export async function switchLanguage(instance: I18n, locale: string): Promise<void> {
  await instance.changeLanguage(locale);
  document.documentElement.lang = locale;
}
