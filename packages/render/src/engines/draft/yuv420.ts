// RGBA -> yuv420p for the draft's turntable, so ffmpeg gets frames it encodes as they are instead
// of converting each one itself (its conversion costs it more CPU than this one, and the frames
// through the pipe are 2.7× smaller).

/** Fixed-point scale of the coefficients below. */
const SHIFT = 16;
const ONE = 1 << SHIFT;
/**
 * BT.601, limited range (what ffmpeg converts RGBA to by default, and how players read an untagged
 * mp4): Y = 16 + 219 × (0.299 R + 0.587 G + 0.114 B) / 255, U and V = 128 + 224 × (B - Y′) / 1.772
 * and (R - Y′) / 1.402, over 255.
 */
const YR = Math.round(((0.299 * 219) / 255) * ONE);
const YG = Math.round(((0.587 * 219) / 255) * ONE);
const YB = Math.round(((0.114 * 219) / 255) * ONE);
const Y0 = (16 << SHIFT) + (ONE >> 1);
// Chroma from the sum of a 2 × 2 block (four times the mean): two more bits of shift.
const UR = Math.round(((-0.168736 * 224) / 255) * ONE);
const UG = Math.round(((-0.331264 * 224) / 255) * ONE);
const UB = Math.round(((0.5 * 224) / 255) * ONE);
const VR = UB;
const VG = Math.round(((-0.418688 * 224) / 255) * ONE);
const VB = Math.round(((-0.081312 * 224) / 255) * ONE);
const C0 = (128 << (SHIFT + 2)) + (1 << (SHIFT + 1));

/**
 * Writes the pixels of `rects` (x0, y0, x1, y1, inclusive; empty ones ignored) of `rgba` (width ×
 * height, row-major from the top left; alpha ignored) into the same places of a yuv420p frame `yuv`
 * (the Y plane, then U, then V, each chroma sample the mean of a 2 × 2 block), each block once: a
 * frame's model and shadow rectangles without the corners of the box around both. Rectangles are
 * widened to whole blocks; width and height must be even. The rest of `yuv` is left as it is.
 */
export function rgbaToYuv420(
  rgba: Uint8Array,
  yuv: Uint8Array,
  width: number,
  height: number,
  rects: ReadonlyArray<readonly [number, number, number, number]>,
): void {
  if (width % 2 || height % 2) throw new RangeError(`yuv420p needs an even size, got ${width}x${height}`);
  if (rgba.length < width * height * 4 || yuv.length < (width * height * 3) / 2)
    throw new RangeError('frame buffers too small');
  // Widened to whole blocks and clipped to the frame.
  const blocks: number[][] = [];
  let top = height,
    bottom = 0;
  for (const [x0, y0, x1, y1] of rects) {
    if (x0 > x1 || y0 > y1) continue;
    const block = [
      Math.max(0, x0) & ~1,
      Math.max(0, y0) & ~1,
      Math.min(width - 1, x1 | 1),
      Math.min(height - 1, y1 | 1),
    ];
    blocks.push(block);
    top = Math.min(top, block[1]!);
    bottom = Math.max(bottom, block[3]!);
  }
  const spans: number[] = [];
  for (let y = top; y < bottom; y += 2) {
    // The rectangles' columns on these two rows, in order and merged where they meet or overlap.
    spans.length = 0;
    for (const [bx0, by0, bx1, by1] of blocks) {
      if (y < by0! || y > by1!) continue;
      let k = spans.length;
      spans.push(bx0!, bx1!);
      for (; k > 0 && spans[k - 2]! > bx0!; k -= 2) {
        spans[k] = spans[k - 2]!;
        spans[k + 1] = spans[k - 1]!;
        spans[k - 2] = bx0!;
        spans[k - 1] = bx1!;
      }
    }
    for (let k = 0; k < spans.length;) {
      const from = spans[k]!;
      let to = spans[k + 1]!;
      for (k += 2; k < spans.length && spans[k]! <= to + 1; k += 2) to = Math.max(to, spans[k + 1]!);
      blockRow(rgba, yuv, width, height, y, from, to);
    }
  }
}

/** Rows y and y + 1, columns x0…x1 (x0 even, x1 odd): four lumas and one U and V per block. */
function blockRow(
  rgba: Uint8Array,
  yuv: Uint8Array,
  width: number,
  height: number,
  y: number,
  x0: number,
  x1: number,
): void {
  const chroma = width * height;
  const cw = width >> 1;
  let u = chroma + (y >> 1) * cw + (x0 >> 1);
  let v = u + (chroma >> 2);
  let l = y * width + x0;
  let o = l * 4;
  const below = width * 4;
  for (let x = x0; x < x1; x += 2, l += 2, o += 8, u++, v++) {
    const r0 = rgba[o]!,
      g0 = rgba[o + 1]!,
      b0 = rgba[o + 2]!,
      r1 = rgba[o + 4]!,
      g1 = rgba[o + 5]!,
      b1 = rgba[o + 6]!,
      r2 = rgba[o + below]!,
      g2 = rgba[o + below + 1]!,
      b2 = rgba[o + below + 2]!,
      r3 = rgba[o + below + 4]!,
      g3 = rgba[o + below + 5]!,
      b3 = rgba[o + below + 6]!;
    yuv[l] = (YR * r0 + YG * g0 + YB * b0 + Y0) >> SHIFT;
    yuv[l + 1] = (YR * r1 + YG * g1 + YB * b1 + Y0) >> SHIFT;
    yuv[l + width] = (YR * r2 + YG * g2 + YB * b2 + Y0) >> SHIFT;
    yuv[l + width + 1] = (YR * r3 + YG * g3 + YB * b3 + Y0) >> SHIFT;
    const r = r0 + r1 + r2 + r3,
      g = g0 + g1 + g2 + g3,
      b = b0 + b1 + b2 + b3;
    yuv[u] = (UR * r + UG * g + UB * b + C0) >> (SHIFT + 2);
    yuv[v] = (VR * r + VG * g + VB * b + C0) >> (SHIFT + 2);
  }
}
