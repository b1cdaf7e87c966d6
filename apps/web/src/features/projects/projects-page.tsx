import { useQuery } from '@tanstack/react-query';
import { Boxes, Clapperboard, FolderInput, History, Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { SelectField } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { useLocalPreference } from './local-preference';
import { ProjectCoverImage } from './project-cover';
import { fetchProjects, projectKeys, useRenderEvents, type ProjectResource } from './projects-api';
import { renderQueueLine, useRenderQueue, type RenderQueueEntry } from './render-queue';
import { EmptyState, LoadFailed, RenderProgressBar, RenderStatusBadge } from './studio-parts';
import { formatDate } from '../../lib/format-date';

const SORTS = ['created_at:desc', 'created_at:asc', 'name:asc', 'name:desc', 'updated_at:desc'] as const;

/** /projects — every project of the user with where its renders stand. */
export function ProjectsPage() {
  const { t } = useTranslation();
  const [sort, setSort] = useLocalPreference<(typeof SORTS)[number]>(
    'projects.sort',
    'created_at:desc',
    SORTS,
  );
  const [field, direction] = sort.split(':') as [string, string];
  const projects = useQuery({
    queryKey: projectKeys.list(sort),
    queryFn: () => fetchProjects({ sort: field, direction }),
  });
  useRenderEvents();
  const queue = useRenderQueue();

  return (
    <section className="flex flex-col gap-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1">
          <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">
            {t('projects.area')}
          </p>
          <h1 className="font-display text-3xl font-semibold tracking-tight sm:text-4xl">
            {t('pages.projects')}
          </h1>
          <p className="max-w-xl text-sm text-muted">{t('projects.list_lead')}</p>
        </div>
        <div className="flex items-end gap-2">
          <SelectField
            label={t('projects.sort_label')}
            className="w-48"
            value={sort}
            onChange={(event) => setSort(event.target.value as (typeof SORTS)[number])}
            options={SORTS.map((value) => ({ value, label: t(`projects.sort.${value.replace(':', '_')}`) }))}
          />
          <Button asChild>
            <Link to="/projects/create">
              <Plus className="size-4" aria-hidden />
              {t('projects.new')}
            </Link>
          </Button>
        </div>
      </header>

      {projects.isPending ? (
        <div className="grid place-items-center py-20">
          <Spinner className="size-6" />
        </div>
      ) : projects.isError ? (
        <LoadFailed onRetry={() => void projects.refetch()} />
      ) : projects.data && projects.data.data.length > 0 ? (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {projects.data.data.map((project) => (
            <li key={project.id} className="min-w-0">
              <ProjectCard
                project={project}
                queued={queue.find((entry) => entry.project_id === project.id)}
              />
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState
          icon={<Boxes className="size-6" aria-hidden />}
          title={t('projects.empty_title')}
          body={t('projects.empty_body')}
          action={
            <Button asChild>
              <Link to="/projects/create">
                <Plus className="size-4" aria-hidden />
                {t('projects.new')}
              </Link>
            </Button>
          }
        />
      )}
    </section>
  );
}

/** A project's card; `queued` says where its renders under way stand, once the queue has answered. */
function ProjectCard({ project, queued }: { project: ProjectResource; queued?: RenderQueueEntry }) {
  const { t, i18n } = useTranslation();
  const { renders, inputs, outputs, outdated_inputs, name, description, created_at } = project.attributes;
  const running = renders.queued + renders.rendering;
  // The batch under way when the queue tells it, else every render the project made.
  const total = queued?.total ?? renders.queued + renders.rendering + renders.done + renders.failed;
  const finished = queued?.ended ?? renders.done + renders.failed;
  return (
    <Card className="group flex h-full flex-col overflow-hidden transition-shadow hover:shadow-lift">
      <ProjectCoverImage project={project} />
      <div className="flex flex-1 flex-col gap-4 p-5">
        <div className="flex items-start justify-between gap-3">
          <div className="flex min-w-0 flex-col gap-1">
            <Link
              to={`/projects/files/${project.id}`}
              className="truncate font-display text-lg font-semibold after:absolute hover:underline"
            >
              {name}
            </Link>
            <p className="line-clamp-2 min-h-10 text-sm text-muted">
              {description || t('projects.no_description')}
            </p>
            {outdated_inputs > 0 && (
              <Link
                to={`/projects/files/${project.id}`}
                data-testid="project-outdated"
                title={t('projects.outdated_title', { count: outdated_inputs })}
                className="inline-flex h-6 items-center gap-1.5 self-start rounded-full bg-accent-soft px-2.5 text-xs font-medium whitespace-nowrap text-accent hover:underline"
              >
                <History className="size-3.5" aria-hidden />
                {t('projects.outdated_badge')}
              </Link>
            )}
          </div>
          {running > 0 ? (
            <RenderStatusBadge status="rendering" />
          ) : renders.failed > 0 ? (
            <RenderStatusBadge status="failed" />
          ) : renders.done > 0 ? (
            <RenderStatusBadge status="done" />
          ) : null}
        </div>
        {running > 0 && (
          <div className="flex flex-col gap-1.5">
            <RenderProgressBar
              progress={Math.round((finished / Math.max(1, total)) * 100)}
              label={t('projects.renders_progress', { done: finished, total })}
            />
            {queued && (
              <p className="text-xs text-muted tabular-nums" data-testid="render-queue-line">
                {renderQueueLine(queued, t)}
              </p>
            )}
          </div>
        )}
        <dl className="mt-auto grid grid-cols-3 gap-2 text-sm">
          <div className="flex flex-col">
            <dt className="flex items-center gap-1 text-xs text-muted">
              <FolderInput className="size-3.5" aria-hidden />
              {t('projects.inputs')}
            </dt>
            <dd className="font-semibold tabular-nums">{inputs}</dd>
          </div>
          <div className="flex flex-col">
            <dt className="flex items-center gap-1 text-xs text-muted">
              <Clapperboard className="size-3.5" aria-hidden />
              {t('projects.outputs')}
            </dt>
            <dd className="font-semibold tabular-nums">{outputs}</dd>
          </div>
          <div className="flex flex-col">
            <dt className="text-xs text-muted">{t('projects.created')}</dt>
            <dd className="font-medium">{formatDate(created_at, i18n.language)}</dd>
          </div>
        </dl>
        <div className="flex gap-2 border-t border-line pt-3">
          <Button asChild size="sm" variant="secondary">
            <Link to={`/projects/files/customize/${project.id}`}>{t('projects.tab.customize')}</Link>
          </Button>
          <Button asChild size="sm" variant="ghost">
            <Link to={`/projects/files/output/${project.id}`}>{t('projects.tab.output')}</Link>
          </Button>
        </div>
      </div>
    </Card>
  );
}
