import { Download, Film, ImageIcon, Images, Maximize2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { formatBytes } from '../files/item-kind';
import { useDownloadGate } from '../files/use-download-gate';
import {
  liveRender,
  useProject,
  useProjectFiles,
  useRenderEvents,
  type ProjectFileResource,
  type RenderJobResource,
} from './projects-api';
import { groupByColourway } from './colourways';
import { ModelVersionNote, OutdatedModelsBanner } from './model-versions';
import { OutputPreview } from './output-preview';
import { ShopPackSection } from './shop-pack-section';
import { EmptyState, ProjectHeader, RenderProgressBar, RenderStatusBadge } from './studio-parts';

type Filter = 'all' | 'png' | 'mp4';

/** /projects/files/output/:id — the renders of one project. */
export function ProjectOutputPage() {
  const { id } = useParams();
  if (!id) return <Navigate to="/platform/output" replace />;
  return <Outputs projectId={id} />;
}

/** /platform/output/:id? — the renders of one project, or of every project. */
export function PlatformOutputPage() {
  const { id } = useParams();
  return <Outputs projectId={id ?? null} standalone />;
}

function Outputs({ projectId, standalone = false }: { projectId: string | null; standalone?: boolean }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>('all');
  const [opened, setOpened] = useState<ProjectFileResource | null>(null);
  const mimetype = filter === 'all' ? undefined : filter;
  const ref = projectId ?? 'all';
  const project = useProject(ref, projectId !== null);
  const outputs = useProjectFiles(ref, 'output', mimetype);
  const progress = useRenderEvents();
  const guardDownload = useDownloadGate();
  if (project.error instanceof ApiError && project.error.status === 404)
    return <Navigate to="/platform/output" replace />;
  const root = project.data?.meta.root;
  const running = (project.data?.data ?? []).filter((render) =>
    ['queued', 'rendering'].includes(liveRender(render, progress).status),
  );

  const zip = projectId ? (
    <Button asChild variant="secondary">
      <a href={`/api/outputZip?project_id=${projectId}`} download onClick={guardDownload}>
        <Download className="size-4" aria-hidden />
        {t('projects.download_zip')}
      </a>
    </Button>
  ) : null;

  return (
    <section className="flex flex-col gap-6">
      {projectId && !standalone ? (
        <ProjectHeader
          projectId={projectId}
          name={root?.attributes.name ?? <Spinner className="size-6" label={t('common.loading')} />}
          description={root?.attributes.description}
          actions={zip}
        />
      ) : (
        <header className="flex flex-wrap items-end justify-between gap-4">
          <div className="flex flex-col gap-1">
            <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">
              {t('projects.area')}
            </p>
            <h1 className="font-display text-3xl font-semibold tracking-tight sm:text-4xl">
              {root?.attributes.name ?? t('pages.output')}
            </h1>
          </div>
          {zip}
        </header>
      )}

      {projectId && <OutdatedModelsBanner project={root} />}

      {running.length > 0 && (
        <Card className="flex flex-col gap-3 p-4 sm:p-5">
          <h2 className="text-sm font-semibold">{t('projects.running_title', { count: running.length })}</h2>
          <ul className="flex flex-col gap-3">
            {running.map((render) => (
              <RunningRender key={render.id} render={render} live={liveRender(render, progress)} />
            ))}
          </ul>
        </Card>
      )}

      <div
        role="tablist"
        aria-label={t('projects.output_filter')}
        className="flex gap-1 self-start rounded-xl border border-line bg-surface p-1"
      >
        {(['all', 'png', 'mp4'] as const).map((value) => (
          <button
            key={value}
            role="tab"
            type="button"
            aria-selected={filter === value}
            onClick={() => setFilter(value)}
            className={cn(
              'h-8 cursor-pointer rounded-lg px-3 text-sm font-medium transition-colors',
              filter === value ? 'bg-accent text-on-accent' : 'text-muted hover:text-ink',
            )}
          >
            {t(`projects.filter.${value}`)}
          </button>
        ))}
      </div>

      {outputs.isPending ? (
        <div className="grid place-items-center py-16">
          <Spinner className="size-6" label={t('common.loading')} />
        </div>
      ) : outputs.data && outputs.data.data.length > 0 ? (
        <div className="flex flex-col gap-6">
          {groupByColourway(outputs.data.data, root?.attributes.settings.variants).map(
            ({ variant, files }, _index, groups) => (
              <section key={variant?.id ?? ''} className="flex flex-col gap-3" data-testid="output-group">
                {groups.length > 1 && (
                  <h2 className="text-sm font-semibold">
                    {variant ? variant.name : t('projects.colourways.own_finishes')}
                  </h2>
                )}
                <ul className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-3">
                  {files.map((file) => (
                    <li key={file.id}>
                      <OutputCard file={file} onOpen={() => setOpened(file)} />
                    </li>
                  ))}
                </ul>
              </section>
            ),
          )}
        </div>
      ) : (
        <EmptyState
          icon={<Images className="size-6" aria-hidden />}
          title={t('projects.no_outputs_title')}
          body={t('projects.no_outputs_body')}
        />
      )}
      {projectId && <ShopPackSection projectId={projectId} />}
      {opened && (
        <OutputPreview
          files={outputs.data?.data ?? []}
          file={opened}
          onOpen={setOpened}
          onClose={() => setOpened(null)}
          cover={root?.attributes.cover}
        />
      )}
    </section>
  );
}

function RunningRender({ render, live }: { render: RenderJobResource; live: ReturnType<typeof liveRender> }) {
  const { t } = useTranslation();
  return (
    <li className="flex flex-col gap-1.5" data-testid="running-render">
      <div className="flex items-center justify-between gap-3">
        <span className="truncate text-sm">{render.attributes.input_name}</span>
        <RenderStatusBadge status={live.status} progress={live.progress} />
      </div>
      <RenderProgressBar
        progress={live.status === 'queued' ? 0 : live.progress}
        label={t('projects.render_progress', { name: render.attributes.input_name })}
      />
    </li>
  );
}

/** A png shown as a picture (its thumbnail when made), an mp4 as a player; both open in the previewer and download. */
export function OutputCard({ file, onOpen }: { file: ProjectFileResource; onOpen: () => void }) {
  const { t, i18n } = useTranslation();
  const { name, mimetype, file_url, thumbnail, filesize } = file.attributes;
  const isVideo = mimetype === 'video/mp4';
  const guardDownload = useDownloadGate();
  return (
    <Card className="flex h-full flex-col overflow-hidden" data-testid="output-card">
      <div className="relative aspect-square bg-surface-2">
        {isVideo ? (
          <video
            src={file_url ?? undefined}
            poster={thumbnail?.lg}
            controls
            loop
            muted
            playsInline
            preload="metadata"
            className="size-full object-contain"
          />
        ) : (
          <button
            type="button"
            onClick={onOpen}
            aria-label={t('projects.open_output', { name })}
            className="size-full cursor-zoom-in"
          >
            <img
              src={thumbnail?.lg ?? file_url ?? undefined}
              alt={name}
              loading="lazy"
              className="size-full object-contain"
            />
          </button>
        )}
      </div>
      <div className="flex items-center gap-3 p-3">
        <span className="hidden size-8 shrink-0 place-items-center rounded-lg bg-surface-2 text-muted sm:grid">
          {isVideo ? <Film className="size-4" aria-hidden /> : <ImageIcon className="size-4" aria-hidden />}
        </span>
        <div className="min-w-0 flex-1">
          {/* Every name starts with the model's: on two lines, the camera that tells them apart shows too. */}
          <p className="line-clamp-2 text-sm font-medium [overflow-wrap:anywhere]" title={name}>
            {name}
          </p>
          <p className="text-xs text-muted">{formatBytes(filesize ?? 0, i18n.language)}</p>
        </div>
        {isVideo && (
          <Button
            size="icon"
            variant="ghost"
            className="size-9"
            onClick={onOpen}
            aria-label={t('projects.open_output', { name })}
          >
            <Maximize2 className="size-4" aria-hidden />
          </Button>
        )}
        <Button asChild size="icon" variant="ghost" className="size-9">
          <a
            href={`${file_url}?download=1`}
            aria-label={t('projects.download_file', { name })}
            onClick={guardDownload}
          >
            <Download className="size-4" aria-hidden />
          </a>
        </Button>
      </div>
      <ModelVersionNote version={file.meta.model_version} className="-mt-1 px-3 pb-3" />
    </Card>
  );
}
