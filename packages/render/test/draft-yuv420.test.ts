import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ffmpegBinary } from '../src/encode/binaries';
import { rgbaToYuv420 } from '../src/engines/draft/yuv420';

const W = 64,
  H = 64;

/** Flat 16 × 16 tiles of assorted colours (chroma filters agree inside them), with smooth ramps in the bottom half. */
function testImage(seed: number): Uint8Array {
  const rgba = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 4;
      const tile = (x >> 4) * 7 + (y >> 4) * 13 + seed;
      const ramp = y >= H / 2;
      rgba[o] = ramp ? (x * 4) & 255 : (tile * 53) & 255;
      rgba[o + 1] = ramp ? (y * 5 + seed) & 255 : (tile * 97 + 31) & 255;
      rgba[o + 2] = ramp ? ((x + y) * 3) & 255 : (tile * 151 + 7) & 255;
      rgba[o + 3] = 255;
    }
  return rgba;
}

function convert(rgba: Uint8Array): Uint8Array {
  const yuv = new Uint8Array((W * H * 3) / 2);
  rgbaToYuv420(rgba, yuv, W, H, [[0, 0, W - 1, H - 1]]);
  return yuv;
}

describe('draft RGBA -> yuv420p', () => {
  it("converts as ffmpeg does: every luma, and the chroma of flat areas, within one of ffmpeg's", () => {
    const rgba = testImage(3);
    const ffmpeg = spawnSync(
      ffmpegBinary(),
      ['-v', 'error', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${W}x${H}`, '-i', 'pipe:0'].concat([
        '-f',
        'rawvideo',
        '-pix_fmt',
        'yuv420p',
        'pipe:1',
      ]),
      { input: rgba, maxBuffer: 1 << 20 },
    );
    expect(ffmpeg.status).toBe(0);
    const expected = new Uint8Array(ffmpeg.stdout);
    const yuv = convert(rgba);
    expect(yuv.length).toBe(expected.length);
    let worstLuma = 0;
    for (let i = 0; i < W * H; i++) worstLuma = Math.max(worstLuma, Math.abs(yuv[i]! - expected[i]!));
    expect(worstLuma).toBeLessThanOrEqual(1);
    // Chroma samples whose 2 × 2 block and ffmpeg's filter around it lie inside one flat tile (the top half).
    let worstChroma = 0,
      checked = 0;
    for (const plane of [W * H, (W * H * 5) / 4])
      for (let cy = 0; cy < H / 4; cy++)
        for (let cx = 0; cx < W / 2; cx++) {
          if (cx % 8 < 2 || cx % 8 > 5 || cy % 8 < 2 || cy % 8 > 5) continue;
          const i = plane + cy * (W / 2) + cx;
          worstChroma = Math.max(worstChroma, Math.abs(yuv[i]! - expected[i]!));
          checked++;
        }
    expect(checked).toBe(2 * 4 * 2 * 16);
    expect(worstChroma).toBeLessThanOrEqual(1);
    // Elsewhere (edges between tiles, ramps) ffmpeg's filter differs, but not by much on average.
    let sum = 0;
    for (let i = W * H; i < yuv.length; i++) sum += Math.abs(yuv[i]! - expected[i]!);
    expect(sum / (yuv.length - W * H)).toBeLessThan(4);
  });

  it('converts only the rectangle asked, widened to whole 2 × 2 blocks', () => {
    const before = testImage(1);
    const after = testImage(1);
    // A change inside x 9…20, y 5…30 only.
    for (let y = 5; y <= 30; y++)
      for (let x = 9; x <= 20; x++) after.set([255 - y * 3, x * 9, 40, 255], (y * W + x) * 4);
    const yuv = convert(before);
    rgbaToYuv420(after, yuv, W, H, [[9, 5, 20, 30]]);
    // The rectangle's blocks (x 8…21, y 4…31) now hold the new frame: the whole frame is converted.
    expect(yuv).toEqual(convert(after));

    const marked = new Uint8Array((W * H * 3) / 2).fill(7);
    rgbaToYuv420(after, marked, W, H, [[9, 5, 20, 30]]);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const inside = x >= 8 && x <= 21 && y >= 4 && y <= 31;
        expect(marked[y * W + x] === 7, `luma ${x},${y}`).toBe(!inside);
      }
    let chromaInside = 0;
    for (let i = W * H; i < marked.length; i++) if (marked[i] !== 7) chromaInside++;
    expect(chromaInside).toBe(2 * 7 * 14);
  });

  it('converts several rectangles as their blocks converted one by one, and nothing else', () => {
    const rgba = testImage(5);
    const rects: Array<[number, number, number, number]> = [
      [9, 5, 20, 30],
      [15, 20, 40, 25],
      [50, 3, 60, 9],
      [30, 40, 29, 50],
    ];
    const within = new Uint8Array((W * H * 3) / 2).fill(7);
    rgbaToYuv420(rgba, within, W, H, rects);
    const oneByOne = new Uint8Array((W * H * 3) / 2).fill(7);
    // The last rectangle is empty (x0 > x1): nothing of it is converted.
    for (const [x0, y0, x1, y1] of rects.slice(0, 3)) rgbaToYuv420(rgba, oneByOne, W, H, [[x0, y0, x1, y1]]);
    expect(within).toEqual(oneByOne);
    expect(within.includes(7)).toBe(true);
  });

  it('refuses odd sizes', () => {
    expect(() => rgbaToYuv420(new Uint8Array(9 * 4 * 4), new Uint8Array(54), 9, 4, [[0, 0, 8, 3]])).toThrow(
      RangeError,
    );
  });
});
