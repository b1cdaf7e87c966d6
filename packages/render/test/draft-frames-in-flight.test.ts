import { describe, expect, it } from 'vitest';
import { FramePreparer } from '../src/engines/draft/frame-geometry';
import { handOutTwoAtATime, pooledTurntable } from './fixtures/gold-knot';

const { W, H, scene, shadow, packed, drawAlone, pool, coarse } = pooledTurntable();

describe('draft raster pool with frames in flight', () => {
  it('draws each of several frames handed out at once as it draws it alone', async () => {
    await pool.setScene({ type: 'scene', scene: packed, shadow, environment: scene.environment });
    const preparer = new FramePreparer(packed, shadow);
    const turns = [0.3, 1.1, 2.0, 2.9, 3.7, 4.6];
    const outputs = turns.map(() => new SharedArrayBuffer(W * H * 4));
    // Each checked the moment its own promise resolves, while the next one is still being drawn.
    const seen: Uint8Array[] = [];
    await handOutTwoAtATime(
      pool,
      preparer,
      turns.map(() => coarse),
      turns,
      outputs,
      (i) => seen.push(new Uint8Array(outputs[i]!).slice()),
    );
    for (let i = 0; i < turns.length; i++) {
      const expected = drawAlone(coarse, turns[i]!);
      expect(seen[i]!.length).toBe(expected.length);
      expect(Buffer.from(seen[i]!).equals(Buffer.from(expected)), `frame ${i}`).toBe(true);
    }
    expect(pool.reusable).toBe(true);
  });
});
