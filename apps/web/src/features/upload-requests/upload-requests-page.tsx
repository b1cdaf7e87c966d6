import type { UploadRequestStatus } from '@atelier/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Clock,
  CloudUpload,
  Folder,
  Inbox,
  Lock,
  Plus,
  TimerOff,
  TriangleAlert,
  type LucideIcon,
} from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { askConfirm, pushToast } from '../../components/overlays/overlay-store';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { ApiError } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { CopyLinkButton } from '../sharing/copy-link';
import { formatDateTime } from '../../lib/format-date';
import { UploadRequestDialog } from './upload-request-dialog';
import {
  closedReason,
  ownerRequestsApi,
  uploadRequestsKeys,
  type UploadRequest,
} from './upload-requests-api';
import { displayFileName } from '../../lib/file-name';

/** How each state reads in the list: its words, its colours, its mark. */
const STATUS_LOOK: Record<UploadRequestStatus, { labelKey: string; className: string; icon: LucideIcon }> = {
  active: { labelKey: 'upload_requests.status.active', className: 'bg-accent-soft text-accent', icon: Inbox },
  filling: {
    labelKey: 'upload_requests.status.filling',
    className: 'bg-success-soft text-success',
    icon: CloudUpload,
  },
  filled: { labelKey: 'upload_requests.status.filled', className: 'bg-surface-2 text-ink', icon: Lock },
  expired: {
    labelKey: 'upload_requests.status.expired',
    className: 'bg-surface-2 text-muted',
    icon: TimerOff,
  },
};

/** What the list shows: the server's status, or expired once the clock has passed the end. */
function shownStatus(request: UploadRequest): UploadRequestStatus {
  return closedReason(request) ?? request.attributes.status;
}

/** /platform/upload-requests — the owner's requests, newest first, with what each received. */
export function UploadRequestsPage() {
  const { t } = useTranslation();
  const [creating, setCreating] = useState(false);
  const list = useQuery({
    queryKey: uploadRequestsKeys.owned,
    queryFn: ({ signal }) => ownerRequestsApi.list(signal),
  });

  let body;
  if (list.isPending) body = <ListSkeleton />;
  else if (list.isError)
    body = (
      <div role="alert" className="flex flex-col items-center gap-3 py-16 text-center">
        <TriangleAlert className="size-8 text-danger" aria-hidden />
        <p className="text-sm text-muted">{t('upload_requests.load_failed')}</p>
        <Button variant="secondary" onClick={() => void list.refetch()}>
          {t('sharing.retry')}
        </Button>
      </div>
    );
  else if (list.data.length === 0) body = <EmptyList onCreate={() => setCreating(true)} />;
  else
    body = (
      <ul className="flex flex-col gap-3" aria-label={t('upload_requests.list_label')}>
        {list.data.map((request) => (
          <RequestRow key={request.id} request={request} />
        ))}
      </ul>
    );

  return (
    <section className="flex flex-col gap-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">{t('sharing.area')}</p>
          <h1 className="font-display text-3xl font-semibold tracking-tight sm:text-4xl">
            {t('upload_requests.title')}
          </h1>
          <p className="max-w-xl text-sm leading-relaxed text-muted">{t('upload_requests.lead')}</p>
        </div>
        {/* With none yet, the empty list offers the first one itself. */}
        {list.data?.length !== 0 && (
          <Button onClick={() => setCreating(true)}>
            <Plus className="size-4" aria-hidden />
            {t('upload_requests.create_new')}
          </Button>
        )}
      </header>
      {body}
      {creating && <UploadRequestDialog folder={null} onClose={() => setCreating(false)} />}
    </section>
  );
}

function StatusBadge({ status }: { status: UploadRequestStatus }) {
  const { t } = useTranslation();
  const look = STATUS_LOOK[status];
  return (
    <span
      data-testid="request-status"
      className={cn(
        'inline-flex h-6 shrink-0 items-center gap-1 rounded-full px-2 text-xs font-semibold',
        look.className,
      )}
    >
      <look.icon className="size-3.5" aria-hidden />
      {t(look.labelKey)}
    </span>
  );
}

