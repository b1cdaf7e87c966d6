import type { FrameGeometry } from './frame-geometry';
import type { FrameJob } from './frame-job';
import { Fxaa } from './fxaa';
import { rgbaToYuv420 } from './yuv420';

/** A pixel rectangle x0, y0, x1, y1 (inclusive; empty when x0 > x1 or y0 > y1). */
export type Rect = [number, number, number, number];

/**
 * Where a video frame may differ from its background once finished: the model's rectangle with the
 * pixel around it that FXAA may change, and the shadow's rectangle.
 */
export function changedRects(geometry: FrameGeometry): Rect[] {
  const [x0, y0, x1, y1] = geometry.modelRect;
  return [[x0 - 1, y0 - 1, x1 + 1, y1 + 1], geometry.shadowRect];
}

/**
 * Finishes a rendered video frame in the raster worker that drew its last band (see FrameJob.post),
 * while the other workers go on to the next frame: FXAA over the model's rectangle, then yuv420p
 * within its changed rectangles and those the output's previous frame changed (elsewhere every
 * frame is the same background, converted once: a buffer's first frame has the whole frame).
 */
export class PostProcessor {
  private readonly fxaa = new Fxaa();

  run(frame: Uint8Array, job: FrameJob, geometry: FrameGeometry): void {
    const post = job.post;
    if (!post) return;
    const { width, height } = job;
    const [x0, y0, x1, y1] = geometry.modelRect;
    if (post.fxaa) this.fxaa.apply(frame, width, height, x0 - 1, y0 - 1, x1 + 1, y1 + 1);
    if (!post.yuv) return;
    rgbaToYuv420(frame, new Uint8Array(post.yuv), width, height, [
      ...changedRects(geometry),
      ...post.previous,
    ]);
  }
}
