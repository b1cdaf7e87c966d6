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
}

/**
 * Layout of the small shared control block: per frame in flight (CONTROL_SLOTS of them, used in
 * turn), the next band to take and a stop flag, CONTROL_STRIDE Int32s apart.
 */
export const CONTROL_NEXT_BAND = 0;
export const CONTROL_ABORT = 1;
export const CONTROL_STRIDE = 2;
export const CONTROL_SLOTS = 4;
