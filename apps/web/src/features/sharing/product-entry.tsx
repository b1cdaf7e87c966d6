import { useQuery } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../components/page-loader';
import { FrameNotice, PublicFrame } from '../../components/public-frame';
import { ApiError } from '../../lib/api-client';
import { useConfig } from '../session/session-queries';
import { EmbedLocked, isEmbedded } from './product-embed';
import { ProductPage } from './product-page';
import { AvailableUntil, ShareEndedPage, VisitFailed } from './share-notices';
import { isLocked, productGatePath, shareDetailQuery } from './sharing-api';

/**
 * The product page as its own entry shows it, deciding from the share's detail as the app's share
 * frame does: a revoked or expired link says so, an unknown one that there is no product, and a
 * protected one goes to the app's password gate, which comes back to the page. In a shop's frame
 * (`?embed=1`) the page goes without the site's frame, and a protected one sends to the page itself.
 */
export function ProductEntry({ token }: { token: string }) {
  const { t } = useTranslation();
  const [embedded] = useState(isEmbedded);
  const detail = useQuery(shareDetailQuery(token));
  const locked = detail.data !== undefined && isLocked(detail.data);
  const appName = useConfig().app.name;
  useEffect(() => {
    if (locked && !embedded) window.location.replace(productGatePath(token));
  }, [locked, embedded, token]);
  // As the app titles the same page (its route's title).
  useEffect(() => {
    document.title = `${t('pages.product')} · ${appName}`;
  }, [t, appName]);

  if (detail.error instanceof ApiError && detail.error.status === 410)
    return <ShareEndedPage refusal={detail.error} />;
  const share = detail.data;
  const content =
    share && !locked ? (
      embedded ? (
        <ProductPage token={token} embedded />
      ) : (
        <>
          {share.attributes.expires_at && <AvailableUntil iso={share.attributes.expires_at} />}
          <ProductPage token={token} />
        </>
      )
    ) : locked && embedded ? (
      <EmbedLocked token={token} />
    ) : detail.error instanceof ApiError && detail.error.status === 404 ? (
      <FrameNotice icon={TriangleAlert} title={t('pages.product')} body={t('product.none')} />
    ) : detail.isError ? (
      <VisitFailed onRetry={() => void detail.refetch()} />
    ) : (
      <PageLoader />
    );
  if (embedded) return <main className="flex h-dvh flex-col overflow-hidden">{content}</main>;
  return (
    <PublicFrame owner={share?.attributes.owner} ownerLabel={t('sharing.shared_by')}>
      {content}
    </PublicFrame>
  );
}
