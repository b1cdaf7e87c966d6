import {
  SETTINGS_DEBOUNCE_MS,
  type ProjectSettingsKey,
  type StudioBackground,
  type StudioCamera,
} from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pushToast } from '../../components/overlays/overlay-store';
import { SelectField } from '../../components/ui/field';
import { SwitchField } from '../../components/ui/switch';
import { ApiError } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import {
  projectKeys,
  useCategories,
  useFinishes,
  useStudioDefaults,
  type ProjectSettings,
} from './projects-api';
import { finishOf, hexToLinear, linearToHex } from './studio-names';

/** The scene values the form starts from: the merged scene the server answered. */
export interface SceneView {
  category_id: string;
  engine: 'draft' | 'studio';
  stills: number;
  video: boolean;
  materials: Record<string, { baseColor: [number, number, number] }>;
  background: StudioBackground;
  cameras: StudioCamera[];
  resolution: { width: number; height: number };
  turntable: { seconds: number; fps: number };
}

export type SettingWriter = (key: ProjectSettingsKey, value: unknown) => Promise<unknown>;

/**
 * Sends one setting after the description's 150 ms debounce (the last value of a burst wins) and
 * refreshes what depends on it; a refusal shows the server's reason.
 */
export function useDebouncedSetting(write: SettingWriter) {
  const client = useQueryClient();
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  return (key: ProjectSettingsKey, value: unknown) => {
    clearTimeout(timers.current.get(key));
    timers.current.set(
      key,
      setTimeout(() => {
        write(key, value)
          .then(() =>
            client.invalidateQueries({
              queryKey: projectKeys.all,
              predicate: (q) => q.queryKey[1] !== 'progress',
            }),
          )
          .catch((error: unknown) =>
            pushToast(
              'danger',
              error instanceof ApiError ? (error.fieldError('updateValue') ?? error.message) : String(error),
            ),
          );
      }, SETTINGS_DEBOUNCE_MS),
    );
  };
}

const RESOLUTIONS = ['1024x1024', '2048x2048', '1920x1080', '1080x1350', '3840x2160'] as const;

interface StudioSettingsFormProps {
  view: SceneView;
  /** What the project (or the studio defaults) sets itself; the rest comes from the category. */
  own: ProjectSettings;
  onChange: (key: ProjectSettingsKey, value: unknown) => void;
}

