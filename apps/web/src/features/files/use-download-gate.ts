import { useCallback, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { showAlert } from '../../components/overlays/overlay-store';
import { useSession } from '../session/session-queries';

/**
 * The click handler of a link that downloads the signed-in person's own files (a studio's outputs,
 * its zips): while downloads are restricted it holds the link back and shows the description's
 * "temporarily disabled" alert, as every other download does.
 */
export function useDownloadGate(): (event: MouseEvent) => void {
  const { t } = useTranslation();
  const { resource } = useSession();
  const restricted = resource?.meta.restrictions.canDownload === false;
  return useCallback(
    (event: MouseEvent) => {
      if (!restricted) return;
      event.preventDefault();
      showAlert(t('download_temporarily_disabled.title'), t('download_temporarily_disabled.message'));
    },
    [restricted, t],
  );
}
