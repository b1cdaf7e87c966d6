import { afterEach, describe, expect, it, vi } from 'vitest';
import { FrameRenderer } from '../src/engines/draft/rasterizer';
import { draftTurntable, goldKnot } from './fixtures/gold-knot';

const W = 960,
  H = 540;

const { jobWith, drawAlone } = draftTurntable(goldKnot(300, 40), W, H);

/** One turntable frame drawn on this thread; its RGBA bytes. */
const render = (coarseShading: boolean, turn: number, supersample = 1): Uint8Array =>
  drawAlone(jobWith({ coarseShading, supersample }), turn);

function psnr(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) if ((i & 3) !== 3) sum += (a[i]! - b[i]!) ** 2;
  return 10 * Math.log10((255 * 255) / (sum / ((a.length / 4) * 3)));
}

describe('draft coarse shading (video frames)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shades markedly fewer pixels and stays within 45 dB of the fine grid', () => {
    const shadeAt = vi.spyOn(FrameRenderer.prototype as unknown as { shadeAt: () => boolean }, 'shadeAt');
    for (const turn of [0, 1.3]) {
      shadeAt.mockClear();
      const fine = render(false, turn);
      const fineShades = shadeAt.mock.calls.length;
      shadeAt.mockClear();
      const coarse = render(true, turn);
      const coarseShades = shadeAt.mock.calls.length;
      expect(fineShades).toBeGreaterThan(10_000);
      expect(coarseShades).toBeLessThan(fineShades * 0.9);
      expect(psnr(fine, coarse)).toBeGreaterThanOrEqual(45);
    }
  });

  it('leaves frames with more than one sample per pixel as they are', () => {
    const a = render(false, 0.4, 2);
    const b = render(true, 0.4, 2);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});
