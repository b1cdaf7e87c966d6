import type { Paginate } from '@atelier/contracts';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';

/** The heading of an admin screen: the area, the title, and the screen's main actions. */
export function AdminHeader({
  title,
  lead,
  children,
}: {
  title: string;
  lead?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <header className="flex flex-wrap items-end justify-between gap-4">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">{t('admin.area')}</p>
        <h1 className="font-display text-3xl font-semibold tracking-tight sm:text-4xl">{title}</h1>
        {lead && <p className="max-w-2xl text-sm text-muted">{lead}</p>}
      </div>
      {children && <div className="flex flex-wrap items-center gap-2">{children}</div>}
    </header>
  );
}

/** A page's loading or failed state, in the card the content would fill. */
export function LoadState({ failed }: { failed: boolean }) {
  const { t } = useTranslation();
  return (
    <Card className="grid h-64 place-items-center text-sm text-muted">
      {failed ? t('files.load_failed') : <Spinner className="size-6" label={t('files.loading')} />}
    </Card>
  );
}

/** Previous and next under a paged list, with where the reader is; nothing for a single page. */
export function Pager({ paginate, onPage }: { paginate: Paginate; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  if (paginate.last_page <= 1) return null;
  const page = paginate.current_page;
  return (
    <nav className="flex items-center justify-between gap-3" aria-label={t('admin_users.pages')}>
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <ChevronLeft className="size-4" aria-hidden />
        {t('admin_users.previous')}
      </Button>
      <p className="text-sm text-muted tabular-nums">
        {t('admin_users.page_of', { page, last: paginate.last_page, total: paginate.total })}
      </p>
      <Button variant="secondary" disabled={page >= paginate.last_page} onClick={() => onPage(page + 1)}>
        {t('admin_users.next')}
        <ChevronRight className="size-4" aria-hidden />
      </Button>
    </nav>
  );
}
