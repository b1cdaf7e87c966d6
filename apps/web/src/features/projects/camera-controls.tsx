import type { StudioCamera } from '@atelier/contracts';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { CAMERA_RANGES, zoomPercent } from './camera-binding';
import { cameraLabel } from './studio-names';
import { Section, Slider } from './studio-settings-form';

/**
 * The project's cameras: which one the view shows, and its angles, zoom and lens. The view moves
 * them too (drag, pinch, wheel), so these sliders always read what the view shows.
 */
export function CameraControls({
  cameras,
  index,
  onIndex,
  onChange,
}: {
  cameras: StudioCamera[];
  index: number;
  onIndex: (index: number) => void;
  onChange: (camera: StudioCamera) => void;
}) {
  const { t } = useTranslation();
  const camera = cameras[index] ?? cameras[0];
  if (!camera) return null;
  const set = (patch: Partial<StudioCamera>) => onChange({ ...camera, ...patch });
  return (
    <Section title={t('projects.settings.cameras')}>
      <div className="flex flex-wrap gap-1.5" role="tablist" aria-label={t('projects.settings.cameras')}>
        {cameras.map((c, position) => (
          <button
            key={`${c.name}-${position}`}
            type="button"
            role="tab"
            aria-selected={position === index}
            onClick={() => onIndex(position)}
            className={cn(
              'h-8 cursor-pointer rounded-lg border px-2.5 text-xs font-medium transition-colors',
              position === index
                ? 'border-accent bg-accent-soft text-accent'
                : 'border-line bg-surface text-muted hover:text-ink',
            )}
          >
            {cameraLabel(t, c.name)}
          </button>
        ))}
      </div>
      <Slider
        label={t('projects.settings.azimuth')}
        unit="°"
        {...CAMERA_RANGES.azimuth}
        value={Math.round(camera.azimuth)}
        onChange={(azimuth) => set({ azimuth })}
      />
      <Slider
        label={t('projects.settings.elevation')}
        unit="°"
        {...CAMERA_RANGES.elevation}
        value={Math.round(camera.elevation)}
        onChange={(elevation) => set({ elevation })}
      />
      <Slider
        label={t('projects.settings.zoom')}
        unit="%"
        {...CAMERA_RANGES.zoom}
        value={zoomPercent(camera)}
        onChange={(percent) => set({ zoom: percent / 100 })}
      />
      <Slider
        label={t('projects.settings.fov')}
        unit="°"
        {...CAMERA_RANGES.fov}
        value={Math.round(camera.fov)}
        onChange={(fov) => set({ fov })}
      />
    </Section>
  );
}
