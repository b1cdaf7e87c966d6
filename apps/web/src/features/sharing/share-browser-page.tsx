import { Download } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { FileBrowser } from '../files/file-browser';
import { isLocked, sharePagePath, useShareVisit } from './share-layout';
import { createShareSource } from './share-source';

/** /share/{token}/files/{id?}: the shared folder in the file manager, confined to the share. */
export function ShareBrowserPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const { token, share, onAccessLost } = useShareVisit();
  const { permission, item_id: rootId = null } = share.attributes;
  const source = useMemo(
    () => createShareSource({ token, permission, rootId, onAccessLost }),
    [token, permission, rootId, onAccessLost],
  );

  if (isLocked(share) || share.attributes.item_type !== 'folder')
    return <Navigate to={sharePagePath(token, share)} replace />;

  return (
    <FileBrowser
      variant="files"
      folderId={id ?? null}
      source={source}
      topLabel={t('sharing.shared_folder')}
      eyebrow={permission === 'editor' ? t('sharing.you_can_edit') : t('sharing.view_only')}
      headerActions={
        <Button asChild variant="secondary">
          <a href={source.zipUrl([])} download>
            <Download className="size-4" aria-hidden />
            {t('sharing.download_all')}
          </a>
        </Button>
      }
    />
  );
}
