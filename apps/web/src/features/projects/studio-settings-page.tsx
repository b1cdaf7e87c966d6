import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { EffectiveScene } from '@atelier/contracts';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { api } from '../../lib/api-client';
import { projectKeys, updateStudioDefault, useStudioDefaults } from './projects-api';
import { StudioSettingsForm, useDebouncedSetting, type SceneView } from './studio-settings-form';

/** /user/settings/studio — the user's defaults, laid under every project's own settings. */
export function StudioSettingsPage() {
  const { t } = useTranslation();
  const defaults = useStudioDefaults();
  const scene = useQuery({
    queryKey: [...projectKeys.studio, 'scene'],
    queryFn: () => api.get<EffectiveScene>('/api/studio-settings/scene').then((b) => b.data),
  });
  const change = useDebouncedSetting(updateStudioDefault);
  const data = scene.data;
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

  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <header className="flex flex-col gap-1">
        <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">{t('projects.area')}</p>
        <h1 className="font-display text-3xl font-semibold tracking-tight sm:text-4xl">
          {t('pages.studio_settings')}
        </h1>
        <p className="max-w-xl text-sm text-muted">{t('projects.studio_lead')}</p>
      </header>
      <Card className="p-5 sm:p-7">
        {view && defaults.data ? (
          <StudioSettingsForm view={view} own={defaults.data} onChange={change} />
        ) : (
          <div className="grid place-items-center py-10">
            <Spinner className="size-6" />
          </div>
        )}
      </Card>
    </section>
  );
}
