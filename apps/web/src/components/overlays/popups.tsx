import { CircleAlert, CircleCheck, CircleHelp } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { useStore } from '../../lib/create-store';
import { Button } from '../ui/button';
import { Modal } from '../ui/modal';
import { Spinner } from '../ui/spinner';
import { closePopup, overlayStore } from './overlay-store';

/** The description fixes this English label for when the translation is missing. */
export const ALERT_CONFIRM_FALLBACK = "That's horrible!";

const tone = {
  alert: { icon: CircleAlert, className: 'bg-danger-soft text-danger' },
  success: { icon: CircleCheck, className: 'bg-success-soft text-success' },
  confirm: { icon: CircleHelp, className: 'bg-accent-soft text-accent' },
} as const;

/** Alert, success and confirm popups; one at a time, Escape or a backdrop click dismisses. */
export function Popups() {
  const { t } = useTranslation();
  const popup = useStore(overlayStore, (state) => state.popup);
  if (!popup) return null;
  const { icon: Icon, className } = tone[popup.kind];
  return (
    <Modal
      open
      onOpenChange={(open) => !open && closePopup(false)}
      title={
        <span className="flex flex-col items-center gap-4 text-center">
          <span className={cn('grid size-14 place-items-center rounded-2xl', className)}>
            <Icon className="size-7" aria-hidden />
          </span>
          {popup.title}
        </span>
      }
      description={popup.message && <span className="block text-center">{popup.message}</span>}
      className="max-w-sm"
    >
      <div className="mt-6 flex flex-col gap-2">
        {popup.kind === 'confirm' ? (
          <>
            <Button variant={popup.danger ? 'danger' : 'primary'} onClick={() => closePopup(true)}>
              {popup.confirmLabel ?? t('actions.confirm')}
            </Button>
            <Button variant="ghost" onClick={() => closePopup(false)}>
              {t('actions.cancel')}
            </Button>
          </>
        ) : (
          <Button variant={popup.kind === 'alert' ? 'danger' : 'primary'} onClick={() => closePopup()}>
            {popup.kind === 'alert'
              ? t('alerts.error_confirm', { defaultValue: ALERT_CONFIRM_FALLBACK })
              : t('alerts.success_confirm')}
          </Button>
        )}
      </div>
    </Modal>
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
        <Spinner className="size-7" label={t('common.loading')} />
      </div>
    </Modal>
  );
}

/** Every dialog overlay, for the root layout to load with the first one shown. */
export function Dialogs() {
  return (
    <>
      <Popups />
      <LoggingOutPopup />
    </>
  );
}
