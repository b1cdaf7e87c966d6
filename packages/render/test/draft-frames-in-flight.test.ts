import { afterAll, describe, expect, it } from 'vitest';
import { FramePreparer } from '../src/engines/draft/frame-geometry';
import { RasterPool } from '../src/engines/draft/raster-pool';
import { draftTurntable, goldKnot } from './fixtures/gold-knot';

const W = 480,
  H = 270;

// Small, with enough bands and shading for two workers to split every frame.
const { scene, shadow, packed, jobAt, drawAlone } = draftTurntable(goldKnot(120, 16), W, H);
const coarseAt = (turn: number) => jobAt(turn, { coarseShading: true });

const pool = new RasterPool(2);
afterAll(() => pool.close());

describe('draft raster pool with frames in flight', () => {
  it('draws each of several frames handed out at once as it draws it alone', async () => {
    await pool.setScene({ type: 'scene', scene: packed, shadow, environment: scene.environment });
    const preparer = new FramePreparer(packed, shadow);
    const turns = [0.3, 1.1, 2.0, 2.9, 3.7, 4.6];
    const outputs = turns.map(() => new SharedArrayBuffer(W * H * 4));
    // Two frames with the workers at a time, as the engine hands them out; each checked the moment
    // its own promise resolves, while the next one is still being drawn.
    const seen: Uint8Array[] = [];
    const inFlight: Array<Promise<void>> = [];
    const handOut = (i: number): void => {
      const job = coarseAt(turns[i]!);
      inFlight.push(pool.renderFrame(job, preparer.prepare(job), outputs[i]!));
    };
    handOut(0);
    handOut(1);
    for (let i = 0; i < turns.length; i++) {
      await inFlight[i];
      seen.push(new Uint8Array(outputs[i]!).slice());
      if (i + 2 < turns.length) handOut(i + 2);
    }
    for (let i = 0; i < turns.length; i++) {
      const expected = drawAlone(coarseAt(turns[i]!));
      expect(seen[i]!.length).toBe(expected.length);
      expect(Buffer.from(seen[i]!).equals(Buffer.from(expected)), `frame ${i}`).toBe(true);
    }
    expect(pool.reusable).toBe(true);
  });
});
