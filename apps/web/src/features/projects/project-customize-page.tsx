import type { EffectiveScene, ProjectVariant, StudioCamera, StudioMaterial } from '@atelier/contracts';
import { Box, Play, RotateCw } from 'lucide-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { SelectField } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { useSession } from '../session/session-queries';
import { CameraControls } from './camera-controls';
import { ColourwaysEditor } from './colourways';
import { updateProjectSetting, useEffectiveScene, useProject, useProjectFiles } from './projects-api';
import { EmptyState, ProjectHeader } from './studio-parts';
import { cameraLabel } from './studio-names';
import { StudioSettingsForm, useDebouncedSetting, type SceneView } from './studio-settings-form';

const NO_VARIANTS: ProjectVariant[] = [];

// three.js is large: it loads only when a model is actually shown.
const ModelViewer = lazy(() => import('./model-viewer').then((module) => ({ default: module.ModelViewer })));

/** /projects/files/customize/:id — the project's render settings beside a live view of its model. */
export function ProjectCustomizePage() {
  const { id } = useParams();
  if (!id) return <Navigate to="/projects" replace />;
  return <Customize projectId={id} />;
}

function Customize({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const project = useProject(projectId);
  const inputs = useProjectFiles(projectId, 'input');
  const scene = useEffectiveScene(projectId, undefined);
  const [fileId, setFileId] = useState<string | null>(null);
  const [cameraIndex, setCameraIndex] = useState(0);
  const [spinning, setSpinning] = useState(false);
  const change = useDebouncedSetting((key, value) => updateProjectSetting(projectId, user!.id, key, value));
  const data = scene.data;
  const cameras = useLiveCameras(data?.scene);
  // A colourway shown in the viewer lays its finishes over the project's.
  const [colourway, setColourway] = useState<Record<string, StudioMaterial> | null>(null);
  const shownScene = useMemo(
    () =>
      data && cameras.list
        ? {
            ...data.scene,
            cameras: cameras.list,
            materials: colourway ? { ...data.scene.materials, ...colourway } : data.scene.materials,
          }
        : undefined,
    [data, cameras.list, colourway],
  );
  const changeCamera = (camera: StudioCamera) => {
    const next = cameras.change(cameraIndex, camera);
    if (next) change('cameras', next);
  };
  const view = useMemo<SceneView | null>(
    () =>
      data
        ? {
            category_id: data.category_id,
            engine: data.engine,
            stills: data.stills,
            video: data.video,
            ...data.scene,
          }
        : null,
    [data],
  );
  if (project.error instanceof ApiError && project.error.status === 404)
    return <Navigate to="/projects" replace />;

  const root = project.data?.meta.root;
  const files = inputs.data?.data ?? [];
  const shown = files.find((f) => f.id === fileId) ?? files[0];

  return (
    <section className="flex flex-col gap-6">
      <ProjectHeader
        projectId={projectId}
        name={root?.attributes.name ?? <Spinner className="size-6" label={t('common.loading')} />}
        description={root?.attributes.description}
        actions={
          <Button asChild>
            <Link to={`/projects/files/${projectId}`}>
              <Play className="size-4" aria-hidden />
              {t('projects.go_generate')}
            </Link>
          </Button>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="flex min-w-0 flex-col gap-3 lg:sticky lg:top-24 lg:self-start">
          <div className="flex flex-wrap items-end gap-2">
            {files.length > 1 && (
              <SelectField
                label={t('projects.viewer_model')}
                className="min-w-48 flex-1"
                value={shown?.id ?? ''}
                onChange={(event) => setFileId(event.target.value)}
                options={files.map((f) => ({ value: f.id, label: f.attributes.name }))}
              />
            )}
            <Button
              variant={spinning ? 'primary' : 'secondary'}
              aria-pressed={spinning}
              onClick={() => setSpinning((s) => !s)}
              className="ml-auto"
            >
              <RotateCw
                className={cn('size-4', spinning && 'animate-spin [animation-duration:3s]')}
                aria-hidden
              />
              {t('projects.viewer_turntable')}
            </Button>
          </div>
          <Card className="grid aspect-square place-items-center bg-surface-2/60 p-3 sm:p-5 lg:aspect-auto lg:h-[min(70vh,42rem)]">
            {inputs.isPending || !view ? (
              <Spinner className="size-6" label={t('common.loading')} />
            ) : shown ? (
              <Suspense fallback={<Spinner className="size-6" label={t('common.loading')} />}>
                <ModelViewer
                  fileId={shown.id}
                  scene={shownScene!}
                  cameraIndex={cameraIndex}
                  spinning={spinning}
                  onCameraChange={changeCamera}
                />
              </Suspense>
            ) : (
              <EmptyState
                icon={<Box className="size-6" aria-hidden />}
                title={t('projects.no_inputs_title')}
                body={t('projects.viewer_no_model')}
                action={
                  <Button asChild variant="secondary">
                    <Link to={`/projects/files/${projectId}`}>{t('projects.tab.inputs')}</Link>
                  </Button>
                }
              />
            )}
          </Card>
          {view && (
            <p className="text-xs text-muted">
              {t('projects.viewer_caption', {
                camera: cameraLabel(t, view.cameras[cameraIndex]?.name ?? ''),
                width: view.resolution.width,
                height: view.resolution.height,
                margin: Math.round((data?.scene.margin ?? 0) * 100),
              })}{' '}
              {shown && t('projects.viewer_steer_hint')}
            </p>
          )}
        </div>
        <div className="flex flex-col gap-6">
          {cameras.list && (
            <Card className="p-5">
              <CameraControls
                cameras={cameras.list}
                index={cameraIndex}
                onIndex={setCameraIndex}
                onChange={changeCamera}
              />
            </Card>
          )}
          <Card className="p-5">
            {view && root ? (
              <StudioSettingsForm view={view} own={root.attributes.settings} onChange={change} />
            ) : (
              <div className="grid place-items-center py-10">
                <Spinner className="size-6" label={t('common.loading')} />
              </div>
            )}
          </Card>
          {view && root && (
            <Card className="p-5">
              <ColourwaysEditor
                projectId={projectId}
                categoryId={view.category_id}
                variants={root.attributes.settings.variants ?? NO_VARIANTS}
                onPreview={setColourway}
              />
            </Card>
          )}
        </div>
      </div>
    </section>
  );
}

/**
 * The cameras the view and the sliders show: a change shows at once, before the server has it; the
 * server's scene replaces it whenever it arrives (after the save, another tab, a reset).
 */
function useLiveCameras(scene: EffectiveScene['data']['scene'] | undefined) {
  const [edit, setEdit] = useState<{ base: typeof scene; list: StudioCamera[] } | null>(null);
  const list = edit && edit.base === scene ? edit.list : scene?.cameras;
  return {
    list,
    /** The cameras with the one at `index` replaced, now shown; undefined before the scene is known. */
    change(index: number, camera: StudioCamera) {
      if (!list) return undefined;
      const next = list.map((current, position) => (position === index ? camera : current));
      setEdit({ base: scene, list: next });
      return next;
    },
  };
}
