import { describe, expect, it } from 'vitest';
import { Fxaa } from '../src/engines/draft/fxaa';

const W = 64,
  H = 48;

/** A white frame with a dark half-plane below a shallow slope: a hard, stair-stepped edge. */
function steppedEdge(): Uint8Array {
  const frame = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 4;
      const dark = y + 0.5 > 16 + 0.3 * (x + 0.5);
      frame.fill(dark ? 40 : 240, o, o + 3);
      frame[o + 3] = 255;
    }
  return frame;
}

const grey = (frame: Uint8Array, x: number, y: number): number => frame[(y * W + x) * 4]!;

describe('draft video FXAA', () => {
  it('blends the pixels along a stair-stepped edge and leaves flat areas alone', () => {
    const frame = steppedEdge();
    const before = frame.slice();
    const changed = new Fxaa().apply(frame, W, H, 0, 0, W - 1, H - 1);
    expect(changed).toBeGreaterThan(0);
    let between = 0;
    for (let x = 4; x < W - 4; x++) {
      // Each column crosses the edge once: at least one of its pixels there is now in between.
      const edge = Math.floor(16 + 0.3 * (x + 0.5));
      for (let y = edge - 1; y <= edge + 1; y++)
        if (grey(frame, x, y) > 45 && grey(frame, x, y) < 235) between++;
    }
    expect(between).toBeGreaterThan((W - 8) * 0.8);
    // Far from the edge nothing moves.
    for (const [x, y] of [
      [10, 2],
      [50, 45],
      [60, 5],
    ] as const)
      expect(grey(frame, x, y)).toBe(grey(before, x, y));
  });

  it('touches only the rectangle it is given', () => {
    const frame = steppedEdge();
    const before = frame.slice();
    expect(new Fxaa().apply(frame, W, H, 0, 0, 31, H - 1)).toBeGreaterThan(0);
    for (let y = 0; y < H; y++)
      for (let x = 32; x < W; x++) expect(grey(frame, x, y), `${x}, ${y}`).toBe(grey(before, x, y));
  });
});
