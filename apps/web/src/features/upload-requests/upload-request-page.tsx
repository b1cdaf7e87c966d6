import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleCheck, Clock, EyeOff, Lock, TimerOff, TriangleAlert } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Avatar } from '../../components/avatar';
import { askConfirm } from '../../components/overlays/overlay-store';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { PageLoader } from '../../components/page-loader';
import { FrameNotice, PublicFrame } from '../../components/public-frame';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ApiError } from '../../lib/api-client';
import { useUploadQueue } from '../../lib/upload-queue';
import { FileBrowser } from '../files/file-browser';
import { useFileUploads } from '../files/upload-service';
import { NotFoundPage } from '../public/not-found-page';
import { formatDateTime } from '../../lib/format-date';
import { createUploadRequestSource } from './upload-request-source';
import {
  closedReason,
  uploadRequestsKeys,
  visitRequestApi,
  type ClosedReason,
  type UploadRequest,
} from './upload-requests-api';
import { displayFileName } from '../../lib/file-name';

/**
 * /request/{token}/upload/{id?}: where someone without an account sends files to the owner of an
 * upload request. The request's detail decides the page: unknown is NotFound, closed or expired
 * says so, and an open request shows the uploader with what this visitor sent so far.
 */
export function UploadRequestPage() {
  const { t } = useTranslation();
  const { token = '', id } = useParams();
  const queryClient = useQueryClient();
  const [finished, setFinished] = useState(false);
  const detail = useQuery({
    queryKey: uploadRequestsKeys.detail(token),
    queryFn: ({ signal }) => visitRequestApi.detail(token, signal),
  });
  // A refused call (410: closed or expired meanwhile) reads the detail again, which says why.
  const onAccessLost = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: uploadRequestsKeys.detail(token) }),
    [queryClient, token],
  );

  if (detail.error instanceof ApiError && detail.error.status === 404) return <NotFoundPage />;
  const request = detail.data;
  const reason = request ? closedReason(request) : null;

  let body;
  if (finished && request) body = <ThankYou request={request} />;
  else if (request && reason) body = <ClosedNotice request={request} reason={reason} />;
  else if (request)
    body = (
      <OpenRequest
        token={token}
        request={request}
        folderId={id ?? null}
        onAccessLost={onAccessLost}
        onFinished={() => setFinished(true)}
      />
    );
  else if (detail.isError)
    body = (
      <FrameNotice
        icon={TriangleAlert}
        tone="danger"
        title={t('upload_requests.visit_failed')}
        body={t('sharing.visit_failed_hint')}
        alert
      >
        <Button onClick={() => void detail.refetch()}>{t('sharing.retry')}</Button>
      </FrameNotice>
    );
  else body = <PageLoader />;

  return (
    <PublicFrame owner={request?.attributes.owner} ownerLabel={t('upload_requests.requested_by')}>
      {body}
    </PublicFrame>
  );
}

/** The owner's name as the page speaks of them. */
function ownerName(request: UploadRequest): string {
  return request.attributes.owner?.name ?? '';
}

function OpenRequest({
  token,
  request,
  folderId,
  onAccessLost,
  onFinished,
}: {
  token: string;
  request: UploadRequest;
  folderId: string | null;
  onAccessLost: () => void;
  onFinished: () => void;
}) {
  const { t } = useTranslation();
  const rootId = request.relationships.folder.data.id;
  const source = useMemo(
    () => createUploadRequestSource({ token, rootId, onAccessLost }),
    [token, rootId, onAccessLost],
  );
  return (
    <div className="flex flex-col gap-8 sm:gap-10">
      <RequestIntro request={request} />
      <FileBrowser
        variant="files"
        folderId={folderId}
        source={source}
        topLabel={t('upload_requests.your_files')}
        eyebrow={t('upload_requests.what_you_sent')}
        headerActions={<FinishButton token={token} request={request} onFinished={onFinished} />}
      />
    </div>
  );
}

