import type { RealtimePayload } from '@atelier/contracts';
import { TOAST_DURATION_MS } from '@atelier/contracts/constants';
import { X } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { createStore, useStore } from '../../lib/create-store';
import { CATEGORY_ICONS } from './notification-centre';

type Incoming = RealtimePayload<'notification'>;

const toastStore = createStore<Incoming[]>([]);

export function showNotificationToast(notification: Incoming) {
  toastStore.set((toasts) => [...toasts.filter((t) => t.id !== notification.id), notification]);
}

function dismiss(id: string) {
  toastStore.set((toasts) => toasts.filter((t) => t.id !== id));
}

function NotificationToast({ notification }: { notification: Incoming }) {
  const { t } = useTranslation();
  useEffect(() => {
    const timer = setTimeout(() => dismiss(notification.id), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [notification.id]);
  const Icon = CATEGORY_ICONS[notification.category];
  return (
    <li
      role="status"
      className="pointer-events-auto relative w-full animate-rise-in overflow-hidden rounded-2xl border border-line bg-surface shadow-lift sm:w-96"
    >
      <div className="flex items-start gap-3 p-4 pr-11">
        <span className="grid size-9 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent">
          <Icon className="size-[18px]" aria-hidden />
        </span>
        <div className="min-w-0">
          <p className="text-sm font-medium">{notification.title}</p>
          {notification.description && (
            <p className="mt-0.5 text-xs leading-relaxed break-words text-muted">
              {notification.description}
            </p>
          )}
        </div>
      </div>
      <button
        type="button"
        onClick={() => dismiss(notification.id)}
        aria-label={t('actions.close')}
        className="absolute top-3 right-3 grid size-7 cursor-pointer place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-ink"
      >
        <X className="size-4" aria-hidden />
      </button>
      <span
        className="absolute inset-x-0 bottom-0 h-1 origin-left bg-accent"
        style={{ animation: `toast-progress ${TOAST_DURATION_MS}ms linear forwards` }}
      />
    </li>
  );
}

/** Incoming notifications, top right (top on phones), each leaving by itself after the toast time. */
export function NotificationToasts() {
  const toasts = useStore(toastStore, (state) => state);
  return (
    <ol
      aria-live="polite"
      className="pointer-events-none fixed inset-x-4 top-4 z-[60] flex flex-col items-end gap-2 sm:inset-x-auto sm:top-20 sm:right-6"
    >
      {toasts.map((notification) => (
        <NotificationToast key={notification.id} notification={notification} />
      ))}
    </ol>
  );
}
