import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { Suspense, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BootErrorBoundary } from '../components/boot-error-boundary';
import { ThemeProvider } from '../features/theme/theme-provider';

interface AppProvidersProps {
  queryClient: QueryClient;
  i18n: I18n;
  children: ReactNode;
}

/** What every entry's pages stand in: the queries, the strings, the boot error and the theme. */
export function AppProviders({ queryClient, i18n, children }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <BootErrorBoundary>
          <Suspense>
            <ThemeProvider>{children}</ThemeProvider>
          </Suspense>
        </BootErrorBoundary>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