/** Category, finish, background, cameras, resolution and video length of a project or the studio defaults. */
export function StudioSettingsForm({ view, own, onChange }: StudioSettingsFormProps) {
  const { t } = useTranslation();
  const categories = useCategories();
  const finishes = useFinishes();
  const defaults = useStudioDefaults();
  // Not part of the scene: the project's own choice, else the studio default, else off.
  const [automaticEdit, setAutomaticEdit] = useState<boolean | null>(null);
  const automatic = automaticEdit ?? own.rerender_on_change ?? defaults.data?.rerender_on_change ?? false;
  // Edits show at once; the server's merged scene replaces them whenever it arrives (after a save,
  // another tab, a reset to the preset).
  const [edits, setEdits] = useState<{ base: SceneView; patch: Partial<SceneView> }>({
    base: view,
    patch: {},
  });
  if (edits.base !== view) setEdits({ base: view, patch: {} });
  const local: SceneView = { ...view, ...(edits.base === view ? edits.patch : {}) };
  const set = <K extends keyof SceneView>(key: K, value: SceneView[K], send: unknown = value) => {
    setEdits((current) => ({ base: current.base, patch: { ...current.patch, [key]: value } }));
    onChange(key as ProjectSettingsKey, send);
  };
  // Only the finishes of the category are offered; the server refuses any other.
  const offered = (finishes.data ?? []).filter((f) => f.categories.includes(local.category_id));
  const ownFinish = finishOf(own.materials?.['*'], offered);
  const shownMaterial = local.materials['*'];
  const resolution = `${local.resolution.width}x${local.resolution.height}`;

  return (
    <div className="flex flex-col gap-6">
      <Section title={t('projects.settings.look')}>
        <SelectField
          label={t('projects.category')}
          value={local.category_id}
          onChange={(event) => set('category_id', event.target.value)}
          options={(categories.data ?? []).map((c) => ({
            value: c.id,
            label: t(`projects.category_name.${c.id}`, { defaultValue: c.name }),
          }))}
        />
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1.5 text-sm font-medium">{t('projects.settings.finish')}</legend>
          <div className="flex flex-wrap gap-2">
            <FinishChip
              label={t('projects.settings.finish_category')}
              active={!own.materials}
              onClick={() => onChange('materials', null)}
            />
            {offered.map((finish) => (
              <FinishChip
                key={finish.id}
                label={t(`projects.finish.${finish.id}`)}
                swatch={linearToHex(
                  ownFinish?.id === finish.id && shownMaterial
                    ? shownMaterial.baseColor
                    : finish.material.baseColor,
                )}
                active={ownFinish?.id === finish.id}
                onClick={() => set('materials', { '*': finish.material })}
              />
            ))}
          </div>
          {ownFinish?.colourable && shownMaterial && (
            <ColorInput
              label={t('projects.settings.finish_colour')}
              value={linearToHex(shownMaterial.baseColor)}
              onChange={(hex) =>
                set('materials', { '*': { ...ownFinish.material, baseColor: hexToLinear(hex) } })
              }
            />
          )}
        </fieldset>
        <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto_auto] sm:items-end">
          <SelectField
            label={t('projects.settings.background')}
            value={local.background.kind}
            onChange={(event) => {
              const kind = event.target.value as StudioBackground['kind'];
              const next: StudioBackground =
                kind === 'color'
                  ? { kind, color: '#ffffff' }
                  : kind === 'gradient'
                    ? { kind, top: '#ffffff', bottom: '#e4e4e7' }
                    : { kind };
              set('background', next);
            }}
            options={(['gradient', 'color', 'transparent'] as const).map((kind) => ({
              value: kind,
              label: t(`projects.background.${kind}`),
            }))}
          />
          {local.background.kind === 'color' && (
            <ColorInput
              label={t('projects.background.colour')}
              value={local.background.color}
              onChange={(color) => set('background', { kind: 'color', color })}
            />
          )}
          {local.background.kind === 'gradient' && (
            <>
              <ColorInput
                label={t('projects.background.top')}
                value={local.background.top}
                onChange={(top) =>
                  set('background', {
                    ...(local.background as { kind: 'gradient'; top: string; bottom: string }),
                    top,
                  })
                }
              />
              <ColorInput
                label={t('projects.background.bottom')}
                value={local.background.bottom}
                onChange={(bottom) =>
                  set('background', {
                    ...(local.background as { kind: 'gradient'; top: string; bottom: string }),
                    bottom,
                  })
                }
              />
            </>
          )}
        </div>
      </Section>

      <Section title={t('projects.settings.output')}>
        <SelectField
          label={t('projects.settings.resolution')}
          value={RESOLUTIONS.includes(resolution as (typeof RESOLUTIONS)[number]) ? resolution : 'custom'}
          onChange={(event) => {
            const [width, height] = event.target.value.split('x').map(Number) as [number, number];
            set('resolution', { width, height });
          }}
          options={[
            ...RESOLUTIONS.map((value) => ({ value, label: value.replace('x', ' × ') })),
            ...(RESOLUTIONS.includes(resolution as (typeof RESOLUTIONS)[number])
              ? []
              : [{ value: 'custom', label: resolution.replace('x', ' × ') }]),
          ]}
        />
        <Slider
          label={t('projects.settings.stills')}
          min={0}
          max={12}
          value={local.stills}
          onChange={(stills) => set('stills', stills)}
        />
        <SwitchField
          label={t('projects.settings.video')}
          description={t('projects.settings.video_hint')}
          checked={local.video}
          onCheckedChange={(video) => set('video', video)}
        />
        {local.video && (
          <Slider
            label={t('projects.settings.video_length')}
            unit={t('projects.settings.seconds_unit')}
            min={2}
            max={30}
            value={Math.round(local.turntable.seconds)}
            onChange={(seconds) => set('turntable', { ...local.turntable, seconds }, { seconds })}
          />
        )}
        <SelectField
          label={t('projects.settings.engine')}
          value={local.engine}
          onChange={(event) => set('engine', event.target.value as SceneView['engine'])}
          options={(['draft', 'studio'] as const).map((engine) => ({
            value: engine,
            label: t(`projects.engine.${engine}`),
          }))}
        />
        <SwitchField
          label={t('projects.settings.rerender_on_change')}
          description={t('projects.settings.rerender_on_change_hint')}
          checked={automatic}
          onCheckedChange={(value) => {
            setAutomaticEdit(value);
            onChange('rerender_on_change', value);
          }}
        />
      </Section>
    </div>
  );
}

export function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="flex flex-col gap-3">
      <h2 className="text-xs font-semibold tracking-[0.12em] text-muted uppercase">{title}</h2>
      {children}
    </section>
  );
}

function FinishChip({
  label,
  swatch,
  active,
  onClick,
}: {
  label: string;
  swatch?: string;
  active: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      className={cn(
        'flex h-9 cursor-pointer items-center gap-2 rounded-full border px-3 text-xs font-medium transition-colors',
        active
          ? 'border-accent bg-accent-soft text-ink ring-3 ring-accent/15'
          : 'border-line bg-surface text-muted hover:text-ink',
      )}
    >
      {swatch && (
        <span
          className="size-4 rounded-full border border-black/10 shadow-inner"
          style={{ background: swatch }}
          aria-hidden
        />
      )}
      {label}
    </button>
  );
}

function ColorInput({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className="flex flex-col gap-1.5 text-sm font-medium">
      {label}
      <input
        type="color"
        value={value.length === 4 ? `#${[...value.slice(1)].map((c) => c + c).join('')}` : value}
        onChange={(event) => onChange(event.target.value)}
        className="h-11 w-16 cursor-pointer rounded-xl border border-line bg-surface p-1"
      />
    </label>
  );
}

export function Slider({
  label,
  value,
  min,
  max,
  step,
  unit = '',
  onChange,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step?: number;
  unit?: string;
  onChange: (value: number) => void;
}) {
  return (
    <label className="flex flex-col gap-1.5">
      <span className="flex items-center justify-between text-sm font-medium">
        {label}
        <span className="text-muted tabular-nums">
          {value}
          {unit}
        </span>
      </span>
      <input
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(event) => onChange(Number(event.target.value))}
        className="w-full accent-[var(--accent)]"
      />
    </label>
  );
}
