import type { NotificationResource } from '@atelier/contracts';
import { isWebUrl, UNREAD_HIGHLIGHT_FADE_MS } from '@atelier/contracts/constants';
import { useQuery } from '@tanstack/react-query';
import {
  BadgeCheck,
  BellRing,
  CircleAlert,
  CloudDownload,
  CreditCard,
  Gift,
  History,
  ImageOff,
  Images,
  Inbox,
  Receipt,
  RotateCw,
  ShieldAlert,
  Trash2,
  Users,
  Wallet,
  type LucideIcon,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { relativeTime } from '../../lib/relative-time';
import { InvitationOutcomeLine } from './invitation-outcome';
import {
  isRefusal,
  notificationsQuery,
  useAnswerInvitation,
  useDeleteAll,
  useReadAll,
} from './notification-queries';
import { namedRoutePath } from './notification-routes';

type Category = NotificationResource['attributes']['category'];

export const CATEGORY_ICONS: Record<Category, LucideIcon> = {
  gift: Gift,
  'team-invitation': Users,
  'subscription-created': BadgeCheck,
  'billing-alert': Receipt,
  'insufficient-balance': Wallet,
  'payment-alert': CreditCard,
  'file-request': Inbox,
  'remote-upload-done': CloudDownload,
  'security-alert': ShieldAlert,
  'render-done': Images,
  'render-failed': ImageOff,
  'versions-removed': History,
};

function NotificationAction({
  notification,
  onNavigate,
}: {
  notification: NotificationResource;
  onNavigate: () => void;
}) {
  const { t } = useTranslation();
  const answer = useAnswerInvitation();
  const [answering, setAnswering] = useState<'accept' | 'decline' | null>(null);
  // The answer that failed on the way (true: accept), to send again from where it was given.
  const [failed, setFailed] = useState<boolean | null>(null);
  const action = notification.attributes.action;
  if (!action) return null;

  if (action.type === 'route') {
    const path = namedRoutePath(action.params.route, action.params.id);
    if (!path) return null;
    return (
      <Button asChild size="sm" variant="secondary" className="mt-2">
        <Link to={path} onClick={onNavigate}>
          {action.params.button ?? t('notifications.open_action')}
        </Link>
      </Button>
    );
  }

  if (action.type === 'url') {
    // The server stores http(s) only; anything else (javascript:, data:) must not become a link.
    if (!isWebUrl(action.params.url)) return null;
    const newTab = action.params.target === 'blank';
    return (
      <Button asChild size="sm" variant="secondary" className="mt-2">
        <a
          href={action.params.url}
          target={newTab ? '_blank' : undefined}
          rel={newTab ? 'noopener noreferrer' : undefined}
          onClick={onNavigate}
        >
          {action.params.button ?? t('notifications.open_action')}
        </a>
      </Button>
    );
  }

  if (action.params.outcome)
    return (
      <InvitationOutcomeLine
        outcome={action.params.outcome}
        folderId={action.params.folder_id}
        onNavigate={onNavigate}
      />
    );
  const respond = (accept: boolean) => {
    setAnswering(accept ? 'accept' : 'decline');
    setFailed(null);
    answer.mutate(
      { invitationId: action.params.id, accept },
      {
        onSettled: () => setAnswering(null),
        onError: (error) => !isRefusal(error) && setFailed(accept),
      },
    );
  };
  return (
    <>
      <div className="mt-2 flex gap-2">
        <Button
          size="sm"
          loading={answering === 'accept'}
          disabled={answering !== null}
          onClick={() => respond(true)}
        >
          {t('notifications.accept')}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          loading={answering === 'decline'}
          disabled={answering !== null}
          onClick={() => respond(false)}
        >
          {t('notifications.decline')}
        </Button>
      </div>
      {failed !== null && (
        <div role="alert" className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-danger">
          <span className="inline-flex items-start gap-1.5">
            <CircleAlert className="size-4 shrink-0" aria-hidden />
            {t('notifications.answer_failed')}
          </span>
          <Button size="sm" variant="ghost" className="-ml-1 text-danger" onClick={() => respond(failed)}>
            <RotateCw className="size-3.5" aria-hidden />
            {t('sharing.retry')}
          </Button>
        </div>
      )}
    </>
  );
}

function NotificationItem({
  notification,
  onNavigate,
}: {
  notification: NotificationResource;
  onNavigate: () => void;
}) {
  const { i18n } = useTranslation();
  const unread = notification.attributes.read_at === null;
  // Unread ones are highlighted when the centre opens, then fade like the rest.
  const [highlighted, setHighlighted] = useState(unread);
  useEffect(() => {
    if (!highlighted) return;
    const timer = setTimeout(() => setHighlighted(false), UNREAD_HIGHLIGHT_FADE_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);
  const Icon = CATEGORY_ICONS[notification.attributes.category];

  return (
    <li
      data-testid="notification"
      data-unread={highlighted || undefined}
      className={cn(
        'flex gap-3 rounded-xl px-3 py-3 transition-colors duration-700',
        highlighted ? 'bg-accent-soft' : 'bg-transparent',
      )}
    >
      <span className="grid size-9 shrink-0 place-items-center rounded-xl bg-surface-2 text-accent">
        <Icon className="size-[18px]" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline justify-between gap-2">
          <p className="truncate text-sm font-medium">{notification.attributes.title}</p>
          <time dateTime={notification.attributes.created_at} className="shrink-0 text-[11px] text-muted">
            {relativeTime(notification.attributes.created_at, i18n.language)}
          </time>
        </div>
        {notification.attributes.description && (
          <p className="mt-0.5 text-xs leading-relaxed break-words text-muted">
            {notification.attributes.description}
          </p>
        )}
        <NotificationAction notification={notification} onNavigate={onNavigate} />
      </div>
    </li>
  );
}

/** The centre's content: the list, delete-all, and each notification's action. */
export function NotificationCentre({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const list = useQuery(notificationsQuery);
  const deleteAll = useDeleteAll();
  const readAll = useReadAll();
  const notifications = list.data?.data ?? [];

  // Opening the centre reads everything: once the fresh list (with its unread marks) has arrived.
  const unreadOnOpen = list.isFetchedAfterMount ? (list.data?.meta.unread ?? 0) : 0;
  const { mutate: markAllRead } = readAll;
  const markedRead = useRef(false);
  useEffect(() => {
    if (unreadOnOpen === 0 || markedRead.current) return;
    markedRead.current = true;
    markAllRead();
  }, [unreadOnOpen, markAllRead]);

  return (
    <>
      <div className="flex items-center justify-between gap-2 px-3 py-2">
        <h2 className="font-display text-base font-semibold">{t('notifications.title')}</h2>
        {notifications.length > 0 && (
          <Button
            size="sm"
            variant="ghost"
            className="-mr-1 text-muted"
            loading={deleteAll.isPending}
            onClick={() => deleteAll.mutate()}
          >
            {!deleteAll.isPending && <Trash2 className="size-4" aria-hidden />}
            {t('notifications.delete_all')}
          </Button>
        )}
      </div>
      {list.isPending ? (
        <div className="grid place-items-center py-10 text-muted">
          <Spinner label={t('notifications.loading')} />
        </div>
      ) : notifications.length === 0 ? (
        <div className="flex flex-col items-center gap-2 px-6 py-8 text-center">
          <span className="grid size-12 place-items-center rounded-2xl bg-accent-soft text-accent">
            <BellRing className="size-6" aria-hidden />
          </span>
          <p className="text-sm font-medium">{t('notifications.empty_title')}</p>
          <p className="text-xs leading-relaxed text-muted">{t('notifications.empty_body')}</p>
        </div>
      ) : (
        <ol className="flex max-h-[min(70vh,32rem)] flex-col gap-0.5 overflow-y-auto">
          {notifications.map((notification) => (
            <NotificationItem key={notification.id} notification={notification} onNavigate={onNavigate} />
          ))}
        </ol>
      )}
    </>
  );
}
