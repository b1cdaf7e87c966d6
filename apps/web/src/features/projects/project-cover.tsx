import type { ProjectCover, ProjectResource } from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Boxes, ImagePlus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { pushToast } from '../../components/overlays/overlay-store';
import { IconButton } from '../../components/ui/icon-button';
import { ApiError, api } from '../../lib/api-client';
import { projectKeys, type ProjectFileResource } from './projects-api';

/** "Use as cover" in the previewer for a still: it becomes its project's card picture. */
export function UseAsCoverAction({
  file,
  cover,
}: {
  file: ProjectFileResource;
  cover?: ProjectCover | null;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  if (file.attributes.mimetype !== 'image/png') return null;
  const isCover = cover?.chosen === true && cover.id === file.id;
  const choose = () =>
    api
      .post<{ data: ProjectResource }>(`/api/projects/${file.meta.project_id}/cover`, {
        item_id: isCover ? null : file.id,
      })
      .then(() => {
        pushToast('success', t(isCover ? 'projects.cover_cleared' : 'projects.cover_set'));
        return client.invalidateQueries({ queryKey: projectKeys.all });
      })
      .catch((error: unknown) =>
        pushToast('danger', error instanceof ApiError ? error.message : t('popup_error.network_issue')),
      );
  return (
    <IconButton
      labelled
      overlay
      icon={ImagePlus}
      label={t(isCover ? 'projects.cover_chosen' : 'projects.use_as_cover')}
      pressed={isCover}
      onClick={() => void choose()}
    />
  );
}

/** The top of a project card: its cover still, or a quiet placeholder until the first render. */
export function ProjectCoverImage({ project }: { project: ProjectResource }) {
  const { t } = useTranslation();
  const { cover, name } = project.attributes;
  return (
    <div className="relative aspect-[16/9] overflow-hidden border-b border-line bg-surface-2">
      {cover ? (
        <img
          src={cover.url}
          alt={t('projects.cover_alt', { name })}
          loading="lazy"
          className="size-full object-cover"
          data-testid="project-cover"
        />
      ) : (
        <div
          className="grid size-full place-items-center bg-[radial-gradient(circle_at_30%_20%,var(--accent-soft),transparent_60%)]"
          data-testid="project-cover-placeholder"
        >
          <span className="flex flex-col items-center gap-2 text-xs text-muted">
            <span className="grid size-10 place-items-center rounded-xl bg-surface text-accent shadow-soft">
              <Boxes className="size-5" aria-hidden />
            </span>
            {t('projects.cover_none')}
          </span>
        </div>
      )}
    </div>
  );
}