function RequestRow({ request }: { request: UploadRequest }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const showGenericError = useGenericError();
  const [closing, setClosing] = useState(false);
  const { attributes } = request;
  const folder = request.relationships.folder.data;
  const status = shownStatus(request);
  const open = status === 'active' || status === 'filling';
  const date = (iso: string) => formatDateTime(iso, i18n.language);

  async function close() {
    const confirmed = await askConfirm({
      title: t('upload_requests.confirm_close.title'),
      message: t('upload_requests.confirm_close.message', {
        folder: displayFileName(folder.attributes.name),
      }),
      confirmLabel: t('upload_requests.close'),
      danger: true,
    });
    if (!confirmed) return;
    setClosing(true);
    try {
      await ownerRequestsApi.close(request.id);
      queryClient.setQueryData<UploadRequest[]>(uploadRequestsKeys.owned, (list) =>
        list?.map((entry) =>
          entry.id === request.id
            ? { ...entry, attributes: { ...entry.attributes, status: 'filled' } }
            : entry,
        ),
      );
      pushToast('success', t('upload_requests.closed'));
    } catch (error) {
      // Already closed or expired: the list, read again, shows how it ended.
      if (!(error instanceof ApiError && error.status === 410)) showGenericError();
      void queryClient.invalidateQueries({ queryKey: uploadRequestsKeys.owned });
    } finally {
      setClosing(false);
    }
  }

  return (
    <li>
      <Card
        data-testid="upload-request"
        className="flex flex-col gap-4 p-4 sm:flex-row sm:items-center sm:gap-5 sm:px-5"
      >
        <div className="flex min-w-0 flex-1 items-start gap-3.5">
          <span
            className={cn(
              'grid size-11 shrink-0 place-items-center rounded-xl',
              open ? 'bg-accent-soft text-accent' : 'bg-surface-2 text-muted',
            )}
          >
            <Inbox className="size-5" aria-hidden />
          </span>
          <div className="flex min-w-0 flex-1 flex-col gap-1.5">
            <div className="flex min-w-0 flex-wrap items-center gap-x-2.5 gap-y-1">
              <h2 className="min-w-0 truncate text-base font-semibold text-ink">{attributes.name}</h2>
              <StatusBadge status={status} />
            </div>
            <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted">
              <li className="min-w-0">
                <Link
                  to={`/platform/files/${folder.id}`}
                  className="flex min-w-0 items-center gap-1.5 rounded-md text-ink hover:text-accent hover:underline"
                >
                  <Folder className="size-4 shrink-0 text-accent" aria-hidden />
                  <span className="truncate">{displayFileName(folder.attributes.name)}</span>
                </Link>
              </li>
              <li>{t('upload_requests.received', { count: attributes.received })}</li>
              <li className="flex items-center gap-1.5">
                <Clock className="size-3.5 shrink-0" aria-hidden />
                {open
                  ? t('upload_requests.open_until', { date: date(attributes.expires_at) })
                  : status === 'expired'
                    ? t('upload_requests.expired_on', { date: date(attributes.expires_at) })
                    : t('upload_requests.created_on', { date: date(attributes.created_at) })}
              </li>
            </ul>
          </div>
        </div>
        {open && (
          <div className="flex shrink-0 gap-2 sm:pl-0">
            <CopyLinkButton
              link={attributes.link}
              label={t('upload_requests.copy_link')}
              variant="secondary"
              size="sm"
              className="flex-1 sm:flex-none"
            />
            <Button
              variant="ghost"
              size="sm"
              className="flex-1 text-danger sm:flex-none"
              loading={closing}
              onClick={() => void close()}
              aria-label={t('upload_requests.close_named', { name: attributes.name })}
            >
              {!closing && <Lock className="size-4" aria-hidden />}
              {t('upload_requests.close')}
            </Button>
          </div>
        )}
      </Card>
    </li>
  );
}

function EmptyList({ onCreate }: { onCreate: () => void }) {
  const { t } = useTranslation();
  return (
    <EmptyState
      icon={Inbox}
      title={t('upload_requests.empty_list_title')}
      body={t('upload_requests.empty_list_body')}
    >
      <Button onClick={onCreate}>
        <Plus className="size-4" aria-hidden />
        {t('upload_requests.create_new')}
      </Button>
    </EmptyState>
  );
}

function ListSkeleton() {
  const { t } = useTranslation();
  return (
    <div role="status" aria-label={t('common.loading')} className="flex flex-col gap-3">
      {Array.from({ length: 3 }, (_, index) => (
        <div key={index} className="flex h-[76px] items-center gap-3.5 rounded-2xl border border-line px-5">
          <div className="size-11 animate-pulse rounded-xl bg-surface-2" />
          <div className="flex flex-1 flex-col gap-2">
            <div className="h-3.5 w-1/3 animate-pulse rounded bg-surface-2" />
            <div className="h-3 w-1/2 animate-pulse rounded bg-surface-2" />
          </div>
        </div>
      ))}
    </div>
  );
}