/** Who asks, for what, until when, in the owner's own words (plain text, never markup). */
function RequestIntro({ request }: { request: UploadRequest }) {
  const { t, i18n } = useTranslation();
  const { attributes } = request;
  const owner = attributes.owner;
  return (
    <Card className="relative overflow-hidden p-5 sm:p-7">
      <div aria-hidden className="absolute inset-y-0 left-0 w-1 bg-accent" />
      <div className="flex items-start gap-4">
        {owner && (
          <Avatar
            person={{ name: owner.name, email: '', color: 'var(--accent)', avatar: owner.avatar }}
            size={48}
          />
        )}
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">
            {t('upload_requests.area')}
          </p>
          <h1 className="font-display text-2xl font-semibold tracking-tight break-words sm:text-3xl">
            {displayFileName(attributes.name)}
          </h1>
          <p className="text-sm text-muted">{t('upload_requests.asks_you', { name: ownerName(request) })}</p>
        </div>
      </div>
      {attributes.notes && (
        <blockquote className="mt-5 rounded-xl bg-surface-2 px-4 py-3.5 text-sm leading-relaxed break-words whitespace-pre-wrap text-ink sm:ml-16">
          {attributes.notes}
        </blockquote>
      )}
      <ul className="mt-5 flex flex-col gap-2 text-sm text-muted sm:ml-16 sm:flex-row sm:flex-wrap sm:gap-x-6">
        <li className="flex items-center gap-2">
          <Clock className="size-4 shrink-0 text-accent" aria-hidden />
          {t('upload_requests.open_until', {
            date: formatDateTime(attributes.expires_at, i18n.language),
          })}
        </li>
        <li className="flex items-center gap-2">
          <EyeOff className="size-4 shrink-0 text-accent" aria-hidden />
          {t('upload_requests.private_hint', { name: ownerName(request) })}
        </li>
      </ul>
    </Card>
  );
}

/** "I'm done": closes the request once the queue is empty, after a confirmation. */
function FinishButton({
  token,
  request,
  onFinished,
}: {
  token: string;
  request: UploadRequest;
  onFinished: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const showGenericError = useGenericError();
  const { queue } = useFileUploads();
  // Closing mid-upload would refuse the files still on their way.
  const uploading = useUploadQueue(queue).current !== null;
  const [closing, setClosing] = useState(false);

  async function finish() {
    const confirmed = await askConfirm({
      title: t('upload_requests.confirm_done.title'),
      message: t('upload_requests.confirm_done.message', { name: ownerName(request) }),
      confirmLabel: t('upload_requests.done'),
    });
    if (!confirmed) return;
    setClosing(true);
    try {
      await visitRequestApi.finish(token);
      onFinished();
    } catch (error) {
      setClosing(false);
      // Closed or expired meanwhile: the detail, read again, says which.
      if (error instanceof ApiError && error.status === 410)
        void queryClient.invalidateQueries({ queryKey: uploadRequestsKeys.detail(token) });
      else showGenericError();
    }
  }

  return (
    <Button
      variant="secondary"
      onClick={() => void finish()}
      loading={closing}
      disabled={uploading}
      title={uploading ? t('upload_requests.done_wait') : undefined}
    >
      {!closing && <CircleCheck className="size-4 text-success" aria-hidden />}
      {t('upload_requests.done')}
    </Button>
  );
}

function ThankYou({ request }: { request: UploadRequest }) {
  const { t } = useTranslation();
  return (
    <FrameNotice
      icon={CircleCheck}
      tone="success"
      title={t('upload_requests.thanks_title')}
      body={t('upload_requests.thanks_body', { name: ownerName(request) })}
    />
  );
}

function ClosedNotice({ request, reason }: { request: UploadRequest; reason: ClosedReason }) {
  const { t, i18n } = useTranslation();
  const name = ownerName(request);
  return reason === 'expired' ? (
    <FrameNotice
      icon={TimerOff}
      title={t('upload_requests.expired_title')}
      body={t('upload_requests.expired_body', {
        name,
        date: formatDateTime(request.attributes.expires_at, i18n.language),
      })}
    />
  ) : (
    <FrameNotice
      icon={Lock}
      title={t('upload_requests.closed_title')}
      body={t('upload_requests.closed_body', { name })}
    />
  );
}
