import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { LogoMark } from '../../components/ui/logo';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <main className="grid min-h-dvh place-items-center px-6">
      <div className="flex max-w-md flex-col items-center gap-5 text-center">
        <LogoMark className="size-12" />
        <p className="font-display text-7xl font-semibold tracking-tight text-accent">404</p>
        <h1 className="font-display text-2xl font-semibold">{t('not_found.title')}</h1>
        <p className="text-sm leading-relaxed text-muted">{t('not_found.body')}</p>
        <Button asChild>
          <Link to="/">{t('not_found.home')}</Link>
        </Button>
      </div>
    </main>
  );
}
