import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { Button } from '../../components/ui/button';
import { SelectField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { ApiError } from '../../lib/api-client';
import { displayFileName } from '../../lib/file-name';
import { useSession } from '../session/session-queries';
import {
  generateFolderAssets,
  liveRender,
  useCategories,
  useRenderEvents,
  type RenderJobResource,
} from './projects-api';
import { RenderProgressBar, RenderStatusBadge } from './studio-parts';

/**
 * "Generate renders…" of a folder in the file manager (the description's file-generateAssets): the
 * category to render in, then each model's render as it goes, the way a project's renders show,
 * with the way to the project whose Output folder receives them.
 */
export function GenerateRendersDialog({
  folder,
  onClose,
}: {
  folder: { id: string; name: string };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  const showError = useGenericError();
  const categories = useCategories();
  const progress = useRenderEvents();
  const [chosen, setChosen] = useState<string | null>(null);
  const [renders, setRenders] = useState<RenderJobResource[] | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const category = chosen ?? categories.data?.[0]?.id ?? '';
  const name = displayFileName(folder.name);

  async function start() {
    setStarting(true);
    setRefusal(null);
    try {
      setRenders((await generateFolderAssets(folder.id, category, user!.id)).data);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) setRefusal(error.message);
      else if (!(error instanceof ApiError && (error.status === 401 || error.status === 403))) showError();
    } finally {
      setStarting(false);
    }
  }

  const projectId = renders?.[0]?.attributes.project_id;
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('projects.generate_folder_title', { name })}
      description={t('projects.generate_folder_lead')}
      className="max-w-lg"
    >
      {renders === null ? (
        <>
          <SelectField
            label={t('projects.category')}
            className="mt-5"
            value={category}
            onChange={(event) => setChosen(event.target.value)}
            options={(categories.data ?? []).map((c) => ({
              value: c.id,
              label: t(`projects.category_name.${c.id}`, { defaultValue: c.name }),
            }))}
          />
          {refusal && (
            <p role="alert" className="mt-3 rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger">
              {refusal}
            </p>
          )}
          <div className="mt-6 flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button type="button" onClick={start} loading={starting} disabled={!category}>
              {t('projects.generate_folder_start')}
            </Button>
          </div>
        </>
      ) : (
        <>
          <p className="mt-5 text-sm font-medium">
            {t('projects.generate_started', { count: renders.length })}
          </p>
          <ul className="mt-3 flex max-h-[40vh] flex-col gap-3 overflow-y-auto">
            {renders.map((render) => {
              const live = liveRender(render, progress);
              return (
                <li key={render.id} className="flex flex-col gap-1.5" data-testid="folder-render">
                  <div className="flex items-center justify-between gap-3">
                    <span className="truncate text-sm">{displayFileName(render.attributes.input_name)}</span>
                    <RenderStatusBadge status={live.status} progress={live.progress} />
                  </div>
                  <RenderProgressBar
                    progress={live.status === 'queued' ? 0 : live.status === 'done' ? 100 : live.progress}
                    label={t('projects.render_progress', { name: render.attributes.input_name })}
                  />
                  {live.status === 'failed' && live.error && (
                    <p className="text-xs text-danger">{t(live.error)}</p>
                  )}
                </li>
              );
            })}
          </ul>
          <div className="mt-6 flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={onClose}>
              {t('actions.close')}
            </Button>
            {projectId && (
              <Button asChild>
                <Link to={`/projects/files/output/${projectId}`} onClick={onClose}>
                  {t('projects.generate_folder_open')}
                </Link>
              </Button>
            )}
          </div>
        </>
      )}
    </Modal>
  );
}
