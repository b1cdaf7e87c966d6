import { useQuery } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../components/page-loader';
import { FrameNotice, PublicFrame } from '../../components/public-frame';
import { ApiError } from '../../lib/api-client';
import { useConfig } from '../session/session-queries';
import { ProductPage } from './product-page';
import { AvailableUntil, ShareEndedPage, VisitFailed } from './share-notices';
import { isLocked, productGatePath, shareDetailQuery } from './sharing-api';

/**
 * The product page as its own entry shows it, deciding from the share's detail as the app's share
 * frame does: a revoked or expired link says so, an unknown one that there is no product, and a
 * protected one goes to the app's password gate, which comes back to the page.
 */
export function ProductEntry({ token }: { token: string }) {
  const { t } = useTranslation();
  const detail = useQuery(shareDetailQuery(token));
  const locked = detail.data !== undefined && isLocked(detail.data);
  const appName = useConfig().app.name;
  useEffect(() => {
    if (locked) window.location.replace(productGatePath(token));
  }, [locked, token]);
  // As the app titles the same page (its route's title).
  useEffect(() => {
    document.title = `${t('pages.product')} · ${appName}`;
  }, [t, appName]);

  if (detail.error instanceof ApiError && detail.error.status === 410)
    return <ShareEndedPage refusal={detail.error} />;
  const share = detail.data;
  return (
    <PublicFrame owner={share?.attributes.owner} ownerLabel={t('sharing.shared_by')}>
      {share && !locked ? (
        <>
          {share.attributes.expires_at && <AvailableUntil iso={share.attributes.expires_at} />}
          <ProductPage token={token} />
        </>
      ) : detail.error instanceof ApiError && detail.error.status === 404 ? (
        <FrameNotice icon={TriangleAlert} title={t('pages.product')} body={t('product.none')} />
      ) : detail.isError ? (
        <VisitFailed onRetry={() => void detail.refetch()} />
      ) : (
        <PageLoader />
      )}
    </PublicFrame>
  );
}
