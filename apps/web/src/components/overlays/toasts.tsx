import { CircleAlert, CircleCheck, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cn } from '../../lib/cn';
import { useStore } from '../../lib/create-store';
import { dismissToast, overlayStore, type Toast, type ToastAction } from './overlay-store';

const ACTION_CLASS =
  'cursor-pointer rounded-lg px-2.5 py-1 text-sm font-semibold text-accent hover:bg-accent-soft focus-visible:bg-accent-soft';

/** A toast's button: it does its part and the toast leaves, its work done. */
function ToastActionButton({ action, toastId }: { action: ToastAction; toastId: number }) {
  const dismiss = () => dismissToast(toastId);
  if ('to' in action)
    return (
      <Link to={action.to} onClick={dismiss} className={ACTION_CLASS}>
        {action.label}
      </Link>
    );
  return (
    <button
      type="button"
      className={ACTION_CLASS}
      onClick={() => {
        dismiss();
        action.run();
      }}
    >
      {action.label}
    </button>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  // Held while the pointer or the keyboard is on it, so its Undo can be reached in time (WCAG 2.2.1).
  const [held, setHeld] = useState(false);
  const remaining = useRef(toast.durationMs);
  useEffect(() => {
    if (held) return;
    const started = Date.now();
    const timer = setTimeout(() => dismissToast(toast.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - started;
    };
  }, [toast.id, held]);

  const Icon = toast.kind === 'success' ? CircleCheck : CircleAlert;
  return (
    <li
      role={toast.kind === 'danger' ? 'alert' : 'status'}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setHeld(false);
      }}
      className="pointer-events-auto relative w-full animate-rise-in overflow-hidden rounded-2xl border border-line bg-surface shadow-lift sm:w-96"
    >
      <div className="flex items-start gap-3 p-4 pr-11">
        <Icon
          className={cn('mt-0.5 size-5 shrink-0', toast.kind === 'success' ? 'text-success' : 'text-danger')}
          aria-hidden
        />
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <p className="text-sm leading-relaxed">{toast.message}</p>
          {toast.actions && toast.actions.length > 0 && (
            <div className="-ml-2.5 flex flex-wrap gap-1">
              {toast.actions.map((action) => (
                <ToastActionButton key={action.label} action={action} toastId={toast.id} />
              ))}
            </div>
          )}
        </div>
      </div>
      <button
        type="button"
        onClick={() => dismissToast(toast.id)}
        aria-label={t('actions.close')}
        className="absolute top-3 right-3 grid size-7 cursor-pointer place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-ink"
      >
        <X className="size-4" aria-hidden />
      </button>
      <span
        data-testid="toast-progress"
        className={cn(
          'absolute inset-x-0 bottom-0 h-1 origin-left',
          toast.kind === 'success' ? 'bg-success' : 'bg-danger',
        )}
        style={{
          animation: `toast-progress ${toast.durationMs}ms linear forwards`,
          animationPlayState: held ? 'paused' : 'running',
        }}
      />
    </li>
  );
}

/**
 * Success and danger toasts; each leaves by itself after TOAST_DURATION_MS with a draining bar. They
 * stack above the cookie banner while it shows (it reserves its space).
 */
export function Toasts() {
  const toasts = useStore(overlayStore, (state) => state.toasts);
  return (
    <ol className="pointer-events-none fixed inset-x-4 bottom-[calc(1rem_+_var(--cookie-banner-space,0px))] z-[60] flex flex-col items-end gap-2 sm:inset-x-auto sm:right-6 sm:bottom-[calc(1.5rem_+_var(--cookie-banner-space,0px))]">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </ol>
  );
}
