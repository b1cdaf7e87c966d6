import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button } from '../../components/ui/button';
import { NotFoundPage } from './not-found-page';

/** A page module that fails to load (usually a new deploy) or a render error. */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <main className="grid min-h-dvh place-items-center px-6">
      <div role="alert" className="flex max-w-md flex-col items-center gap-4 text-center">
        <h1 className="font-display text-2xl font-semibold">{t('popup_error.title')}</h1>
        <p className="text-sm leading-relaxed text-muted">{t('route_error.body')}</p>
        <Button onClick={() => window.location.reload()}>{t('route_error.reload')}</Button>
      </div>
    </main>
  );
}
