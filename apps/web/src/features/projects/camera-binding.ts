import type { StudioCamera } from '@atelier/contracts';

/** The ranges the camera sliders offer; a drag or a pinch on the view stays inside them too. */
export const CAMERA_RANGES = {
  azimuth: { min: -180, max: 180 },
  elevation: { min: -30, max: 85 },
  fov: { min: 10, max: 70 },
  /** Percent of the distance that fits the margin: 200 is twice as close. */
  zoom: { min: 50, max: 300, step: 5 },
} as const;

/** A drag as tall as the view swings the camera half a turn, fine enough to aim on a phone. */
const DEGREES_PER_VIEW_HEIGHT = 180;

const clamp = (value: number, range: { min: number; max: number }) =>
  Math.min(range.max, Math.max(range.min, value));

/** Degrees folded into (-180, 180], the azimuth slider's range. */
function wrapDegrees(degrees: number): number {
  const folded = (((degrees + 180) % 360) + 360) % 360;
  return folded === 0 ? 180 : folded - 180;
}

/** The zoom a slider shows, in percent (100 when the camera has none). */
export const zoomPercent = (camera: Pick<StudioCamera, 'zoom'>) => Math.round((camera.zoom ?? 1) * 100);

/**
 * The camera after dragging the view by (dx, dy) pixels from where the drag began: the model turns
 * with the finger (dragging right walks the camera to its left, dragging down looks from higher up).
 * Whole degrees, as the sliders show them.
 */
export function orbitCamera(start: StudioCamera, dx: number, dy: number, viewHeight: number): StudioCamera {
  const perPixel = DEGREES_PER_VIEW_HEIGHT / Math.max(1, viewHeight);
  return {
    ...start,
    azimuth: Math.round(wrapDegrees(start.azimuth - dx * perPixel)),
    elevation: Math.round(clamp(start.elevation + dy * perPixel, CAMERA_RANGES.elevation)),
  };
}

/** The camera after pinching or scrolling the view by `factor` (2 = twice as close), in the slider's steps. */
export function zoomCamera(start: StudioCamera, factor: number): StudioCamera {
  const { step } = CAMERA_RANGES.zoom;
  const percent = clamp(Math.round((zoomPercent(start) * factor) / step) * step, CAMERA_RANGES.zoom);
  return { ...start, zoom: percent / 100 };
}
