import { describe, expect, it } from 'vitest';
import { FramePreparer, type FrameGeometry } from '../src/engines/draft/frame-geometry';
import type { FrameJob } from '../src/engines/draft/frame-job';
import { Fxaa } from '../src/engines/draft/fxaa';
import { changedRects, type Rect } from '../src/engines/draft/post-process';
import { rgbaToYuv420 } from '../src/engines/draft/yuv420';
import { handOutTwoAtATime, pooledTurntable } from './fixtures/gold-knot';

const { W, H, scene, shadow, packed, drawAlone, pool, coarse } = pooledTurntable();

/** The frame drawn alone on this thread, then smoothed and converted whole, as the workers finish it. */
function finishedAlone(job: FrameJob, turn: number, geometry: FrameGeometry) {
  const frame = drawAlone(job, turn);
  const [x0, y0, x1, y1] = geometry.modelRect;
  expect(new Fxaa().apply(frame, W, H, x0 - 1, y0 - 1, x1 + 1, y1 + 1)).toBeGreaterThan(0);
  const yuv = new Uint8Array((W * H * 3) / 2);
  rgbaToYuv420(frame, yuv, W, H, [[0, 0, W - 1, H - 1]]);
  return { frame, yuv };
}

describe('draft video frames finished in the raster workers', () => {
  it('come back smoothed and converted as this thread would smooth and convert them', async () => {
    await pool.setScene({ type: 'scene', scene: packed, shadow, environment: scene.environment });
    const preparer = new FramePreparer(packed, shadow);
    const turns = [0.4, 1.3, 2.2, 3.1];
    const outputs = turns.map(() => new SharedArrayBuffer(W * H * 4));
    const yuvs = turns.map(() => new SharedArrayBuffer((W * H * 3) / 2));
    // Two frames with the workers at a time, as the engine hands them out; each buffer fresh, so
    // the whole frame is converted.
    const jobs = turns.map((_, i) => ({
      ...coarse,
      post: { fxaa: true, yuv: yuvs[i]!, previous: [[0, 0, W - 1, H - 1]] as Rect[] },
    }));
    await handOutTwoAtATime(pool, preparer, jobs, turns, outputs);
    for (let i = 0; i < turns.length; i++) {
      const { frame, yuv } = finishedAlone(coarse, turns[i]!, preparer.prepare(jobs[i]!, turns[i]!));
      expect(Buffer.from(new Uint8Array(outputs[i]!)).equals(Buffer.from(frame)), `frame ${i}`).toBe(true);
      expect(Buffer.from(new Uint8Array(yuvs[i]!)).equals(Buffer.from(yuv)), `yuv ${i}`).toBe(true);
    }
    expect(pool.reusable).toBe(true);
  });

  it('reuse one buffer as a fresh one, refilling and converting only where the frame before drew', async () => {
    await pool.setScene({ type: 'scene', scene: packed, shadow, environment: scene.environment });
    const preparer = new FramePreparer(packed, shadow);
    const output = new SharedArrayBuffer(W * H * 4);
    const yuv = new SharedArrayBuffer((W * H * 3) / 2);
    let previous: Rect[] = [[0, 0, W - 1, H - 1]];
    // Far apart, so the model and its shadow move between frames.
    for (const turn of [0.2, 1.9, 3.5, 5.2]) {
      const job = { ...coarse, post: { fxaa: true, yuv, previous } };
      const geometry = preparer.prepare(job, turn);
      await pool.renderFrame(job, geometry, output);
      previous = changedRects(geometry);
      const expected = finishedAlone(coarse, turn, geometry);
      expect(
        Buffer.from(new Uint8Array(output)).equals(Buffer.from(expected.frame)),
        `frame at ${turn}`,
      ).toBe(true);
      expect(Buffer.from(new Uint8Array(yuv)).equals(Buffer.from(expected.yuv)), `yuv at ${turn}`).toBe(true);
    }
  });
});
