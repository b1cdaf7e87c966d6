import { MODEL_EXTENSIONS } from '@atelier/contracts';
import { Box, CloudUpload, FolderOpen, Play, X } from 'lucide-react';
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { SelectField } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { formatBytes } from '../files/item-kind';
import { useSession } from '../session/session-queries';
import { AddFromFilesDialog } from './add-from-files-dialog';
import { OutdatedModelsBanner } from './model-versions';
import { useProjectUploads } from './project-uploads';
import { useStartRenders } from './use-start-renders';
import { ColourwayPicker } from './colourways';
import {
  generateAssets,
  liveRender,
  useCategories,
  useProject,
  useProjectFiles,
  useRenderEvents,
  type ProgressMap,
  type ProjectFileResource,
} from './projects-api';
import { EmptyState, LoadFailed, ProjectHeader, RenderProgressBar, RenderStatusBadge } from './studio-parts';
import { displayFileName } from '../../lib/file-name';
import { formatDateTime } from '../../lib/format-date';

const ACCEPT = MODEL_EXTENSIONS.map((ext) => `.${ext}`).join(',');

/** /projects/files/:id — the project's models: upload them, see each one's render status, start a run. */
export function ProjectFilesPage() {
  const { id } = useParams();
  if (!id) return <Navigate to="/projects" replace />;
  return <ProjectFiles projectId={id} />;
}

