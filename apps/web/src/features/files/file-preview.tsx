import { useQuery } from '@tanstack/react-query';
import { Box, ChevronLeft, ChevronRight, Download, History, Share2, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../../components/ui/icon-button';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { useFileActions } from './file-actions';
import type { FileItem } from './files-api';
import { inAccountFrame } from './file-source';
import { formatBytes, isModelFile, previewKind } from './item-kind';
import { displayFileName } from '../../lib/file-name';

// The 3D view (three.js) loads when a model is first shown.
const ModelPreview = lazy(async () => ({
  default: (await import('../projects/model-preview')).ModelPreview,
}));

/** Text previews read only the start of a file: enough to recognise it, never a huge download. */
const TEXT_PREVIEW_BYTES = 256 * 1024;

const noteClass = (dark: boolean) => cn('text-sm', dark ? 'text-white/80' : 'text-muted');

function TextPreview({ url, dark }: { url: string; dark: boolean }) {
  const { t } = useTranslation();
  const text = useQuery({
    queryKey: ['files', 'text-preview', url],
    queryFn: async ({ signal }) => {
      const response = await fetch(url, {
        headers: { Range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` },
        signal,
      });
      if (!response.ok) throw new Error(String(response.status));
      return response.text();
    },
    staleTime: Infinity,
  });
  if (text.isPending) return <Spinner className={cn('size-6', dark ? 'text-white' : 'text-muted')} />;
  if (text.isError) return <p className={noteClass(dark)}>{t('files.preview_failed')}</p>;
  return (
    <pre className="max-h-full w-full max-w-4xl overflow-auto rounded-2xl bg-surface p-5 font-mono text-[13px] leading-relaxed whitespace-pre-wrap text-ink shadow-lift">
      {text.data}
    </pre>
  );
}

/** The file itself as the browser can show it, read from `url`; `dark` when drawn over the viewer's backdrop. */
export function PreviewBody({ item, url, dark = true }: { item: FileItem; url: string; dark?: boolean }) {
  const { t } = useTranslation();
  switch (previewKind(item)) {
    case 'image':
      return (
        <img
          src={url}
          alt={displayFileName(item.attributes.name)}
          className="max-h-full max-w-full rounded-lg object-contain shadow-lift"
        />
      );
    case 'video':
      return (
        <video
          key={item.id}
          src={url}
          controls
          autoPlay
          className="max-h-full max-w-full rounded-lg bg-black shadow-lift"
        />
      );
    case 'audio':
      return (
        <div className="flex w-full max-w-md flex-col items-center gap-5 rounded-3xl bg-surface p-8 shadow-lift">
          <p className="w-full truncate text-center font-display text-lg font-semibold text-ink">
            {displayFileName(item.attributes.name)}
          </p>
          <audio key={item.id} src={url} controls autoPlay className="w-full" />
        </div>
      );
    case 'pdf':
      return (
        <iframe
          src={url}
          title={displayFileName(item.attributes.name)}
          className="h-full w-full max-w-5xl rounded-lg bg-white shadow-lift"
        />
      );
    case 'text':
      return <TextPreview url={url} dark={dark} />;
    default:
      return <p className={noteClass(dark)}>{t('files.no_preview')}</p>;
  }
}

/** Full-screen viewer of the file manager's listing: images, video, audio, PDF and text. */
export function FilePreview({ items }: { items: readonly FileItem[] }) {
  const { t } = useTranslation();
  const actions = useFileActions();
  const dialog = actions.dialog;
  const item = dialog?.kind === 'preview' ? dialog.item : null;
  const bytes = actions.source.bytes;
  if (!item || !bytes) return null;
  return (
    <PreviewViewer
      items={items}
      item={item}
      onOpen={(next) => actions.setDialog({ kind: 'preview', item: next })}
      onClose={actions.closeDialog}
      fileUrl={(entry) => bytes.fileUrl(entry)}
      onDownload={(entry) => actions.download([entry])}
      onOpenAsProject={
        actions.source.kind === 'owner' && actions.variant !== 'trash'
          ? (entry) => void actions.openAsProject(entry)
          : undefined
      }
      actions={
        actions.variant !== 'trash' && (
          <>
            {inAccountFrame(actions.source) && (
              <IconButton
                labelled
                overlay
                icon={History}
                label={t('versions.menu')}
                onClick={() => actions.versions(item)}
              />
            )}
            {actions.source.kind === 'owner' && (
              <IconButton
                labelled
                overlay
                icon={Share2}
                label={t('sharing.share')}
                onClick={() => actions.share(item)}
              />
            )}
          </>
        )
      }
    />
  );
}

interface PreviewViewerProps<Item extends FileItem> {
  /** The list being stepped through; what cannot be shown is skipped. */
  items: readonly Item[];
  item: Item;
  onOpen: (item: Item) => void;
  onClose: () => void;
  fileUrl: (item: Item) => string;
  onDownload: (item: Item) => void;
  /** The line under the name; the file's size when not given. */
  caption?: ReactNode;
  /** Buttons of the header before Download. */
  actions?: ReactNode;
  /** Given (the owner's own files), models are shown in 3D with the way into the studio. */
  onOpenAsProject?: (item: Item) => void;
}

/**
 * The full-screen previewer every list of files opens in (Files, a project's outputs, the gallery):
 * previous and next with the buttons or the arrow keys, download, and close with the button or Escape.
 */
export function PreviewViewer<Item extends FileItem>({
  items,
  item,
  onOpen,
  onClose,
  fileUrl,
  onDownload,
  caption,
  actions,
  onOpenAsProject,
}: PreviewViewerProps<Item>) {
  const { t, i18n } = useTranslation();
  const showsModel = (entry: Item) => onOpenAsProject !== undefined && isModelFile(entry);
  const previewable = items.filter((entry) => previewKind(entry) !== 'none' || showsModel(entry));
  const index = previewable.findIndex((entry) => entry.id === item.id);
  const previous = index > 0 ? previewable[index - 1] : undefined;
  const next = index >= 0 && index < previewable.length - 1 ? previewable[index + 1] : undefined;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'ArrowLeft' && previous) onOpen(previous);
      if (event.key === 'ArrowRight' && next) onOpen(next);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [previous, next, onOpen]);

  // Beside the file from sm up; below it on a phone, where the file takes the whole width.
  const navButton =
    'absolute bottom-3 z-10 grid size-11 cursor-pointer place-items-center rounded-full bg-black/45 text-white backdrop-blur hover:bg-black/65 sm:top-1/2 sm:bottom-auto sm:-translate-y-1/2';

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 animate-fade-in bg-[oklch(0.12_0.01_265/0.96)] backdrop-blur-sm" />
        <Dialog.Content
          className="fixed inset-0 z-50 flex flex-col focus:outline-none"
          aria-describedby={undefined}
        >
          <header className="flex h-16 shrink-0 items-center gap-3 px-4 text-white sm:px-6">
            <div className="min-w-0 flex-1">
              <Dialog.Title className="truncate text-sm font-semibold">
                {displayFileName(item.attributes.name)}
              </Dialog.Title>
              <p className="truncate text-xs text-white/60" data-testid="preview-caption">
                {caption ?? formatBytes(item.attributes.filesize ?? 0, i18n.language)}
              </p>
            </div>
            {showsModel(item) && (
              <IconButton
                labelled
                overlay
                icon={Box}
                label={t('projects.open_as_project')}
                onClick={() => onOpenAsProject!(item)}
              />
            )}
            {actions}
            <IconButton
              labelled
              overlay
              icon={Download}
              label={t('files.download')}
              onClick={() => onDownload(item)}
            />
            <Dialog.Close
              className="grid size-10 cursor-pointer place-items-center rounded-xl hover:bg-white/10"
              aria-label={t('actions.close')}
            >
              <X className="size-5" aria-hidden />
            </Dialog.Close>
          </header>
          <div
            className={cn(
              'relative flex min-h-0 flex-1 items-center justify-center px-4 pb-6 sm:px-16',
              (previous || next) && 'pb-20 sm:pb-6',
            )}
          >
            {showsModel(item) ? (
              <Suspense fallback={<Spinner className="size-6 text-white" />}>
                <ModelPreview fileId={item.id} />
              </Suspense>
            ) : (
              <PreviewBody item={item} url={fileUrl(item)} />
            )}
            {previous && (
              <button
                type="button"
                className={cn(navButton, 'left-3')}
                onClick={() => onOpen(previous)}
                aria-label={t('files.previous')}
              >
                <ChevronLeft className="size-5" aria-hidden />
              </button>
            )}
            {next && (
              <button
                type="button"
                className={cn(navButton, 'right-3')}
                onClick={() => onOpen(next)}
                aria-label={t('files.next')}
              >
                <ChevronRight className="size-5" aria-hidden />
              </button>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
