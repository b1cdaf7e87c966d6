import type { Vec3 } from '../../scene/framing';

/**
 * Everything a worker needs to render one frame of the current scene (the model's turn comes with
 * the frame's geometry). Every job has every key, stills and video alike: a worker then sees one
 * shape of job, and V8 keeps the raster methods it optimised for it.
 */
export interface FrameJob {
  width: number;
  height: number;
  /** Samples per pixel along each axis (2 -> 4 samples, 3 -> 9). */
  supersample: number;
  camera: { position: Vec3; right: Vec3; up: Vec3; back: Vec3; tanX: number; tanY: number; near: number };
  /** sRGB-encoded colours at the top and bottom rows, or null for a transparent background. */
  background: { top: [number, number, number]; bottom: [number, number, number] } | null;
  exposure: number;
  groundShadow: boolean;
  bandHeight: number;
  /**
   * Video frames: with one sample per pixel, the smooth parts of a surface are shaded every fourth
   * pixel of every fourth row and interpolated between, instead of every second (see
   * FrameRenderer.shadeBand); supersampled frames ignore it.
   */
  coarseShading: boolean;
  /**
   * Video frames: what the worker that draws the frame's last band does to it next (see
   * PostProcessor), so the main thread only hands finished frames to ffmpeg: FXAA (single-sampled
   * frames), and the conversion into `yuv` (width × height yuv420p, shared; null: ffmpeg takes
   * RGBA), where `previous` are the rectangles the output's previous frame changed: outside them
   * the output holds the background already, which the worker then fills only there and where
   * this frame draws. Null for stills.
   */
  post: {
    fxaa: boolean;
    yuv: SharedArrayBuffer | null;
    previous: Array<[number, number, number, number]>;
  } | null;
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
