import { useQuery, useQueryClient } from '@tanstack/react-query';
import { TimerOff, TriangleAlert } from 'lucide-react';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useOutletContext, useParams } from 'react-router';
import { Avatar } from '../../components/avatar';
import { PageLoader } from '../../components/page-loader';
import { ThemeMenu } from '../../components/theme-menu';
import { Button } from '../../components/ui/button';
import { Logo, LogoMark } from '../../components/ui/logo';
import { ApiError } from '../../lib/api-client';
import { NotFoundPage } from '../public/not-found-page';
import { useConfig } from '../session/session-queries';
import type { AccessLoss } from './share-source';
import { sharingKeys, visitApi, type PublicShare } from './sharing-api';

/** What every share page gets from the layout: the token, the share's detail and the access watch. */
export interface ShareVisit {
  token: string;
  share: PublicShare;
  /** A call of the page was refused as a share call can be: the detail is read again to find the right page. */
  onAccessLost: (status: AccessLoss) => void;
}

export function useShareVisit(): ShareVisit {
  return useOutletContext<ShareVisit>();
}

/** Whether the visitor still has to give the share's password (the detail names the item only after). */
export function isLocked(share: PublicShare): boolean {
  return share.attributes.protected && share.attributes.item_id === undefined;
}

/** The page a share opens on: its password gate, its folder, or its file. */
export function sharePagePath(token: string, share: PublicShare): string {
  if (isLocked(share)) return `/share/${token}/authenticate`;
  return share.attributes.item_type === 'folder' ? `/share/${token}/files` : `/share/${token}/file`;
}

/**
 * The frame of /share/{token}/…: the share's detail decides everything. Unknown or revoked (404)
 * shows NotFound, expired (410) says so, and a protected share sends its pages to the password gate.
 */
export function ShareLayout() {
  const { token = '' } = useParams();
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: sharingKeys.detail(token),
    queryFn: ({ signal }) => visitApi.detail(token, signal),
  });
  const onAccessLost = useCallback(
    (status: AccessLoss) => {
      void queryClient.invalidateQueries({ queryKey: sharingKeys.detail(token) });
      // A lapsed share session (a new password) leaves nothing of the share to show.
      if (status === 401) queryClient.removeQueries({ queryKey: [...sharingKeys.visit(token), 'listing'] });
    },
    [queryClient, token],
  );
  const visit = useMemo(
    () => (detail.data ? { token, share: detail.data, onAccessLost } : null),
    [token, detail.data, onAccessLost],
  );

  if (detail.error instanceof ApiError && detail.error.status === 404) return <NotFoundPage />;
  if (detail.error instanceof ApiError && detail.error.status === 410) return <ShareExpiredPage />;

  return (
    <div className="flex min-h-dvh flex-col">
      <ShareHeader share={detail.data} />
      <main className="mx-auto flex w-full max-w-6xl flex-1 flex-col px-4 py-6 sm:px-8 sm:py-10">
        {visit ? (
          <Outlet context={visit satisfies ShareVisit} />
        ) : detail.isError ? (
          <ShareLoadFailed onRetry={() => void detail.refetch()} />
        ) : (
          <PageLoader />
        )}
      </main>
    </div>
  );
}

function ShareHeader({ share }: { share: PublicShare | undefined }) {
  const { t } = useTranslation();
  const config = useConfig();
  const owner = share?.attributes.owner;
  return (
    <header className="sticky top-0 z-30 border-b border-line bg-paper/85 backdrop-blur-md">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4 sm:px-8">
        <Link to="/" aria-label={config.app.name} className="shrink-0">
          <LogoMark className="sm:hidden" />
          <Logo name={config.app.name} className="hidden sm:inline-flex" />
        </Link>
        <div className="ml-auto flex min-w-0 items-center gap-2">
          {owner && (
            <p className="flex min-w-0 items-center gap-2.5 rounded-full border border-line bg-surface py-1 pr-3.5 pl-1 text-sm shadow-soft">
              <Avatar
                person={{ name: owner.name, email: '', color: 'var(--accent)', avatar: owner.avatar }}
                size={28}
              />
              <span className="min-w-0 truncate">
                <span className="text-muted">{t('sharing.shared_by')}</span>{' '}
                <span className="font-semibold text-ink">{owner.name}</span>
              </span>
            </p>
          )}
          <ThemeMenu />
        </div>
      </div>
    </header>
  );
}

function ShareLoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="m-auto flex max-w-md flex-col items-center gap-4 text-center">
      <span className="grid size-14 place-items-center rounded-2xl bg-danger-soft text-danger">
        <TriangleAlert className="size-7" aria-hidden />
      </span>
      <h1 className="font-display text-2xl font-semibold">{t('sharing.visit_failed')}</h1>
      <p className="text-sm leading-relaxed text-muted">{t('sharing.visit_failed_hint')}</p>
      <Button onClick={onRetry}>{t('sharing.retry')}</Button>
    </div>
  );
}

/** A link whose time ran out (410): said plainly, with nothing of the share shown. */
export function ShareExpiredPage() {
  const { t } = useTranslation();
  return (
    <main className="grid min-h-dvh place-items-center px-6">
      <div className="flex max-w-md flex-col items-center gap-5 text-center">
        <LogoMark className="size-12" />
        <span className="grid size-16 place-items-center rounded-3xl bg-accent-soft text-accent shadow-soft">
          <TimerOff className="size-8" aria-hidden />
        </span>
        <h1 className="font-display text-2xl font-semibold">{t('sharing.expired_title')}</h1>
        <p className="text-sm leading-relaxed text-muted">{t('sharing.expired_body')}</p>
        <Button asChild variant="secondary">
          <Link to="/">{t('not_found.home')}</Link>
        </Button>
      </div>
    </main>
  );
}

/** /share/{token}: straight on to the page the share opens on. */
export function ShareEntryPage() {
  const { token, share } = useShareVisit();
  return <Navigate to={sharePagePath(token, share)} replace />;
}