function ProjectFiles({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const project = useProject(projectId);
  const inputs = useProjectFiles(projectId, 'input');
  const categories = useCategories();
  const progress = useRenderEvents();
  const uploads = useProjectUploads(projectId);
  const picker = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [addingFromFiles, setAddingFromFiles] = useState(false);
  const root = project.data?.meta.root;
  const [chosen, setChosen] = useState<string | null>(null);
  const category = chosen ?? root?.attributes.settings.category_id ?? categories.data?.[0]?.id ?? '';

  const variants = root?.attributes.settings.variants ?? [];
  // Colourways left out of the next run, by id: new ones are in it until turned off.
  const [leftOut, setLeftOut] = useState<ReadonlySet<string>>(new Set());
  const chosenVariants = variants.filter((v) => !leftOut.has(v.id)).map((v) => v.id);
  const generate = useStartRenders(() =>
    generateAssets(projectId, category, user!.id, variants.length > 0 ? chosenVariants : undefined),
  );

  if (project.error instanceof ApiError && project.error.status === 404)
    return <Navigate to="/projects" replace />;
  // The project (its header) or its models that did not load; either leaves the page without its list.
  const failed = [project, inputs].filter((query) => query.isError);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    uploads.add([...event.dataTransfer.files]);
  };

  return (
    <section className="flex flex-col gap-6">
      <ProjectHeader
        projectId={projectId}
        name={root?.attributes.name ?? <Spinner className="size-6" label={t('common.loading')} />}
        description={root?.attributes.description}
        actions={
          <>
            <SelectField
              label={t('projects.category')}
              className="w-48"
              value={category}
              onChange={(event) => setChosen(event.target.value)}
              options={(categories.data ?? []).map((c) => ({
                value: c.id,
                label: t(`projects.category_name.${c.id}`, { defaultValue: c.name }),
              }))}
            />
            {variants.length > 0 && (
              <ColourwayPicker
                variants={variants}
                chosen={new Set(chosenVariants)}
                onChange={(next) =>
                  setLeftOut(new Set(variants.filter((v) => !next.has(v.id)).map((v) => v.id)))
                }
              />
            )}
            <Button
              className="self-end"
              onClick={() => generate.mutate()}
              loading={generate.isPending}
              disabled={!category || !inputs.data?.data.length}
            >
              <Play className="size-4" aria-hidden />
              {t('projects.generate')}
            </Button>
          </>
        }
      />

      <OutdatedModelsBanner project={root} />

      <div
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={cn(
          'flex flex-col items-center gap-3 rounded-2xl border-2 border-dashed border-line bg-surface px-6 py-8 text-center transition-colors',
          over && 'border-accent bg-accent-soft/50',
        )}
      >
        <span className="grid size-12 place-items-center rounded-2xl bg-accent-soft text-accent">
          <CloudUpload className="size-6" aria-hidden />
        </span>
        <div className="flex flex-col gap-1">
          <p className="font-medium">{t('projects.drop_title')}</p>
          <p className="text-sm text-muted">
            {t('projects.drop_formats', { formats: MODEL_EXTENSIONS.map((e) => e.toUpperCase()).join(', ') })}
          </p>
        </div>
        <div className="flex flex-wrap justify-center gap-2">
          <Button variant="secondary" onClick={() => picker.current?.click()}>
            {t('projects.choose_files')}
          </Button>
          <Button variant="secondary" onClick={() => setAddingFromFiles(true)}>
            <FolderOpen className="size-4" aria-hidden />
            {t('projects.add_from_files')}
          </Button>
        </div>
        {addingFromFiles && (
          <AddFromFilesDialog
            projectId={projectId}
            projectFolderId={root?.attributes.folder_id ?? null}
            onClose={() => setAddingFromFiles(false)}
          />
        )}
        <input
          ref={picker}
          type="file"
          multiple
          accept={ACCEPT}
          className="sr-only"
          data-testid="project-upload-input"
          onChange={(event) => {
            uploads.add([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
        {uploads.state.current && (
          <div role="status" aria-live="polite" className="flex w-full max-w-md items-center gap-3 text-left">
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium">
                {uploads.state.processing ? t('uploads.processing') : uploads.state.current.name}
              </p>
              <RenderProgressBar progress={uploads.state.progress} label={t('uploads.progress')} />
            </div>
            <span className="w-10 text-right text-xs font-semibold tabular-nums">
              {uploads.state.progress}%
            </span>
            <button
              type="button"
              onClick={uploads.cancel}
              aria-label={t('uploads.cancel')}
              className="grid size-8 cursor-pointer place-items-center rounded-lg text-muted hover:bg-surface-2"
            >
              <X className="size-4" aria-hidden />
            </button>
          </div>
        )}
      </div>

      <Card className="overflow-hidden">
        <div className="flex items-center justify-between border-b border-line px-4 py-3 sm:px-5">
          <h2 className="font-display text-lg font-semibold">{t('projects.inputs')}</h2>
          <span className="text-sm text-muted tabular-nums">{inputs.data?.meta.paginate.total ?? 0}</span>
        </div>
        {inputs.isPending ? (
          <div className="grid place-items-center py-12">
            <Spinner className="size-6" label={t('common.loading')} />
          </div>
        ) : failed.length > 0 ? (
          <LoadFailed onRetry={() => failed.forEach((query) => void query.refetch())} />
        ) : inputs.data && inputs.data.data.length > 0 ? (
          <ul className="divide-y divide-line">
            {inputs.data.data.map((file) => (
              <InputRow key={file.id} file={file} progress={progress} />
            ))}
          </ul>
        ) : (
          <div className="p-5">
            <EmptyState
              icon={<Box className="size-6" aria-hidden />}
              title={t('projects.no_inputs_title')}
              body={t('projects.no_inputs_body')}
            />
          </div>
        )}
      </Card>
    </section>
  );
}

function InputRow({ file, progress }: { file: ProjectFileResource; progress: ProgressMap }) {
  const { t, i18n } = useTranslation();
  const render = file.meta.render;
  const live = render ? liveRender(render, progress) : null;
  return (
    <li
      className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:gap-4 sm:px-5"
      data-testid="project-input"
    >
      <div className="flex min-w-0 flex-1 items-center gap-3">
        {file.attributes.thumbnail ? (
          <img
            src={file.attributes.thumbnail.xs}
            alt=""
            className="size-10 shrink-0 rounded-xl bg-surface-2 object-cover"
          />
        ) : (
          <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-surface-2 text-xs font-bold text-muted uppercase">
            {file.attributes.name.split('.').pop()}
          </span>
        )}
        <div className="min-w-0">
          <p className="truncate text-sm font-medium">{displayFileName(file.attributes.name)}</p>
          <p className="text-xs text-muted">
            {formatBytes(file.attributes.filesize ?? 0, i18n.language)} ·{' '}
            {formatDateTime(file.attributes.created_at, i18n.language)}
          </p>
        </div>
      </div>
      <div className="flex w-full flex-col gap-1.5 sm:w-64">
        <div className="flex items-center justify-between gap-2">
          {live ? (
            <RenderStatusBadge status={live.status} progress={live.progress} />
          ) : (
            <span className="text-xs text-muted">{t('projects.not_rendered')}</span>
          )}
          {render && (
            <span className="truncate text-xs text-muted">
              {t(`projects.category_name.${render.attributes.category_id}`, {
                defaultValue: render.attributes.category_id,
              })}
            </span>
          )}
        </div>
        {live?.status === 'rendering' && (
          <RenderProgressBar
            progress={live.progress}
            label={t('projects.render_progress', { name: file.attributes.name })}
          />
        )}
        {live?.status === 'failed' && live.error && <p className="text-xs text-danger">{t(live.error)}</p>}
        {file.meta.model_version?.current === false &&
          live?.status !== 'queued' &&
          live?.status !== 'rendering' && (
            <p className="text-xs font-medium text-accent" data-testid="input-outdated">
              {t('projects.outputs_outdated')}
            </p>
          )}
      </div>
    </li>
  );
}
