import { CloudUpload, Globe, ScanSearch, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/ui/spinner';
import { useUploadQueue, type UploadQueue, type UploadQueueState } from '../../lib/upload-queue';
import { cn } from '../../lib/cn';
import { useFileActions } from './file-actions';
import { inAccountFrame } from './file-source';
import {
  usePanelShown,
  useRegisterPanel,
  useRemoteProgress,
  useRemoteUploadEvents,
  type RemoteProgress,
} from './remote-uploads';
import { useFileUploads } from './upload-service';
import { displayFileName } from '../../lib/file-name';

/** The file manager's upload overlay: the queue of this screen's uploads, and uploads from URLs. */
export function UploadPanel() {
  const { queue } = useFileUploads();
  const { source } = useFileActions();
  const state = useUploadQueue(queue);
  const remote = useRemoteProgress();
  useRegisterPanel();
  if (!state.current && !remote) return null;
  return (
    // Beside the signed-in sidebar; share pages have none.
    <UploadDock besideSidebar={inAccountFrame(source)}>
      {state.current && <QueueCard queue={queue} state={state} />}
      {remote && <RemoteCard progress={remote} />}
    </UploadDock>
  );
}

/**
 * The URL downloads' bar for the rest of the signed-in app, where no file manager shows its panel,
 * and the listener that moves it.
 */
export function RemoteUploadBar() {
  useRemoteUploadEvents();
  const remote = useRemoteProgress();
  const panelShown = usePanelShown();
  if (!remote || panelShown) return null;
  return (
    <UploadDock besideSidebar>
      <RemoteCard progress={remote} />
    </UploadDock>
  );
}

/** Toasts own the bottom-right corner: the dock sits under the header on phones, bottom-left elsewhere. */
function UploadDock({ besideSidebar, children }: { besideSidebar: boolean; children: ReactNode }) {
  return (
    <div
      className={cn(
        'fixed inset-x-3 top-[4.75rem] z-40 flex flex-col gap-3 sm:top-auto sm:right-auto sm:bottom-6 sm:left-6 sm:w-96',
        besideSidebar && 'lg:left-[19.5rem]',
      )}
    >
      {children}
    </div>
  );
}

const cardClass = 'animate-rise-in rounded-2xl border border-line bg-surface p-4 shadow-lift';

/** The queue's progress: current file, whole percent, then "processing" until the server answers. */
function QueueCard({ queue, state }: { queue: UploadQueue; state: UploadQueueState }) {
  const { t } = useTranslation();
  const position = Math.min(state.total, state.uploaded + 1);
  // A delta upload reads and hashes the file first, then sends only what the server lacks.
  const hashing = state.phase === 'hashing' && !state.processing;
  return (
    <div role="status" aria-live="polite" className={cardClass}>
      <div className="flex items-start gap-3">
        <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent">
          {state.processing ? (
            <Spinner className="size-5" />
          ) : hashing ? (
            <ScanSearch className="size-5" aria-hidden />
          ) : (
            <CloudUpload className="size-5" aria-hidden />
          )}
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold text-ink">
            {state.processing
              ? t('uploads.processing')
              : t(hashing ? 'uploads.hashing' : 'uploads.uploading', {
                  current: position,
                  total: state.total,
                })}
          </p>
          <p className="truncate text-xs text-muted">{displayFileName(state.current?.name ?? '')}</p>
        </div>
        <button
          type="button"
          onClick={queue.cancel}
          className="grid size-8 shrink-0 cursor-pointer place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-ink"
          aria-label={t('uploads.cancel')}
        >
          <X className="size-4" aria-hidden />
        </button>
      </div>
      <ProgressLine
        percent={state.progress}
        label={t(hashing ? 'uploads.hashing_progress' : 'uploads.progress')}
        pulsing={state.processing}
        figure={`${state.progress}%`}
      />
    </div>
  );
}

/** Files the server fetches from URLs: processed of total, and how many failed once any did. */
function RemoteCard({ progress }: { progress: RemoteProgress }) {
  const { t } = useTranslation();
  const { total, processed, failed } = progress;
  const done = processed >= total;
  return (
    <div role="status" aria-live="polite" data-testid="remote-upload-bar" className={cardClass}>
      <div className="flex items-start gap-3">
        <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent">
          {done ? <Globe className="size-5" aria-hidden /> : <Spinner className="size-5" />}
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold text-ink">
            {t(done ? 'remote_upload.progress_done' : 'remote_upload.progress_title')}
          </p>
          <p className="text-xs text-muted">
            {t('remote_upload.progress', { processed, total })}
            {failed > 0 && (
              <>
                {' · '}
                <span className="font-medium text-danger">
                  {t('remote_upload.failed', { count: failed })}
                </span>
              </>
            )}
          </p>
        </div>
      </div>
      <ProgressLine
        percent={total > 0 ? Math.round((processed / total) * 100) : 0}
        label={t('remote_upload.progress_label')}
        figure={`${processed}/${total}`}
        valueText={t('remote_upload.progress', { processed, total })}
      />
    </div>
  );
}

function ProgressLine({
  percent,
  label,
  figure,
  pulsing = false,
  valueText,
}: {
  percent: number;
  label: string;
  figure: string;
  pulsing?: boolean;
  valueText?: string;
}) {
  return (
    <div className="mt-3 flex items-center gap-3">
      <div
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={valueText}
        aria-label={label}
        className="h-2 flex-1 overflow-hidden rounded-full bg-surface-2"
      >
        <div
          className={
            pulsing
              ? 'h-full animate-pulse rounded-full bg-accent'
              : 'h-full rounded-full bg-accent transition-[width] duration-300'
          }
          style={{ width: `${percent}%` }}
        />
      </div>
      <span className="min-w-10 text-right text-xs font-semibold text-ink tabular-nums">{figure}</span>
    </div>
  );
}
