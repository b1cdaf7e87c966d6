import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Clock, Link2Off, TimerOff, TriangleAlert } from 'lucide-react';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useOutletContext, useParams } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { Spotlight, SpotlightButton, useSpotlightShortcut } from '../../components/overlays/spotlight';
import { FrameNotice, PublicFrame } from '../../components/public-frame';
import { Button } from '../../components/ui/button';
import { Logo } from '../../components/ui/logo';
import { ApiError } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format-date';
import type { SearchableSource } from '../files/file-source';
import type { AccessLoss } from '../files/token-source';
import { NotFoundPage } from '../public/not-found-page';
import { useConfig } from '../session/session-queries';
import { createShareSource } from './share-source';
import { sharingKeys, visitApi, type PublicShare } from './sharing-api';

/** What every share page gets from the layout: the token, the share's detail and the access watch. */
export interface ShareVisit {
  token: string;
  share: PublicShare;
  /** A call of the page was refused as a share call can be: the detail is read again to find the right page. */
  onAccessLost: (status: AccessLoss) => void;
  /** The shared folder as a file source, once the visitor may browse it (null: a file, or still locked). */
  source: SearchableSource | null;
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

/** The source of a folder share the visitor may browse; one per share, whichever page shows it. */
function useShareFolder(
  token: string,
  share: PublicShare | undefined,
  onAccessLost: (status: AccessLoss) => void,
): SearchableSource | null {
  const folder =
    share && !isLocked(share) && share.attributes.item_type === 'folder' ? share.attributes : undefined;
  const permission = folder?.permission;
  const rootId = folder?.item_id ?? null;
  return useMemo(
    () => (permission ? createShareSource({ token, permission, rootId, onAccessLost }) : null),
    [token, permission, rootId, onAccessLost],
  );
}

/**
 * The frame of /share/{token}/…: the share's detail decides everything. Unknown (404) shows
 * NotFound, revoked or expired (410) says so and whom to ask, and a protected share sends its pages
 * to the password gate.
 */
export function ShareLayout() {
  const { t } = useTranslation();
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
  const source = useShareFolder(token, detail.data, onAccessLost);
  useSpotlightShortcut(source !== null);
  const visit = useMemo(
    () => (detail.data ? { token, share: detail.data, onAccessLost, source } : null),
    [token, detail.data, onAccessLost, source],
  );

  if (detail.error instanceof ApiError && detail.error.status === 404) return <NotFoundPage />;
  if (detail.error instanceof ApiError && detail.error.status === 410)
    return <ShareEndedPage refusal={detail.error} />;

  return (
    <PublicFrame
      owner={detail.data?.attributes.owner}
      ownerLabel={t('sharing.shared_by')}
      search={source && <SpotlightButton label={t('sharing.search')} className="sm:w-72" />}
    >
      {visit ? (
        <>
          {visit.share.attributes.expires_at && <AvailableUntil iso={visit.share.attributes.expires_at} />}
          <Outlet context={visit satisfies ShareVisit} />
        </>
      ) : detail.isError ? (
        <FrameNotice
          icon={TriangleAlert}
          tone="danger"
          title={t('sharing.visit_failed')}
          body={t('sharing.visit_failed_hint')}
          alert
        >
          <Button onClick={() => void detail.refetch()}>{t('sharing.retry')}</Button>
        </FrameNotice>
      ) : (
        <PageLoader />
      )}
      {source && <Spotlight source={source} label={t('sharing.search')} />}
    </PublicFrame>
  );
}

/** Until when the link works, above what it shows, so a visitor knows to fetch the files in time. */
function AvailableUntil({ iso }: { iso: string }) {
  const { t, i18n } = useTranslation();
  return (
    <p className="mb-4 flex items-center gap-2 self-start rounded-full bg-surface-2 px-3 py-1 text-xs font-medium text-muted">
      <Clock className="size-3.5" aria-hidden />
      {t('sharing.available_until', { date: formatDateTime(iso, i18n.language) })}
    </p>
  );
}

/**
 * A link that stopped working (410): revoked by its owner or out of time, said plainly with when and
 * whom to ask for a new one, and nothing of the share shown.
 */
export function ShareEndedPage({ refusal }: { refusal: ApiError }) {
  const { t, i18n } = useTranslation();
  const appName = useConfig().app.name;
  const revoked = refusal.code === 'share_revoked';
  const ended = refusal.ended;
  const Icon = revoked ? Link2Off : TimerOff;
  return (
    <main className="grid min-h-dvh place-items-center px-6">
      <div className="flex max-w-md flex-col items-center gap-5 text-center">
        <Logo name={appName} className="mb-3" />
        <span className="grid size-16 place-items-center rounded-3xl bg-accent-soft text-accent shadow-soft">
          <Icon className="size-8" aria-hidden />
        </span>
        <h1 className="font-display text-2xl font-semibold">
          {t(revoked ? 'sharing.revoked_title' : 'sharing.expired_title')}
        </h1>
        <p className="text-sm leading-relaxed text-muted">
          {ended
            ? t(revoked ? 'sharing.revoked_body' : 'sharing.expired_since_body', {
                name: ended.owner.name,
                date: formatDateTime(ended.ended_at, i18n.language),
              })
            : t('sharing.expired_body')}
        </p>
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
