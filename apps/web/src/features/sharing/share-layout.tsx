import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useOutletContext, useParams } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { Spotlight, SpotlightButton, useSpotlightShortcut } from '../../components/overlays/spotlight';
import { PublicFrame } from '../../components/public-frame';
import { ApiError } from '../../lib/api-client';
import type { SearchableSource } from '../files/file-source';
import type { AccessLoss } from '../files/token-source';
import { NotFoundPage } from '../public/not-found-page';
import { createShareSource } from './share-source';
import { AvailableUntil, ShareEndedPage, VisitFailed } from './share-notices';
import { isLocked, shareDetailQuery, sharingKeys, type PublicShare } from './sharing-api';

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
  const detail = useQuery(shareDetailQuery(token));
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
        <VisitFailed onRetry={() => void detail.refetch()} />
      ) : (
        <PageLoader />
      )}
      {source && <Spotlight source={source} label={t('sharing.search')} />}
    </PublicFrame>
  );
}

/** /share/{token}: straight on to the page the share opens on. */
export function ShareEntryPage() {
  const { token, share } = useShareVisit();
  return <Navigate to={sharePagePath(token, share)} replace />;
}
