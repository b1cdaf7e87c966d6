import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { BootErrorBoundary } from '../components/boot-error-boundary';
import { ThemeProvider } from '../features/theme/theme-provider';

interface AppProps {
  queryClient: QueryClient;
  i18n: I18n;
  router: ReturnType<typeof createBrowserRouter>;
}

/** Providers around the router; main.tsx and the component tests assemble the same tree. */
export function App({ queryClient, i18n, router }: AppProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <BootErrorBoundary>
          <Suspense>
            <ThemeProvider>
              <RouterProvider router={router} />
            </ThemeProvider>
          </Suspense>
        </BootErrorBoundary>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
