import { useQuery } from '@tanstack/react-query';
import { Download, History, TriangleAlert } from 'lucide-react';
import { createElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { PreviewBody } from '../files/file-preview';
import { VersionsPanel } from '../files/versions-dialog';
import { fileIcon, formatBytes, previewKind } from '../files/item-kind';
import { watchAccess } from '../files/token-source';
import { sharePagePath, useShareVisit } from './share-layout';
import { sharedFileUrl, sharedVersions } from './share-source';
import { isLocked, sharingKeys, visitApi } from './sharing-api';
import { displayFileName } from '../../lib/file-name';

/** /share/{token}/file: one shared file, previewed when the browser can show it, and its download. */
export function ShareFilePage() {
  const { t, i18n } = useTranslation();
  const { token, share, onAccessLost } = useShareVisit();
  const locked = isLocked(share) || share.attributes.item_type !== 'file';
  const [versionsOpen, setVersionsOpen] = useState(false);
  const file = useQuery({
    queryKey: sharingKeys.file(token),
    queryFn: ({ signal }) => watchAccess(onAccessLost)(visitApi.file(token, signal)),
    enabled: !locked,
  });

  if (locked) return <Navigate to={sharePagePath(token, share)} replace />;
  if (file.isPending)
    return (
      <div className="grid flex-1 place-items-center text-accent">
        <Spinner className="size-7" label={t('common.loading')} />
      </div>
    );
  if (file.isError)
    return (
      <div role="alert" className="m-auto flex max-w-md flex-col items-center gap-3 text-center">
        <TriangleAlert className="size-8 text-danger" aria-hidden />
        <p className="text-sm text-muted">{t('sharing.visit_failed_hint')}</p>
        <Button variant="secondary" onClick={() => void file.refetch()}>
          {t('sharing.retry')}
        </Button>
      </div>
    );

  const item = file.data;
  const kind = previewKind(item);
  // Pictures and sound take the height they need; documents and films get a frame to fill.
  const framed = kind === 'pdf' || kind === 'video' || kind === 'text';
  return (
    <section className="flex flex-1 flex-col gap-5">
      <header className="flex flex-wrap items-center gap-4">
        <span className="grid size-12 shrink-0 place-items-center rounded-2xl bg-accent-soft text-accent">
          {createElement(fileIcon(item), { className: 'size-6', 'aria-hidden': true })}
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-0.5">
          <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">
            {t('sharing.shared_file')}
          </p>
          <h1 className="truncate font-display text-2xl font-semibold tracking-tight sm:text-3xl">
            {displayFileName(item.attributes.name)}
          </h1>
          <p className="text-sm text-muted">{formatBytes(item.attributes.filesize ?? 0, i18n.language)}</p>
        </div>
        <div className="flex w-full gap-2 sm:w-auto">
          {/* A shared file is a visitor's to read: its versions open and download, never change. */}
          <Button
            size="lg"
            variant="secondary"
            className="flex-1 sm:flex-none"
            onClick={() => setVersionsOpen(true)}
          >
            <History className="size-4" aria-hidden />
            {t('versions.menu')}
          </Button>
          <Button asChild size="lg" className="flex-1 sm:flex-none">
            <a href={sharedFileUrl(token, item, true)} download>
              <Download className="size-4" aria-hidden />
              {t('files.download')}
            </a>
          </Button>
        </div>
      </header>
      {versionsOpen && (
        <VersionsPanel
          item={item}
          addresses={sharedVersions(token)}
          writable={false}
          onClose={() => setVersionsOpen(false)}
        />
      )}
      <Card className="flex items-center justify-center overflow-hidden bg-surface-2/60 p-4 sm:p-8">
        <div
          className={cn(
            'flex w-full items-center justify-center',
            framed ? 'h-[min(70vh,720px)]' : 'max-h-[70vh] min-h-48 [&>img]:max-h-[calc(70vh-2rem)]',
          )}
        >
          {kind !== 'none' ? (
            <PreviewBody item={item} url={sharedFileUrl(token, item)} dark={false} />
          ) : (
            <div className="flex flex-col items-center gap-3 text-center">
              {createElement(fileIcon(item), {
                className: 'size-14 text-muted',
                strokeWidth: 1.25,
                'aria-hidden': true,
              })}
              <p className="text-sm text-muted">{t('sharing.no_preview_download')}</p>
            </div>
          )}
        </div>
      </Card>
    </section>
  );
}
