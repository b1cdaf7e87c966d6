import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { FileBrowser } from '../files/file-browser';
import type { FileSource } from '../files/file-source';
import { useListing } from '../files/listing-cache';
import { useSortOrder } from '../files/view-preferences';
import { sharePagePath, useShareVisit } from './share-layout';
import { sharedZipUrl } from './share-source';
import { displayFileName } from '../../lib/file-name';

/** /share/{token}/files/{id?}: the shared folder in the file manager, confined to the share. */
export function ShareBrowserPage() {
  const { token, share, source } = useShareVisit();
  // No source: a file share, or one still asking for its password.
  if (!source) return <Navigate to={sharePagePath(token, share)} replace />;
  return <ShareBrowser token={token} source={source} />;
}

function ShareBrowser({ token, source }: { token: string; source: FileSource }) {
  const { t } = useTranslation();
  const { id } = useParams();
  // The top listing (the browser's own while it shows the top) names the shared folder.
  const [order] = useSortOrder();
  const top = useListing(source, { kind: 'folder', id: null }, order);
  const folderName = top.data?.root
    ? displayFileName(top.data.root.attributes.name)
    : t('sharing.shared_folder');
  // Inside a subfolder, the button takes what is open: that folder, not the whole share.
  const download = id
    ? { url: sharedZipUrl(token, [{ id, type: 'folder' }]), label: t('sharing.download_folder') }
    : { url: sharedZipUrl(token, []), label: t('sharing.download_all') };

  return (
    <FileBrowser
      variant="files"
      folderId={id ?? null}
      source={source}
      topLabel={folderName}
      eyebrow={source.writable ? t('sharing.you_can_edit') : t('sharing.view_only')}
      headerActions={
        <Button asChild variant="secondary">
          <a href={download.url} download aria-label={download.label}>
            <Download className="size-4" aria-hidden />
            {/* Phones keep one row of buttons: the icon alone says it there. */}
            <span className={source.writable ? 'hidden sm:inline' : undefined}>{download.label}</span>
          </a>
        </Button>
      }
    />
  );
}
