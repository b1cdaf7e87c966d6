import { useCallback, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { showAlert } from '../../components/overlays/overlay-store';
import { startDownload } from '../../lib/start-download';
import { useSession } from '../session/session-queries';

/**
 * The click handler of a link that downloads the signed-in person's own files (a studio's outputs,
 * its zips): while downloads are restricted it holds the link back and shows the description's
 * "temporarily disabled" alert, as every other download does.
 */
export function useDownloadGate(): (event: MouseEvent) => void {
  const mayDownload = useDownloadAllowed();
  return useCallback(
    (event: MouseEvent) => {
      if (!mayDownload()) event.preventDefault();
    },
    [mayDownload],
  );
}

/** Downloads one of the person's own files from a button, under the same rule as the gate's links. */
export function useGatedDownload(): (url: string) => void {
  const mayDownload = useDownloadAllowed();
  return useCallback((url: string) => mayDownload() && startDownload(url), [mayDownload]);
}

/** Whether a download may start now; when not, the description's alert says so. */
function useDownloadAllowed(): () => boolean {
  const { t } = useTranslation();
  const { resource } = useSession();
  const restricted = resource?.meta.restrictions.canDownload === false;
  return useCallback(() => {
    if (restricted)
      showAlert(t('download_temporarily_disabled.title'), t('download_temporarily_disabled.message'));
    return !restricted;
  }, [restricted, t]);
}
