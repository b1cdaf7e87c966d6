// FXAA (Timothy Lottes' FXAA 3.11, which the studio engine's turntable uses too) for the draft
// engine's video frames, on the CPU: a frame rendered with one sample per pixel gets its edges
// (silhouettes, the sharp edges of reflected softboxes) smoothed for a fraction of what 2×2
// supersampling costs. Thresholds and sub-pixel amount are FXAA 3.11's quality defaults.

/** Steps (pixels) of the search along an edge for its ends: integers, so each probe averages two pixels. */
const SEARCH_STEPS = [1, 1, 1, 1, 2, 2, 2, 2, 4, 8];
const SEARCH_REACH = SEARCH_STEPS.reduce((sum, step) => sum + step, 0);
/** Local contrast below which a pixel is left alone: absolute, and relative to the brightest neighbour. */
const THRESHOLD_MIN = 0.0312;
const THRESHOLD = 0.125;
/** How much of the sub-pixel aliasing (thin lines, single pixels) to blur away. */
const SUBPIXEL = 0.75;

/** The luma window: its row length and the frame rectangle it covers (inclusive). */
interface Window {
  lw: number;
  lx0: number;
  ly0: number;
  lx1: number;
  ly1: number;
}

/** Smooths the edges within one rectangle of RGBA frames, in place. One instance per thread. */
export class Fxaa {
  private luma = new Float32Array(0);
  private targets = new Int32Array(0);
  private blends = new Float32Array(0);
  private across = new Int32Array(0);

  /**
   * Filters pixels x0…x1 × y0…y1 (inclusive) of `frame` (width × height RGBA); the search reads a
   * margin around it. Returns how many pixels changed.
   */
  apply(
    frame: Uint8Array,
    width: number,
    height: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
  ): number {
    x0 = Math.max(1, x0);
    y0 = Math.max(1, y0);
    x1 = Math.min(width - 2, x1);
    y1 = Math.min(height - 2, y1);
    if (x0 > x1 || y0 > y1) return 0;
    // Luma over the rectangle and the search's reach around it (coordinates clamped into it).
    const lx0 = Math.max(0, x0 - SEARCH_REACH),
      ly0 = Math.max(0, y0 - SEARCH_REACH),
      lx1 = Math.min(width - 1, x1 + SEARCH_REACH),
      ly1 = Math.min(height - 1, y1 + SEARCH_REACH);
    const lw = lx1 - lx0 + 1,
      lh = ly1 - ly0 + 1;
    if (this.luma.length < lw * lh) this.luma = new Float32Array(lw * lh);
    // Each loop runs in a method of its own, called per row: V8 then optimises them as ordinary
    // functions. As one long function it ran largely unoptimised — compiled on the stack (OSR)
    // inside one loop, it fell back to the interpreter at the next loop's start, every frame.
    const luma = this.luma;
    for (let y = ly0; y <= ly1; y++) this.lumaRow(frame, (y * width + lx0) * 4, (y - ly0) * lw, lw);
    const window: Window = { lw, lx0, ly0, lx1, ly1 };
    let count = 0;
    const most = (x1 - x0 + 1) * (y1 - y0 + 1);
    if (this.targets.length < most) this.grow(most);
    for (let y = y0; y <= y1; y++) count = this.edgeRow(luma, window, width, y, x0, x1, count);
    // Written after the pass, so every pixel was judged on the unfiltered frame.
    const colours = this.colours(count);
    this.blend(frame, colours, count);
    this.store(frame, colours, count);
    return count;
  }

  /** Luma of lw pixels of a row, from byte offset o of the frame into luma[i…]. */
  private lumaRow(frame: Uint8Array, o: number, i: number, lw: number): void {
    const luma = this.luma;
    for (let end = i + lw; i < end; i++, o += 4)
      luma[i] = (0.299 * frame[o]! + 0.587 * frame[o + 1]! + 0.114 * frame[o + 2]!) * (1 / 255);
  }

