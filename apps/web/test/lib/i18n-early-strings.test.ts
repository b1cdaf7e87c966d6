import { describe, expect, it, vi } from 'vitest';
import { createI18n, prefetchLikelyStrings } from '../../src/lib/i18n';

/** The strings server: answers every language with its name, and remembers what was asked. */
function stringsServer() {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    const language = decodeURIComponent(url.split('/').pop()!);
    asked.push(language);
    return new Response(JSON.stringify({ 'app.name': `Atelier (${language})` }), {
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return asked;
}

describe('strings asked for before the app knows its language', () => {
  it('are the page’s language on a first visit, and used instead of asking again', async () => {
    const asked = stringsServer();
    document.documentElement.lang = 'de';
    prefetchLikelyStrings();
    const i18n = await createI18n('de');
    expect(i18n.t('app.name')).toBe('Atelier (de)');
    // English is asked for too, as every language's fallback.
    expect(asked.filter((language) => language !== 'en')).toEqual(['de']);
  });

  it('are the language last shown in this browser; a wrong guess is not shown', async () => {
    const asked = stringsServer();
    await createI18n('fr');
    document.documentElement.lang = 'en';
    prefetchLikelyStrings();
    const i18n = await createI18n('es');
    expect(i18n.t('app.name')).toBe('Atelier (es)');
    expect(asked.filter((language) => language !== 'en')).toEqual(['fr', 'fr', 'es']);
  });
});
