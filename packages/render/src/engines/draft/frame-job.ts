import type { Vec3 } from '../../scene/framing';

/** Everything a worker needs to render one frame of the current scene. */
export interface FrameJob {
  width: number;
  height: number;
  /** Samples per pixel along each axis (2 -> 4 samples, 3 -> 9). */
  supersample: number;
  camera: { position: Vec3; right: Vec3; up: Vec3; back: Vec3; tanX: number; tanY: number; near: number };
  /** Turntable angle of the model about +y, radians. */
  rotation: number;
  /** sRGB-encoded colours at the top and bottom rows, or null for a transparent background. */
  background: { top: [number, number, number]; bottom: [number, number, number] } | null;
  exposure: number;
  groundShadow: boolean;
  bandHeight: number;
  /**
   * Video frames: with one sample per pixel, the smooth parts of a surface are shaded every fourth
   * pixel of every fourth row and interpolated between, instead of every second (see
   * FrameRenderer.shadeBand); supersampled frames ignore it. Stills leave it out.
   */
  coarseShading?: boolean;
  /**
   * Video frames: what the worker that draws the frame's last band does to it next (see
   * PostProcessor), so the main thread only hands finished frames to ffmpeg: FXAA (single-sampled
   * frames), and the conversion into `yuv` (width × height yuv420p, shared; null: ffmpeg takes
   * RGBA), where `previous` are the rectangles the output's previous frame changed: outside them
   * the output holds the background already, which the worker then fills only there and where
   * this frame draws.
   */
  post?: { fxaa: boolean; yuv: SharedArrayBuffer | null; previous: Array<[number, number, number, number]> };
}

/**
 * Layout of the small shared control block: per frame in flight (CONTROL_SLOTS of them, used in
 * turn), the next band to take, a stop flag and how many bands are drawn, CONTROL_STRIDE Int32s
 * apart.
 */
export const CONTROL_NEXT_BAND = 0;
export const CONTROL_ABORT = 1;
export const CONTROL_BANDS_DONE = 2;
export const CONTROL_STRIDE = 3;
export const CONTROL_SLOTS = 4;
