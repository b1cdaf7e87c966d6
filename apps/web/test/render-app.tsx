import { en, type PublicConfig, type UserResource } from '@atelier/contracts';
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { createMemoryRouter } from 'react-router';
import { App } from '../src/app/app';
import { routes } from '../src/app/routes';
import { configQuery, userQueryKey } from '../src/features/session/session-queries';
import { buildConfig } from './fixtures';

/** An i18n instance with the bundled English map (the server serves the same map in production). */
export async function createTestI18n(resources: Record<string, string> = en) {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    lng: 'en',
    // A copy: i18next keeps the object it is given, and a test's addResource would change the strings
    // of every later file in the worker (they share a module graph, vitest.config.ts).
    resources: { en: { translation: { ...resources } } },
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    showSupportNotice: false,
  });
  return instance;
}

export function createTestQueryClient(config: PublicConfig, user: UserResource | null) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  queryClient.setQueryData(configQuery.queryKey, config);
  queryClient.setQueryData(userQueryKey, user);
  return queryClient;
}

/** Renders the real route tree at `path` with a known config and (maybe) a signed-in user. */
export async function renderApp(
  path: string,
  { config = buildConfig(), user = null as UserResource | null } = {},
) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createTestQueryClient(config, user);
  const i18n = await createTestI18n();
  const view = render(<App queryClient={queryClient} i18n={i18n} router={router} />);
  return { ...view, router, queryClient };
}

export function currentUrl(router: { state: { location: { pathname: string; search: string } } }) {
  return router.state.location.pathname + router.state.location.search;
}
