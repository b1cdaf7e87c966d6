import { useTranslation } from 'react-i18next';
import { useStore } from '../../lib/create-store';
import { Modal } from '../ui/modal';
import { Spinner } from '../ui/spinner';
import { overlayStore } from './overlay-store';

/** The full-screen spinner while a blocking task runs. */
export function BusySpinner() {
  const { t } = useTranslation();
  const busy = useStore(overlayStore, (state) => state.busy > 0);
  if (!busy) return null;
  return (
    <div className="fixed inset-0 z-[70] grid animate-fade-in place-items-center bg-backdrop">
      <Spinner className="size-9 text-on-accent" label={t('common.loading')} />
    </div>
  );
}

/** "Logging Out / Wait a second..." for a logout slower than the popup delay. */
export function LoggingOutPopup() {
  const { t } = useTranslation();
  const open = useStore(overlayStore, (state) => state.loggingOut);
  return (
    <Modal
      open={open}
      onOpenChange={() => undefined}
      title={t('logout.title')}
      description={t('logout.message')}
      className="max-w-xs text-center"
    >
      <div className="mt-5 flex justify-center text-accent">
        <Spinner className="size-7" />
      </div>
    </Modal>
  );
}
