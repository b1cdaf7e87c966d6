import { describe, expect, it } from 'vitest';
import { cropCentre, squareCrop } from '../../../src/features/account/crop';

describe('the avatar crop', () => {
  it('takes the largest centred square at zoom 1', () => {
    expect(squareCrop(400, 200, 1, { x: 200, y: 100 })).toEqual({ x: 100, y: 0, side: 200 });
    expect(squareCrop(150, 400, 1, { x: 75, y: 200 })).toEqual({ x: 0, y: 125, side: 150 });
  });

  it('zooms by shrinking the square around its centre, up to 4 times', () => {
    expect(squareCrop(400, 200, 2, { x: 200, y: 100 })).toEqual({ x: 150, y: 50, side: 100 });
    expect(squareCrop(400, 200, 10, { x: 200, y: 100 }).side).toBe(50);
  });

  it('keeps the square inside the image however far it is dragged', () => {
    const crop = squareCrop(400, 200, 2, { x: -1000, y: 5000 });
    expect(crop).toEqual({ x: 0, y: 100, side: 100 });
    // Panning back starts from the square's edge, not from where the drag overshot.
    expect(cropCentre(crop)).toEqual({ x: 50, y: 150 });
  });
});