  /** Judges pixels x0…x1 of row y, queueing those to blend after count; returns the new count. */
  private edgeRow(
    luma: Float32Array,
    window: Window,
    width: number,
    y: number,
    x0: number,
    x1: number,
    count: number,
  ): number {
    const { lw, lx0, ly0, lx1, ly1 } = window;
    const { targets, across, blends } = this;
    const row = (y - ly0) * lw - lx0;
    for (let x = x0; x <= x1; x++) {
      const i = row + x;
      const m = luma[i]!,
        n = luma[i - lw]!,
        s = luma[i + lw]!,
        w = luma[i - 1]!,
        e = luma[i + 1]!;
      // A cheap, branch-free first test: the range is at most the sum of the four steps from the
      // centre, so a sum below half the threshold rules the pixel out (most pixels: background
      // and broad shading), without the compare chain below.
      if (Math.abs(n - m) + Math.abs(s - m) + Math.abs(w - m) + Math.abs(e - m) < THRESHOLD_MIN * 0.5)
        continue;
      let max = m > n ? m : n,
        min = m < n ? m : n;
      if (s > max) max = s;
      else if (s < min) min = s;
      if (w > max) max = w;
      else if (w < min) min = w;
      if (e > max) max = e;
      else if (e < min) min = e;
      const range = max - min;
      if (range < THRESHOLD_MIN || range < max * THRESHOLD) continue;
      const nw = luma[i - lw - 1]!,
        ne = luma[i - lw + 1]!,
        sw = luma[i + lw - 1]!,
        se = luma[i + lw + 1]!;
      // A horizontal edge (luma changing along y) or a vertical one.
      const horizontal =
        Math.abs(nw + sw - 2 * w) + 2 * Math.abs(n + s - 2 * m) + Math.abs(ne + se - 2 * e) >=
        Math.abs(nw + ne - 2 * n) + 2 * Math.abs(w + e - 2 * m) + Math.abs(sw + se - 2 * s);
      // Sub-pixel aliasing: how far the pixel stands out from its 3×3 neighbourhood.
      const lowpass = Math.min(1, Math.abs(((n + s + w + e) * 2 + (nw + ne + sw + se)) / 12 - m) / range);
      const smooth = (-2 * lowpass + 3) * lowpass * lowpass;
      const subpixel = smooth * smooth * SUBPIXEL;
      // The neighbour across the edge: the side with the steeper step.
      const before = horizontal ? n : w,
        after = horizontal ? s : e;
      const towardsBefore = Math.abs(before - m) >= Math.abs(after - m);
      const other = towardsBefore ? before : after;
      const step = towardsBefore ? (horizontal ? -lw : -1) : horizontal ? lw : 1;
      const edgeLuma = (m + other) * 0.5;
      const scaled = Math.max(Math.abs(before - m), Math.abs(after - m)) * 0.25;
      // Search both ways along the edge for where it ends: the edge's luma changes there.
      const along = horizontal ? 1 : lw;
      const limitBack = horizontal ? x - lx0 : y - ly0,
        limitAhead = horizontal ? lx1 - x : ly1 - y;
      let backDistance = 0,
        aheadDistance = 0,
        backEnd = 0,
        aheadEnd = 0,
        backDone = false,
        aheadDone = false;
      for (let k = 0; k < SEARCH_STEPS.length && !(backDone && aheadDone); k++) {
        if (!backDone) {
          backDistance = Math.min(limitBack, backDistance + SEARCH_STEPS[k]!);
          const p = i - along * backDistance;
          backEnd = (luma[p]! + luma[p + step]!) * 0.5 - edgeLuma;
          backDone = Math.abs(backEnd) >= scaled;
        }
        if (!aheadDone) {
          aheadDistance = Math.min(limitAhead, aheadDistance + SEARCH_STEPS[k]!);
          const p = i + along * aheadDistance;
          aheadEnd = (luma[p]! + luma[p + step]!) * 0.5 - edgeLuma;
          aheadDone = Math.abs(aheadEnd) >= scaled;
        }
      }
      // Pixels near the end of an edge whose luma turns the way this one does blend towards it.
      const backCloser = backDistance < aheadDistance;
      const good = (backCloser ? backEnd : aheadEnd) < 0 !== m - edgeLuma < 0;
      const span = backDistance + aheadDistance;
      const offset = Math.max(
        good && span > 0 ? 0.5 - Math.min(backDistance, aheadDistance) / span : 0,
        subpixel,
      );
      if (offset <= 0) continue;
      targets[count] = y * width + x;
      across[count] = towardsBefore ? (horizontal ? -width : -1) : horizontal ? width : 1;
      blends[count++] = offset;
    }
    return count;
  }

  /** The blended colours of the queued pixels, each towards its neighbour across the edge. */
  private blend(frame: Uint8Array, colours: Uint8Array, count: number): void {
    const { targets, across, blends } = this;
    for (let k = 0; k < count; k++) {
      const o = targets[k]! * 4,
        q = o + across[k]! * 4;
      const t = blends[k]!;
      colours[k * 3] = frame[o]! + (frame[q]! - frame[o]!) * t + 0.5;
      colours[k * 3 + 1] = frame[o + 1]! + (frame[q + 1]! - frame[o + 1]!) * t + 0.5;
      colours[k * 3 + 2] = frame[o + 2]! + (frame[q + 2]! - frame[o + 2]!) * t + 0.5;
    }
  }

  private store(frame: Uint8Array, colours: Uint8Array, count: number): void {
    const targets = this.targets;
    for (let k = 0; k < count; k++) {
      const o = targets[k]! * 4;
      frame[o] = colours[k * 3]!;
      frame[o + 1] = colours[k * 3 + 1]!;
      frame[o + 2] = colours[k * 3 + 2]!;
    }
  }

  private rgb = new Uint8Array(0);

  private colours(count: number): Uint8Array {
    if (this.rgb.length < count * 3) this.rgb = new Uint8Array(count * 3);
    return this.rgb;
  }

  /** Room for size queued pixels (every pixel of the rectangle: no check per pixel). */
  private grow(size: number): void {
    this.targets = new Int32Array(size);
    this.across = new Int32Array(size);
    this.blends = new Float32Array(size);
  }
}
