import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app/app';
import { createQueryClient } from './app/query-client';
import { routes } from './app/routes';
import { loadSessionStrings, routerReady } from './app/boot';
import { userQueryKey } from './features/session/session-queries';
import { applyStoredTheme } from './features/theme/theme-provider';
import { setUnauthorizedHandler } from './lib/api-client';
import { prefetchLikelyStrings } from './lib/i18n';
import './index.css';

applyStoredTheme();
const queryClient = createQueryClient();
// A 401/403 anywhere means the session is gone: forget the user and the guards send them to SignIn.
setUnauthorizedHandler(() => queryClient.setQueryData(userQueryKey, null));

// Asked for before the router asks for the page's modules: those are many and a browser sends six
// requests at a time to one server. The likely strings and an open folder's first page go first too,
// so they are there when the modules are.
prefetchLikelyStrings();
if (window.location.pathname.startsWith('/platform/files'))
  void import('./features/files/listing-prefetch').then(({ prefetchOpenFolder }) =>
    prefetchOpenFolder(queryClient, window.location.pathname),
  );
const strings = loadSessionStrings(queryClient);
// Made before waiting, so the page's modules load while the config, the user and the strings do.
const router = createBrowserRouter(routes);
// The first render waits for the page's route modules too: a screen's are named in the page, so they
// arrive with the entry, and the page renders once instead of after a loader (the logout rule's 300 ms
// bounds the wait for one that comes slowly).
const routed = routerReady(router, 300);
// No top-level await: in a module with one, the bundler keeps every module it shares with what it
// imports on demand out of the entry's chunk (awaiting could deadlock), which split the entry in 20.
void Promise.all([strings, routed]).then(([i18n]) =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App queryClient={queryClient} i18n={i18n} router={router} />
    </StrictMode>,
  ),
);
