import type { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { AppProviders } from './app-providers';

interface AppProps {
  queryClient: QueryClient;
  i18n: I18n;
  router: ReturnType<typeof createBrowserRouter>;
}

/** Providers around the router; main.tsx and the component tests assemble the same tree. */
export function App({ queryClient, i18n, router }: AppProps) {
  return (
    <AppProviders queryClient={queryClient} i18n={i18n}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
