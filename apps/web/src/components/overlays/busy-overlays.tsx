import { useTranslation } from 'react-i18next';
import { useStore } from '../../lib/create-store';
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
