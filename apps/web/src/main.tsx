import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app/app';
import { createQueryClient } from './app/query-client';
import { routes } from './app/routes';
import { configQuery, userQueryKey } from './features/session/session-queries';
import { applyStoredTheme } from './features/theme/theme-provider';
import { setUnauthorizedHandler } from './lib/api-client';
import { createI18n } from './lib/i18n';
import './index.css';

applyStoredTheme();
const queryClient = createQueryClient();
// A 401/403 anywhere means the session is gone: forget the user and the guards send them to SignIn.
setUnauthorizedHandler(() => queryClient.setQueryData(userQueryKey, null));

// The locale comes from the instance config; without it (server unreachable) English still renders
// and the root layout retries the config.
const config = await queryClient.fetchQuery(configQuery).catch(() => null);
const i18n = await createI18n(config?.locale ?? 'en');

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App queryClient={queryClient} i18n={i18n} router={createBrowserRouter(routes)} />
  </StrictMode>,
);
