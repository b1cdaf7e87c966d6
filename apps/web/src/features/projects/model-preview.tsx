import type { EffectiveScene } from '@atelier/contracts';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Spinner } from '../../components/ui/spinner';
import { api } from '../../lib/api-client';
import { projectKeys } from './projects-api';

// three.js is large: it loads only when a model is actually shown.
const ModelViewer = lazy(() => import('./model-viewer').then((module) => ({ default: module.ModelViewer })));

/**
 * A model file of the person's in the file manager's viewer: drawn in 3D the way a new project of
 * theirs would render it (their studio defaults over the default category).
 */
export function ModelPreview({ fileId }: { fileId: string }) {
  const scene = useQuery({
    queryKey: [...projectKeys.studio, 'scene'],
    queryFn: () => api.get<EffectiveScene>('/api/studio-settings/scene').then((body) => body.data.scene),
  });
  const spinner = <Spinner className="size-6 text-white" />;
  if (!scene.data) return spinner;
  return (
    <div className="grid size-full max-w-5xl place-items-center">
      <Suspense fallback={spinner}>
        <ModelViewer fileId={fileId} scene={scene.data} cameraIndex={0} spinning={false} />
      </Suspense>
    </div>
  );
}
