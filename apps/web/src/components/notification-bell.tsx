import { NOTIFICATION_CENTRE_WIDTH_PX } from '@atelier/contracts';
import { Bell, BellRing } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useTranslation } from 'react-i18next';

/** The bell and its badge; the centre opens as a 360 px popover that Escape closes. */
export function NotificationBell({ unread }: { unread: number }) {
  const { t } = useTranslation();
  return (
    <Popover.Root>
      <Popover.Trigger
        className="relative grid size-10 cursor-pointer place-items-center rounded-xl text-muted transition-colors hover:bg-surface-2 hover:text-ink data-[state=open]:bg-surface-2 data-[state=open]:text-ink"
        aria-label={t('notifications.open', { count: unread })}
      >
        <Bell className="size-5" aria-hidden />
        {unread > 0 && (
          <span
            data-testid="notification-badge"
            className="absolute top-1 right-1 grid h-[18px] min-w-[18px] place-items-center rounded-full bg-accent px-1 text-[11px] leading-none font-semibold text-on-accent ring-2 ring-paper"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={8}
          collisionPadding={12}
          style={{ width: `min(${NOTIFICATION_CENTRE_WIDTH_PX}px, calc(100vw - 24px))` }}
          className="z-40 animate-rise-in rounded-2xl border border-line bg-surface p-2 shadow-lift focus:outline-none"
        >
          <div className="flex items-center justify-between px-3 py-2">
            <h2 className="font-display text-base font-semibold">{t('notifications.title')}</h2>
            {unread > 0 && (
              <span className="text-xs text-muted">{t('notifications.unread', { count: unread })}</span>
            )}
          </div>
          <div className="flex flex-col items-center gap-2 px-6 py-8 text-center">
            <span className="grid size-12 place-items-center rounded-2xl bg-accent-soft text-accent">
              <BellRing className="size-6" aria-hidden />
            </span>
            <p className="text-sm font-medium">{t('notifications.empty_title')}</p>
            <p className="text-xs leading-relaxed text-muted">{t('notifications.empty_body')}</p>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
