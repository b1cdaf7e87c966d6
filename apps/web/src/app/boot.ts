import type { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import type { createBrowserRouter } from 'react-router';
import { configQuery, userQuery } from '../features/session/session-queries';
import { createI18n } from '../lib/i18n';
import { localeFor } from '../lib/pick-locale';

/**
 * What an entry waits for before its first render: the instance's config, the signed-in user (null
 * for a visitor) and the strings in their language — the user's setting, then the browser's, then
 * the instance default. Both queries go through the client, so the pages reuse them instead of
 * fetching them again. Without the config (server unreachable) English still renders and the pages
 * retry the config.
 */
export async function loadSessionStrings(queryClient: QueryClient): Promise<I18n> {
  const [config, user] = await Promise.all([
    queryClient.fetchQuery(configQuery).catch(() => null),
    queryClient.fetchQuery(userQuery).catch(() => null),
  ]);
  const userLocale = user?.data.relationships.settings.data.attributes.locale ?? null;
  return createI18n(config ? localeFor(config, userLocale) : 'en');
}

/**
 * Resolves once the router holds its first page's route modules, or after `waitMs` at most. Rendered
 * before, the frame drew its loader, then rendered again around the page in a transition (in slices):
 * a cold load of a folder painted twice before its file list. The wait is bounded so that a page
 * whose modules come slowly still shows its loader.
 */
export function routerReady(
  router: Pick<ReturnType<typeof createBrowserRouter>, 'state' | 'subscribe'>,
  waitMs: number,
): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop();
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    const stop = router.subscribe((state) => {
      if (state.initialized) done();
    });
  });
}
