import type { Bounds, PbrMaterial, Scene } from '../../../types';

// Shapes exchanged between Node and the studio page. Everything here is plain data: it crosses
// page.evaluate.

export type Vec3 = [number, number, number];

export interface PagePart {
  name: string;
  material: PbrMaterial;
  /** Byte offsets into the job's binary blob; lengths are in elements. */
  positions: number;
  normals: number;
  indices: number;
  vertexCount: number;
  indexCount: number;
  /** Simplified index buffers for output sizes (min of width and height); `indices` absent = the full mesh. */
  lods: Array<{ size: number; indices?: number; indexCount: number }>;
  /** Closed and wound outward: its back faces never show, so it is drawn single-sided. */
  closed: boolean;
  colors?: number;
  /** Offset of the baked ambient occlusion (one float per vertex). */
  occlusion?: number;
  uvs?: number;
  texture?: { offset: number; width: number; height: number };
}

export interface PageJob {
  /** URL of the binary blob holding every part's arrays. */
  url: string;
  parts: PagePart[];
  bounds: Bounds;
  environment: Scene['environment'];
  /** sRGB 0..1 triples; null for a transparent background. */
  background: { top: Vec3; bottom: Vec3 } | null;
  groundShadow: boolean;
  exposure: number;
}

/** A rectangle of a frame in image pixels (x from the left, y from the top). */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PageView {
  width: number;
  height: number;
  position: Vec3;
  target: Vec3;
  up: Vec3;
  fov: number;
  near: number;
  far: number;
  /** Radians about +y: the model (and its shadow) for turntables, the light rig for stills. */
  modelRotation: number;
  environmentRotation: number;
}

export interface PageTurntable extends Omit<PageView, 'modelRotation'> {
  frames: number;
  /**
   * Send planar YUV 4:2:0 (BT.601 limited range, top row first) converted on the GPU instead of
   * RGBA: 2.7× fewer bytes to move and nothing left for ffmpeg to convert. Needs a width divisible
   * by 8 and a height divisible by 4.
   */
  yuv: boolean;
  /**
   * With yuv: the part of the frame that can change (turntableRegion). The first frame is sent
   * whole; every later one as a yuv420p image of this region alone, to be laid over the first.
   */
  region: Region;
  /** Frames the page may render ahead of Node's acknowledgements. */
  window: number;
}

export interface StudioPageApi {
  load(job: PageJob): Promise<{ triangles: number; maxSamples: number }>;
  /** Replaces the loaded job's background (a video cannot be transparent). */
  background(background: PageJob['background']): void;
  /** Renders one view and sends its RGBA pixels (bottom-up rows) over the frame channel. */
  still(view: PageView): Promise<void>;
  /** Renders `frames` views of one full turn and sends each; resolves when Node acknowledged all. */
  turntable(view: PageTurntable): Promise<number>;
  cancel(): void;
  unload(): void;
}
