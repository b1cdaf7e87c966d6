import type { ModelVersion } from '@atelier/contracts';
import type { TFunction } from 'i18next';
import { History, RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { formatShortDateTime } from '../../lib/format-date';
import { useSession } from '../session/session-queries';
import { rerenderProject, type ProjectResource } from './projects-api';
import { useStartRenders } from './use-start-renders';

/** Which version of its model an output came from, in words: the current one, or the one saved then. */
export function modelVersionLabel(
  version: ModelVersion | null,
  t: TFunction,
  language: string,
): string | null {
  if (!version) return null;
  if (version.current) return t('projects.model_version.current');
  if (!version.created_at) return t('projects.model_version.gone');
  return t('projects.model_version.of', { date: formatShortDateTime(version.created_at, language) });
}

/** The line under an output that says which version of the model it shows; an older one stands out. */
export function ModelVersionNote({
  version,
  className,
}: {
  version: ModelVersion | null;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const label = modelVersionLabel(version, t, i18n.language);
  if (!label) return null;
  return (
    <p
      data-testid="model-version"
      className={cn(
        'flex min-w-0 items-start gap-1 text-xs',
        version?.current ? 'text-muted' : 'font-medium text-accent',
        className,
      )}
    >
      <History className="mt-0.5 size-3 shrink-0" aria-hidden />
      <span>{label}</span>
    </p>
  );
}

/**
 * Shown on a project's screens while some of its models have a newer version than their newest
 * outputs: one click renders those models again with the same settings, outputs kept beside the others.
 */
export function OutdatedModelsBanner({ project }: { project: ProjectResource | null | undefined }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const rerender = useStartRenders(() => rerenderProject(project!.id, user!.id));
  const count = project?.attributes.outdated_inputs ?? 0;
  if (count === 0) return null;
  return (
    <div
      role="status"
      data-testid="outdated-models"
      className="flex flex-col gap-3 rounded-2xl border border-accent/30 bg-accent-soft/60 p-4 sm:flex-row sm:items-center sm:gap-4 sm:px-5"
    >
      <span className="hidden size-10 shrink-0 place-items-center rounded-xl bg-surface text-accent sm:grid">
        <History className="size-5" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <p className="font-medium">{t('projects.outdated_title', { count })}</p>
        <p className="text-sm text-muted">{t('projects.outdated_body', { count })}</p>
      </div>
      <Button
        className="self-start sm:self-auto"
        onClick={() => rerender.mutate()}
        loading={rerender.isPending}
      >
        <RotateCw className="size-4" aria-hidden />
        {t('projects.rerender')}
      </Button>
    </div>
  );
}
