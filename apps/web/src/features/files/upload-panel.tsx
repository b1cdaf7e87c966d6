import { CloudUpload, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/ui/spinner';
import { useUploadQueue } from '../../lib/upload-queue';
import { cn } from '../../lib/cn';
import { useFileActions } from './file-actions';
import { useFileUploads } from './upload-service';

/** The queue's progress: current file, whole percent, then "processing" until the server answers. */
export function UploadPanel() {
  const { t } = useTranslation();
  const { queue } = useFileUploads();
  const { source } = useFileActions();
  const state = useUploadQueue(queue);
  if (!state.current) return null;
  const position = Math.min(state.total, state.uploaded + 1);
  // Toasts own the bottom-right corner: the panel sits under the header on phones, bottom-left elsewhere.

  return (
    <div
      role="status"
      aria-live="polite"
      className={cn(
        'fixed inset-x-3 top-[4.75rem] z-40 animate-rise-in rounded-2xl border border-line bg-surface p-4 shadow-lift sm:top-auto sm:right-auto sm:bottom-6 sm:left-6 sm:w-96',
        // Beside the owner's sidebar; share pages have none.
        source.kind === 'owner' && 'lg:left-[19.5rem]',
      )}
    >
      <div className="flex items-start gap-3">
        <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent">
          {state.processing ? <Spinner className="size-5" /> : <CloudUpload className="size-5" aria-hidden />}
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold text-ink">
            {state.processing
              ? t('uploads.processing')
              : t('uploads.uploading', { current: position, total: state.total })}
          </p>
          <p className="truncate text-xs text-muted">{state.current.name}</p>
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
      <div className="mt-3 flex items-center gap-3">
        <div
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={state.progress}
          aria-label={t('uploads.progress')}
          className="h-2 flex-1 overflow-hidden rounded-full bg-surface-2"
        >
          <div
            className={
              state.processing
                ? 'h-full animate-pulse rounded-full bg-accent'
                : 'h-full rounded-full bg-accent transition-[width] duration-300'
            }
            style={{ width: `${state.progress}%` }}
          />
        </div>
        <span className="w-10 text-right text-xs font-semibold text-ink tabular-nums">{state.progress}%</span>
      </div>
    </div>
  );
}
