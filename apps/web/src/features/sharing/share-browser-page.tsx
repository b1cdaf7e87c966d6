import { Download } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { FileBrowser } from '../files/file-browser';
import { useListing } from '../files/listing-cache';
import { useSortOrder } from '../files/view-preferences';
import { isLocked, sharePagePath, useShareVisit, type ShareVisit } from './share-layout';
import { createShareSource, sharedZipUrl } from './share-source';

/** /share/{token}/files/{id?}: the shared folder in the file manager, confined to the share. */
export function ShareBrowserPage() {
  const visit = useShareVisit();
  if (isLocked(visit.share) || visit.share.attributes.item_type !== 'folder')
    return <Navigate to={sharePagePath(visit.token, visit.share)} replace />;
  return <ShareBrowser {...visit} />;
}

function ShareBrowser({ token, share, onAccessLost }: ShareVisit) {
  const { t } = useTranslation();
  const { id } = useParams();
  const { permission, item_id: rootId = null } = share.attributes;
  const source = useMemo(
    () => createShareSource({ token, permission, rootId, onAccessLost }),
    [token, permission, rootId, onAccessLost],
  );
  // The top listing (the browser's own while it shows the top) names the shared folder.
  const [order] = useSortOrder();
  const top = useListing(source, { kind: 'folder', id: null }, order);
  const folderName = top.data?.root?.attributes.name ?? t('sharing.shared_folder');

  return (
    <FileBrowser
      variant="files"
      folderId={id ?? null}
      source={source}
      topLabel={folderName}
      eyebrow={permission === 'editor' ? t('sharing.you_can_edit') : t('sharing.view_only')}
      headerActions={
        <Button asChild variant="secondary">
          <a href={sharedZipUrl(token, [])} download aria-label={t('sharing.download_all')}>
            <Download className="size-4" aria-hidden />
            {/* Phones keep one row of buttons: the icon alone says it there. */}
            <span className={permission === 'editor' ? 'hidden sm:inline' : undefined}>
              {t('sharing.download_all')}
            </span>
          </a>
        </Button>
      }
    />
  );
}
