import { afterAll, describe, expect, it } from 'vitest';
import { FramePreparer } from '../src/engines/draft/frame-geometry';
import { Fxaa } from '../src/engines/draft/fxaa';
import { changedRects, type Rect } from '../src/engines/draft/post-process';
import { RasterPool } from '../src/engines/draft/raster-pool';
import { rgbaToYuv420 } from '../src/engines/draft/yuv420';
import { draftTurntable, goldKnot } from './fixtures/gold-knot';

const W = 480,
  H = 270;

const { scene, shadow, packed, jobAt, drawAlone } = draftTurntable(goldKnot(120, 16), W, H);
const coarseAt = (turn: number) => jobAt(turn, { coarseShading: true });

const pool = new RasterPool(2);
afterAll(() => pool.close());

describe('draft video frames finished in the raster workers', () => {
  it('come back smoothed and converted as this thread would smooth and convert them', async () => {
    await pool.setScene({ type: 'scene', scene: packed, shadow, environment: scene.environment });
    const preparer = new FramePreparer(packed, shadow);
    const turns = [0.4, 1.3, 2.2, 3.1];
    const outputs = turns.map(() => new SharedArrayBuffer(W * H * 4));
    const yuvs = turns.map(() => new SharedArrayBuffer((W * H * 3) / 2));
    // Two frames with the workers at a time, as the engine hands them out; each buffer fresh, so
    // the whole frame is converted.
    const inFlight: Array<Promise<void>> = [];
    const handOut = (i: number): void => {
      const job = {
        ...coarseAt(turns[i]!),
        post: {
          fxaa: true,
          yuv: yuvs[i]!,
          previous: [[0, 0, W - 1, H - 1]] as Array<[number, number, number, number]>,
        },
      };
      inFlight.push(pool.renderFrame(job, preparer.prepare(job), outputs[i]!));
    };
    handOut(0);
    handOut(1);
    for (let i = 0; i < turns.length; i++) {
      await inFlight[i];
      if (i + 2 < turns.length) handOut(i + 2);
    }
    const fxaa = new Fxaa();
    for (let i = 0; i < turns.length; i++) {
      const job = coarseAt(turns[i]!);
      const frame = drawAlone(job);
      const [x0, y0, x1, y1] = preparer.prepare(job).modelRect;
      expect(fxaa.apply(frame, W, H, x0 - 1, y0 - 1, x1 + 1, y1 + 1)).toBeGreaterThan(0);
      const yuv = new Uint8Array((W * H * 3) / 2);
      rgbaToYuv420(frame, yuv, W, H, 0, 0, W - 1, H - 1);
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
    const fxaa = new Fxaa();
    // Far apart, so the model and its shadow move between frames.
    for (const turn of [0.2, 1.9, 3.5, 5.2]) {
      const job = { ...coarseAt(turn), post: { fxaa: true, yuv, previous } };
      const geometry = preparer.prepare(job);
      await pool.renderFrame(job, geometry, output);
      previous = changedRects(geometry);
      const frame = drawAlone(coarseAt(turn));
      const [x0, y0, x1, y1] = geometry.modelRect;
      fxaa.apply(frame, W, H, x0 - 1, y0 - 1, x1 + 1, y1 + 1);
      const expected = new Uint8Array((W * H * 3) / 2);
      rgbaToYuv420(frame, expected, W, H, 0, 0, W - 1, H - 1);
      expect(Buffer.from(new Uint8Array(output)).equals(Buffer.from(frame)), `frame at ${turn}`).toBe(true);
      expect(Buffer.from(new Uint8Array(yuv)).equals(Buffer.from(expected)), `yuv at ${turn}`).toBe(true);
    }
  });
});
