import { NOTIFICATION_CENTRE_WIDTH_PX } from '@atelier/contracts/constants';
import { Bell } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NotificationCentre } from '../features/notifications/notification-centre';
import { NotificationToasts } from '../features/notifications/notification-toasts';
import { useIncomingNotifications } from '../features/notifications/use-incoming-notifications';

/**
 * The bell and its badge; the centre opens as a 360 px popover that Escape, an outside click or
 * following one of its actions closes. Incoming notifications play a sound and show a toast.
 */
export function NotificationBell({ unread }: { unread: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  useIncomingNotifications();
  return (
    <>
      <Popover.Root open={open} onOpenChange={setOpen}>
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
            <NotificationCentre onNavigate={() => setOpen(false)} />
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      <NotificationToasts />
    </>
  );
}
