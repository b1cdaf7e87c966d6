import { describe, expect, it } from 'vitest';
import { FramePreparer } from '../src/engines/draft/frame-geometry';
import { draftTurntable, goldKnot } from './fixtures/gold-knot';

const W = 480,
  H = 270;
const { jobWith, drawAlone, packed, shadow } = draftTurntable(goldKnot(120, 16), W, H);

describe('draft floor shadow', () => {
  // Just under the model the contact shadow moves by tens of levels from one pixel to the next: looked
  // up every fourth row and interpolated between (tried for 1-2 % of a frame), it was 10 levels off there.
  it('is looked up on every row: the floor under the model does not depend on how rows are banded', () => {
    const fine = { ...jobWith(), bandHeight: 1 };
    const inBands = jobWith();
    for (const turn of [0.3, 2.1]) {
      const exact = drawAlone(fine, turn);
      const banded = drawAlone(inBands, turn);
      const { shadowRect, modelRect } = new FramePreparer(packed, shadow).prepare(inBands, turn);
      const [mx0, my0, mx1, my1] = modelRect;
      let compared = 0,
        darkened = 0,
        worst = 0;
      for (let y = Math.max(0, shadowRect[1]); y <= Math.min(H - 1, shadowRect[3]); y++)
        for (let x = Math.max(0, shadowRect[0]); x <= Math.min(W - 1, shadowRect[2]); x++) {
          // Only the floor: what the model covers is shaded in another order in bands of one row.
          if (x >= mx0 - 1 && x <= mx1 + 1 && y >= my0 - 1 && y <= my1 + 1) continue;
          const o = (y * W + x) * 4;
          compared++;
          if (exact[o]! < 200) darkened++;
          worst = Math.max(worst, Math.abs(exact[o]! - banded[o]!));
        }
      expect(darkened, `shadow at turn ${turn}`).toBeGreaterThan(200);
      expect(compared).toBeGreaterThan(darkened);
      expect(worst, `largest difference at turn ${turn}`).toBeLessThanOrEqual(2);
    }
  });
});
