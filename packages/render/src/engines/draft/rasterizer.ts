import type { ShadowMap } from './contact-shadow';
import type { Environment } from './environment';
import type { FrameGeometry } from './frame-geometry';
import type { FrameJob } from './frame-job';
import type { PackedScene, ShaderMaterial } from './packed-scene';
import { STONE_BOUNCES, STONE_DISPERSION } from '../../scene/stones';
import { aces, DECODE_BYTE, encodeSrgb, fresnelFalloff } from './shading';

const MAX_SAMPLES = 16;
const SHADOW_STEP = 4;
/** Triangles in one pixel count as one surface within this relative depth spread and face angle (cos 25°). */
const SURFACE_DEPTH = 0.01;
const SURFACE_COS = 0.9;
/** Pixel states while a band is shaded: see interpolate. */
const OTHER = 0,
  SMOOTH = 1,
  DEFERRED = 2;
/** Largest difference (of 255) between two neighbours that a pixel between them may be averaged across. */
const INTERPOLATE_STEP = 8;
/**
 * The order rows of a band are shaded in, as (first row, step, reach) triples: a row whose pixels'
 * neighbours `reach` rows above and below are already shaded (and in the band) may interpolate
 * between them. Fine: even rows, then odd rows between them. Coarse (video): every fourth row,
 * then the rows halfway between, then the odd rows.
 */
const FINE_ROWS = Int32Array.of(0, 2, 0, 1, 2, 1);
const COARSE_ROWS = Int32Array.of(0, 4, 0, 2, 4, 2, 1, 2, 1);

/** First step k ≥ 0 at which an edge function e + slope·k is ≥ 0 (Infinity: none). */
function runFrom(e: number, slope: number): number {
  if (e >= 0) return 0;
  return slope > 0 ? Math.ceil(-e / slope) : Infinity;
}

/** Last step k at which an edge function e + slope·k is still ≥ 0 (Infinity: all; -1: none). */
function runTo(e: number, slope: number): number {
  if (slope >= 0) return e >= 0 || slope > 0 ? Infinity : -1;
  return e >= 0 ? Math.floor(e / -slope) : -1;
}

/**
 * Renders bands of rows of one frame: triangles are binned per band, rasterised into a
 * supersampled visibility buffer (depth + triangle id), then shaded once per distinct triangle
 * per pixel (like MSAA), so anti-aliasing costs raster work, not shading work.
 */
export class FrameRenderer {
  private job!: FrameJob;
  private frame!: FrameGeometry;
  private depth = new Float32Array(0);
  private ids = new Int32Array(0);
  /** Per pixel of the band being shaded: OTHER, SMOOTH or DEFERRED, and the centre triangle and depth of covered pixels. */
  private state = new Uint8Array(0);
  private out: Uint8Array = new Uint8Array(0);
  private centre = new Int32Array(0);
  private centreDepth = new Float32Array(0);
  /** Whether this frame is shaded on the coarse grid (FrameJob.coarseShading, one sample per pixel). */
  private coarse = false;
  /** Sample rows and columns (from, to) of the visibility buffer the last band wrote. */
  private readonly dirty = Int32Array.of(0, 0, -1);
  // Scratch for shading.
  private readonly rgb = new Float64Array(3);
  private readonly tmp = new Float64Array(3);
  private readonly distinct = new Int32Array(MAX_SAMPLES);
  private readonly counts = new Int32Array(MAX_SAMPLES);
  private readonly sumX = new Float64Array(MAX_SAMPLES);
  private readonly sumY = new Float64Array(MAX_SAMPLES);

  constructor(
    private readonly scene: PackedScene,
    private readonly environment: Environment,
    private readonly stones: Environment,
    private readonly shadow: ShadowMap | null,
  ) {}

  /**
   * The environment the surface being shaded sees: the studio, or for gems the stone light set,
   * which stands around the lens and is looked up in view space.
   */
  private lookup!: Environment;
  private lookupInView = false;

  /** Writes a world direction into the query, turned into view space for the stone light set. */
  private aim(query: Float64Array, x: number, y: number, z: number): void {
    if (!this.lookupInView) {
      query[0] = x;
      query[1] = y;
      query[2] = z;
      return;
    }
    const { right, up, back } = this.job.camera;
    query[0] = x * right[0] + y * right[1] + z * right[2];
    query[1] = x * up[0] + y * up[1] + z * up[2];
    query[2] = x * back[0] + y * back[1] + z * back[2];
  }

  /** Takes the frame to render bands of: the job and its prepared geometry. */
  setFrame(job: FrameJob, frame: FrameGeometry): void {
    this.job = job;
    this.frame = frame;
    this.coarse = job.coarseShading && job.supersample === 1;
    const bufferSize = job.width * job.supersample * job.bandHeight * job.supersample;
    if (this.depth.length < bufferSize) {
      this.depth = new Float32Array(bufferSize);
      this.ids = new Int32Array(bufferSize);
    }
    // Only the part this frame's bands use: after 2048² stills at 3×3 the buffers are ten times
    // what a 1080p video band needs.
    this.depth.fill(0, 0, bufferSize);
    this.ids.fill(-1, 0, bufferSize);
    this.dirty.set([0, 0, -1]);
    if (this.state.length < job.width * job.bandHeight) {
      this.state = new Uint8Array(job.width * job.bandHeight);
      this.centre = new Int32Array(job.width * job.bandHeight);
      this.centreDepth = new Float32Array(job.width * job.bandHeight);
    }
  }

  /** Rasterises and shades rows [band × bandHeight, …) into `out` (RGBA bytes, whole frame). */
  renderBand(band: number, out: Uint8Array): void {
    const job = this.job;
    const ss = job.supersample;
    const sampleWidth = job.width * ss;
    const rowStart = band * job.bandHeight;
    const rowEnd = Math.min(job.height, rowStart + job.bandHeight);
    const sampleRow0 = rowStart * ss;
    const sampleRows = (rowEnd - rowStart) * ss;
    const depth = this.depth;
    const ids = this.ids;
    // Clear only what the previous band wrote: the model spans a fraction of the width.
    const dirtyRows = this.dirty[0]!,
      dirtyFrom = this.dirty[1]!,
      dirtyTo = this.dirty[2]!;
    for (let y = 0; y < dirtyRows; y++) {
      depth.fill(0, y * sampleWidth + dirtyFrom, y * sampleWidth + dirtyTo + 1);
      ids.fill(-1, y * sampleWidth + dirtyFrom, y * sampleWidth + dirtyTo + 1);
    }
    const { indices } = this.scene;
    const { sx, sy, iz, bandStart, bandTriangles } = this.frame;
    let coveredMin = sampleWidth,
      coveredMax = -1;

    // Only visible-side triangles were binned; the winding just orders the corners.
    for (let k = bandStart[band]!; k < bandStart[band + 1]!; k++) {
      const t = bandTriangles[k]!;
      const a = indices[t * 3]!;
      let b = indices[t * 3 + 1]!,
        c = indices[t * 3 + 2]!;
      let area = (sx[b]! - sx[a]!) * (sy[c]! - sy[a]!) - (sx[c]! - sx[a]!) * (sy[b]! - sy[a]!);
      if (area < 0) {
        const swap = b;
        b = c;
        c = swap;
        area = -area;
      }
      const x0 = sx[a]!,
        y0 = sy[a]! - sampleRow0,
        x1 = sx[b]!,
        y1 = sy[b]! - sampleRow0,
        x2 = sx[c]!,
        y2 = sy[c]! - sampleRow0;
      const minX = Math.max(0, Math.ceil(Math.min(x0, x1, x2) - 0.5));
      const maxX = Math.min(sampleWidth - 1, Math.floor(Math.max(x0, x1, x2) - 0.5));
      const minY = Math.max(0, Math.ceil(Math.min(y0, y1, y2) - 0.5));
      const maxY = Math.min(sampleRows - 1, Math.floor(Math.max(y0, y1, y2) - 0.5));
      if (minX > maxX || minY > maxY) continue;
      if (minX < coveredMin) coveredMin = minX;
      if (maxX > coveredMax) coveredMax = maxX;
      const invArea = 1 / area;
      const z0 = iz[a]! * invArea,
        z1 = iz[b]! * invArea,
        z2 = iz[c]! * invArea;
      // Edge functions: e12 weighs vertex a, e20 vertex b, e01 vertex c.
      const e12dx = -(y2 - y1),
        e20dx = -(y0 - y2),
        e01dx = -(y1 - y0);
      // Depth along a row, per sample.
      const zdx = e12dx * z0 + e20dx * z1 + e01dx * z2;
      const startX = minX + 0.5;
      const last = maxX - minX;
      for (let y = minY; y <= maxY; y++) {
        const py = y + 0.5;
        const e12 = (x2 - x1) * (py - y1) - (y2 - y1) * (startX - x1);
        const e20 = (x0 - x2) * (py - y2) - (y0 - y2) * (startX - x2);
        const e01 = (x1 - x0) * (py - y0) - (y1 - y0) * (startX - x0);
        // The row's run of covered samples, solved from the three (linear) edge functions instead
        // of stepping through the bounding box: thin, slanted triangles leave most of it empty.
        const from = Math.max(runFrom(e12, e12dx), runFrom(e20, e20dx), runFrom(e01, e01dx));
        const to = Math.min(last, runTo(e12, e12dx), runTo(e20, e20dx), runTo(e01, e01dx));
        if (from > to) continue;
        let z = e12 * z0 + e20 * z1 + e01 * z2 + zdx * from;
        for (let i = y * sampleWidth + minX + from, end = i + to - from; i <= end; i++, z += zdx) {
          if (z > depth[i]!) {
            depth[i] = z;
            ids[i] = t;
          }
        }
      }
    }
    this.dirty[0] = sampleRows;
    this.dirty[1] = coveredMin;
    this.dirty[2] = coveredMax;
    this.shadeBand(rowStart, rowEnd, out, Math.floor(coveredMin / ss), Math.floor(coveredMax / ss));
  }

  private shadeBand(
    rowStart: number,
    rowEnd: number,
    out: Uint8Array,
    coveredFrom: number,
    coveredTo: number,
  ): void {
    const job = this.job;
    const ss = job.supersample;
    const width = job.width;
    const sampleWidth = width * ss;
    const samples = ss * ss;
    const ids = this.ids;
    const rgb = this.rgb;
    const distinct = this.distinct,
      counts = this.counts,
      sumX = this.sumX,
      sumY = this.sumY;
    const background = job.background;
    const out32 = new Uint32Array(out.buffer, out.byteOffset, out.byteLength >> 2);
    const { state, centre, centreDepth } = this;
    state.fill(OTHER, 0, (rowEnd - rowStart) * width);
    this.out = out;
    const [shadowX0, shadowY0, shadowX1, shadowY1] = this.frame.shadowRect;
    const stale = job.post?.previous;
    // Even rows first: odd rows between two of them may then be interpolated (see interpolate). On
    // the coarse grid every fourth row comes first, then the rows halfway between, then the rest;
    // and in a row, every fourth column is shaded first (the others wait for their neighbours).
    const coarse = this.coarse;
    const rows = coarse ? COARSE_ROWS : FINE_ROWS;
    const waits = coarse ? 3 : 1;
    for (let pass = 0; pass < rows.length; pass += 3)
      for (let row = rowStart + rows[pass]!; row < rowEnd; row += rows[pass + 1]!) {
        const localRow = (row - rowStart) * ss;
        const line = (row - rowStart) * width;
        const reach = rows[pass + 2]!;
        const inner = reach > 0 && row + reach < rowEnd;
        const t = job.height > 1 ? row / (job.height - 1) : 0;
        const bgR = background ? background.top[0] + (background.bottom[0] - background.top[0]) * t : 0;
        const bgG = background ? background.top[1] + (background.bottom[1] - background.top[1]) * t : 0;
        const bgB = background ? background.top[2] + (background.bottom[2] - background.top[2]) * t : 0;
        const shadowRow = row >= shadowY0 && row <= shadowY1;
        if (shadowRow) this.sampleShadowRow(row, shadowX0, shadowX1);
        const from = Math.max(0, Math.min(coveredFrom, shadowRow ? shadowX0 : width));
        const to = Math.min(width - 1, Math.max(coveredTo, shadowRow ? shadowX1 : -1));
        // Plain background first (a native fill), then only the columns that hold the model or its
        // shadow get per-pixel work. A reused video buffer holds the background already but where
        // its previous frame drew (filling whole rows of it cost 0.25 CPU-s a bench turntable).
        const packed = background
          ? ((bgR * 255 + 0.5) |
              0 |
              (((bgG * 255 + 0.5) | 0) << 8) |
              (((bgB * 255 + 0.5) | 0) << 16) |
              (255 << 24)) >>>
            0
          : 0;
        let fillFrom = stale ? from : 0,
          fillTo = stale ? to : width - 1;
        if (stale)
          for (const [x0, y0, x1, y1] of stale)
            if (row >= y0 && row <= y1 && x0 <= x1) {
              fillFrom = Math.max(0, Math.min(fillFrom, x0));
              fillTo = Math.min(width - 1, Math.max(fillTo, x1));
            }
        if (fillFrom <= fillTo) out32.fill(packed, row * width + fillFrom, row * width + fillTo + 1);
        for (let x = from; x <= to; x++) {
          const o = (row * width + x) * 4;
          let n = 0;
          let backgroundSamples = samples;
          if (x >= coveredFrom && x <= coveredTo) {
            // Most covered pixels see one triangle in every sample: shade once at the centre.
            let centreId = ids[localRow * sampleWidth + x * ss]!;
            for (let j = 0; j < ss && centreId >= 0; j++) {
              let i = (localRow + j) * sampleWidth + x * ss;
              for (let k = 0; k < ss; k++, i++)
                if (ids[i] !== centreId) {
                  centreId = -1;
                  break;
                }
            }
            if (centreId < 0) {
              n = this.gatherPixel(localRow, row, x);
              backgroundSamples = samples;
              for (let d = 0; d < n; d++) backgroundSamples -= counts[d]!;
              // A smooth surface tessellated finer than the samples, covering the pixel: shaded at the
              // centre, with the triangle seen most, like a single triangle. Silhouettes keep one
              // shade per triangle: shading changes fastest there.
              if (n > 1 && backgroundSamples === 0 && this.oneSurface(n)) {
                let best = 0;
                for (let d = 1; d < n; d++) if (counts[d]! > counts[best]!) best = d;
                centreId = distinct[best]!;
              }
            }
            if (centreId >= 0) {
              const p = line + x;
              centre[p] = centreId;
              centreDepth[p] = this.depth[localRow * sampleWidth + x * ss]!;
              if (inner && this.interpolate(o, p, width * 4 * reach, width * reach)) continue;
              // Odd columns (on the coarse grid, all but every fourth) wait for both neighbours.
              if (x & waits) {
                state[p] = DEFERRED;
                continue;
              }
              state[p] = this.shadeAt(centreId, x, row, rgb) ? SMOOTH : OTHER;
              out[o] = rgb[0]! >= 1 ? 255 : (rgb[0]! * 255 + 0.5) | 0;
              out[o + 1] = rgb[1]! >= 1 ? 255 : (rgb[1]! * 255 + 0.5) | 0;
              out[o + 2] = rgb[2]! >= 1 ? 255 : (rgb[2]! * 255 + 0.5) | 0;
              out[o + 3] = 255;
              continue;
            }
          }
          let r = 0,
            g = 0,
            b = 0,
            alpha = 0;
          for (let d = 0; d < n; d++) {
            const weight = counts[d]! / samples;
            const point = this.point;
            point[0] = sumX[d]! / counts[d]!;
            point[1] = sumY[d]! / counts[d]!;
            this.shade(distinct[d]!, rgb);
            r += rgb[0]! * weight;
            g += rgb[1]! * weight;
            b += rgb[2]! * weight;
            alpha += weight;
          }
          if (backgroundSamples > 0) {
            const weight = backgroundSamples / samples;
            const shade = shadowRow && x >= shadowX0 && x <= shadowX1 ? this.shadowAt(x - shadowX0) : 0;
            if (n === 0 && shade === 0) continue;
            if (background) {
              const keep = 1 - shade;
              r += bgR * keep * weight;
              g += bgG * keep * weight;
              b += bgB * keep * weight;
              alpha += weight;
            } else {
              alpha += shade * weight;
            }
          }
          if (!background && alpha > 0 && alpha < 1) {
            // Transparent output stores straight (not premultiplied) colour.
            r /= alpha;
            g /= alpha;
            b /= alpha;
          }
          out[o] = r >= 1 ? 255 : (r * 255 + 0.5) | 0;
          out[o + 1] = g >= 1 ? 255 : (g * 255 + 0.5) | 0;
          out[o + 2] = b >= 1 ? 255 : (b * 255 + 0.5) | 0;
          out[o + 3] = alpha >= 1 ? 255 : (alpha * 255 + 0.5) | 0;
        }
        // On the coarse grid, the columns halfway between every fourth first, then the odd ones.
        if (coarse) this.finishRow(row, line, from, to, from + ((2 - from) & 3), 2);
        this.finishRow(row, line, from, to, from | 1, 1);
      }
  }

  /**
   * The deferred columns first, first + 2 × step, … of a row: interpolated between their neighbours
   * `step` columns either side where they can be, else shaded like the rest.
   */
  private finishRow(row: number, line: number, from: number, to: number, first: number, step: number): void {
    const { state, centre, rgb, out } = this;
    for (let x = first; x <= to; x += 2 * step) {
      const p = line + x;
      if (state[p] !== DEFERRED) continue;
      const o = (row * this.job.width + x) * 4;
      if (x - step >= from && x + step <= to && this.interpolate(o, p, 4 * step, step)) continue;
      state[p] = this.shadeAt(centre[p]!, x, row, rgb) ? SMOOTH : OTHER;
      out[o] = rgb[0]! >= 1 ? 255 : (rgb[0]! * 255 + 0.5) | 0;
      out[o + 1] = rgb[1]! >= 1 ? 255 : (rgb[1]! * 255 + 0.5) | 0;
      out[o + 2] = rgb[2]! >= 1 ? 255 : (rgb[2]! * 255 + 0.5) | 0;
      out[o + 3] = 255;
    }
  }

  /**
   * Writes the pixel at byte offset o (band column index p) as the average of its two neighbours
   * `bytes` / `step` away, when both are smooth shades of its own surface whose colours differ
   * little (the light varies slowly across the three): half the shading of the broad, even parts
   * of a surface. Returns whether it did.
   */
  private interpolate(o: number, p: number, bytes: number, step: number): boolean {
    const { state, centre, centreDepth, out } = this;
    if (state[p - step] !== SMOOTH || state[p + step] !== SMOOTH) return false;
    const a = o - bytes,
      b = o + bytes;
    if (
      Math.abs(out[a]! - out[b]!) > INTERPOLATE_STEP ||
      Math.abs(out[a + 1]! - out[b + 1]!) > INTERPOLATE_STEP ||
      Math.abs(out[a + 2]! - out[b + 2]!) > INTERPOLATE_STEP
    )
      return false;
    const id = centre[p]!,
      z = centreDepth[p]!;
    if (!this.sameSurface(id, centre[p - step]!) || !this.sameSurface(id, centre[p + step]!)) return false;
    if (
      Math.abs(centreDepth[p - step]! - z) > z * SURFACE_DEPTH ||
      Math.abs(centreDepth[p + step]! - z) > z * SURFACE_DEPTH
    )
      return false;
    out[o] = (out[a]! + out[b]! + 1) >> 1;
    out[o + 1] = (out[a + 1]! + out[b + 1]! + 1) >> 1;
    out[o + 2] = (out[a + 2]! + out[b + 2]! + 1) >> 1;
    out[o + 3] = 255;
    state[p] = SMOOTH;
    return true;
  }

  /** Triangles of one material whose faces lie within ~25° of each other. */
  private sameSurface(t: number, u: number): boolean {
    const { triangleMaterial, faceNormals } = this.scene;
    if (triangleMaterial[t] !== triangleMaterial[u]) return false;
    return (
      faceNormals[t * 3]! * faceNormals[u * 3]! +
        faceNormals[t * 3 + 1]! * faceNormals[u * 3 + 1]! +
        faceNormals[t * 3 + 2]! * faceNormals[u * 3 + 2]! >=
      SURFACE_COS
    );
  }

  /**
   * Collects the distinct triangles among pixel (x, row)'s samples into distinct/counts/sumX/sumY
   * (sample-space centroid sums) and their depth range; returns how many there are.
   */
  private gatherPixel(localRow: number, row: number, x: number): number {
    const ss = this.job.supersample;
    const sampleWidth = this.job.width * ss;
    const { ids, depth, distinct, counts, sumX, sumY } = this;
    let n = 0;
    let zMin = Infinity,
      zMax = 0;
    for (let j = 0; j < ss; j++) {
      let i = (localRow + j) * sampleWidth + x * ss;
      for (let k = 0; k < ss; k++, i++) {
        const id = ids[i]!;
        if (id < 0) continue;
        const z = depth[i]!;
        if (z < zMin) zMin = z;
        if (z > zMax) zMax = z;
        let d = 0;
        while (d < n && distinct[d] !== id) d++;
        if (d === n) {
          distinct[n] = id;
          counts[n] = 0;
          sumX[n] = 0;
          sumY[n] = 0;
          n++;
        }
        counts[d]!++;
        sumX[d]! += x * ss + k + 0.5;
        sumY[d]! += row * ss + j + 0.5;
      }
    }
    this.zMin = zMin;
    this.zMax = zMax;
    return n;
  }

  private readonly sample = new Float64Array(3);
  private zMin = 0;
  private zMax = 0;

  /**
   * Whether the n triangles just gathered are one smooth surface: one material (not a gem, whose
   * facets flash independently), faces within ~25° of each other, at nearly one depth. Silhouettes,
   * overlaps and creases fail, and keep one shade per triangle for clean edges.
   */
  private oneSurface(n: number): boolean {
    if (this.zMax - this.zMin > this.zMax * SURFACE_DEPTH) return false;
    const first = this.distinct[0]!;
    if (this.scene.materials[this.scene.triangleMaterial[first]!]!.transmission > 0) return false;
    for (let d = 1; d < n; d++) if (!this.sameSurface(first, this.distinct[d]!)) return false;
    return true;
  }

  private shadowRow = new Float32Array(0);

  /**
   * The floor shadow along one row, evaluated every SHADOW_STEP pixels: the map is heavily
   * blurred, so linear interpolation between those points is invisible and saves most of the cost.
   */
  private sampleShadowRow(row: number, x0: number, x1: number): void {
    const count = Math.floor((x1 - x0) / SHADOW_STEP) + 2;
    if (this.shadowRow.length < count) this.shadowRow = new Float32Array(count * 2);
    const samples = this.shadowRow;
    const shadow = this.shadow;
    if (!shadow) {
      samples.fill(0, 0, count);
      return;
    }
    // The darkening (0..0.65) of the floor seen through the centre of each sampled pixel, from the
    // contact shadow map. In one loop with the camera in locals: a call per sample boxed its
    // doubles and looked the camera up again each time. The arithmetic is the same, term by term.
    const { camera, width, height } = this.job;
    const [b0, b1, b2] = camera.back;
    const [r0, r1, r2] = camera.right;
    const [u0, u1, u2] = camera.up;
    const [p0, p1, p2] = camera.position;
    const { tanX, tanY } = camera;
    const turn = this.frame.turn;
    const cos = turn[0]!,
      sin = turn[1]!;
    const { originX, originZ, extent, size, data } = shadow;
    const ndcY = 1 - ((row + 0.5) / height) * 2;
    const up0 = u0 * ndcY * tanY,
      up1 = u1 * ndcY * tanY,
      up2 = u2 * ndcY * tanY;
    for (let k = 0; k < count; k++) {
      samples[k] = 0;
      const ndcX = ((x0 + k * SHADOW_STEP + 0.5) / width) * 2 - 1;
      const dx = -b0 + r0 * ndcX * tanX + up0;
      const dy = -b1 + r1 * ndcX * tanX + up1;
      const dz = -b2 + r2 * ndcX * tanX + up2;
      if (dy >= 0 || p1 <= 0) continue;
      const hit = -p1 / dy;
      const wx = p0 + dx * hit;
      const wz = p2 + dz * hit;
      // Into model space (the shadow turns with the model).
      const mx = cos * wx - sin * wz;
      const mz = sin * wx + cos * wz;
      const u = ((mx - originX) / extent) * size - 0.5;
      const v = ((mz - originZ) / extent) * size - 0.5;
      if (u < 0 || v < 0 || u >= size - 1 || v >= size - 1) continue;
      const iu = u | 0,
        iv = v | 0,
        fu = u - iu,
        fv = v - iv;
      const i = iv * size + iu;
      const value =
        (data[i]! * (1 - fu) + data[i + 1]! * fu) * (1 - fv) +
        (data[i + size]! * (1 - fu) + data[i + size + 1]! * fu) * fv;
      samples[k] = value * 0.65;
    }
  }

  private shadowAt(offset: number): number {
    const k = (offset / SHADOW_STEP) | 0;
    const f = (offset - k * SHADOW_STEP) / SHADOW_STEP;
    return this.shadowRow[k]! * (1 - f) + this.shadowRow[k + 1]! * f;
  }

  /**
   * Where shade() shades, in sample space: in an array, as doubles passed as arguments to a call
   * that is not inlined are boxed (an allocation per call, a garbage collection a frame).
   */
  private readonly point = new Float64Array(2);

  /** shade() at the centre of pixel (x, row), extending its triangle's interpolation (see shade). */
  private shadeAt(t: number, x: number, row: number, out: Float64Array): boolean {
    const ss = this.job.supersample;
    this.point[0] = (x + 0.5) * ss;
    this.point[1] = (row + 0.5) * ss;
    return this.shade(t, out, true);
  }

  /**
   * Shades triangle t at sample-space point this.point (px, py), extending its interpolation past its edges
   * if `extend` (the centre of a pixel covered by its surface); writes display-encoded rgb (0..1). Where a
   * light's reflected edge passes through the pixel, the mirror lookup is supersampled. Returns
   * whether the shading is smooth here: no light's edge within a pixel, nothing but the mirror
   * lookup varying fast (no texture, gem or coat), so neighbours may interpolate it.
   */
  private shade(t: number, out: Float64Array, extend = false): boolean {
    const px = this.point[0]!,
      py = this.point[1]!;
    const { indices, colors, occlusion, uvs, triangleMaterial, materials } = this.scene;
    const a = indices[t * 3]!,
      b = indices[t * 3 + 1]!,
      c = indices[t * 3 + 2]!;
    const { sx, sy, iz, wp, wn } = this.frame;
    const area = (sx[b]! - sx[a]!) * (sy[c]! - sy[a]!) - (sx[c]! - sx[a]!) * (sy[b]! - sy[a]!);
    const invArea = 1 / area;
    let l0 = ((sx[c]! - sx[b]!) * (py - sy[b]!) - (sy[c]! - sy[b]!) * (px - sx[b]!)) * invArea;
    let l1 = ((sx[a]! - sx[c]!) * (py - sy[c]!) - (sy[a]! - sy[c]!) * (px - sx[c]!)) * invArea;
    let l2 = ((sx[b]! - sx[a]!) * (py - sy[a]!) - (sy[b]! - sy[a]!) * (px - sx[a]!)) * invArea;
    // Perspective-correct weights. The centre of a pixel covered by one surface may lie a little
    // past this triangle's edge: its interpolation carries on there, as the surface does (clamping
    // would shift the point and make smooth gradients noisy). Elsewhere (silhouettes, slivers)
    // clamp, so nothing extrapolates far.
    if (!extend || l0 < -0.5 || l1 < -0.5 || l2 < -0.5) {
      l0 = Math.max(0, l0);
      l1 = Math.max(0, l1);
      l2 = Math.max(0, l2);
    }
    l0 *= iz[a]!;
    l1 *= iz[b]!;
    l2 *= iz[c]!;
    const sum = l0 + l1 + l2 || 1;
    l0 /= sum;
    l1 /= sum;
    l2 /= sum;
    const a3 = a * 3,
      b3 = b * 3,
      c3 = c * 3;
    const pX = wp[a3]! * l0 + wp[b3]! * l1 + wp[c3]! * l2;
    const pY = wp[a3 + 1]! * l0 + wp[b3 + 1]! * l1 + wp[c3 + 1]! * l2;
    const pZ = wp[a3 + 2]! * l0 + wp[b3 + 2]! * l1 + wp[c3 + 2]! * l2;
    let nX = wn[a3]! * l0 + wn[b3]! * l1 + wn[c3]! * l2;
    let nY = wn[a3 + 1]! * l0 + wn[b3 + 1]! * l1 + wn[c3 + 1]! * l2;
    let nZ = wn[a3 + 2]! * l0 + wn[b3 + 2]! * l1 + wn[c3 + 2]! * l2;
    const cam = this.job.camera.position;
    let vX = cam[0] - pX,
      vY = cam[1] - pY,
      vZ = cam[2] - pZ;
    const vl = Math.sqrt(vX * vX + vY * vY + vZ * vZ) || 1;
    vX /= vl;
    vY /= vl;
    vZ /= vl;
    // Two-sided: seen from behind its winding (positive area in y-down screen space), a triangle
    // shows its other face; parts whose normals oppose their winding are handled the other way.
    const material = materials[triangleMaterial[t]!]!;
    const flip = area > 0 !== material.normalsAgainstWinding ? -1 : 1;
    nX *= flip;
    nY *= flip;
    nZ *= flip;
    let nl = Math.sqrt(nX * nX + nY * nY + nZ * nZ) || 1;
    nX /= nl;
    nY /= nl;
    nZ /= nl;
    let nDotV = nX * vX + nY * vY + nZ * vZ;
    if (nDotV < 0.02) {
      // Interpolated normals can lean away at silhouettes; bend them back towards the viewer.
      const push = 0.02 - nDotV;
      nX += vX * push;
      nY += vY * push;
      nZ += vZ * push;
      nl = Math.sqrt(nX * nX + nY * nY + nZ * nZ) || 1;
      nX /= nl;
      nY /= nl;
      nZ /= nl;
      nDotV = nX * vX + nY * vY + nZ * vZ;
    }

    let baseR = colors[a3]! * l0 + colors[b3]! * l1 + colors[c3]! * l2;
    let baseG = colors[a3 + 1]! * l0 + colors[b3 + 1]! * l1 + colors[c3 + 1]! * l2;
    let baseB = colors[a3 + 2]! * l0 + colors[b3 + 2]! * l1 + colors[c3 + 2]! * l2;
    if (material.texture >= 0 && uvs) {
      const u = uvs[a * 2]! * l0 + uvs[b * 2]! * l1 + uvs[c * 2]! * l2;
      const v = uvs[a * 2 + 1]! * l0 + uvs[b * 2 + 1]! * l1 + uvs[c * 2 + 1]! * l2;
      this.sampleTexture(material, u, v, this.tmp);
      baseR *= this.tmp[0]!;
      baseG *= this.tmp[1]!;
      baseB *= this.tmp[2]!;
    }

    const env = material.stone ? this.stones : this.environment;
    this.lookup = env;
    this.lookupInView = material.stone;
    const rgb = this.tmp;
    const rough = material.roughness;
    const metal = material.metalness;

    // Split-sum specular with an analytic environment BRDF (Karis, "Physically Based Shading on Mobile").
    const r0 = rough * -1 + 1,
      r1 = rough * -0.0275 + 0.0425,
      r2 = rough * -0.572 + 1.04,
      r3 = rough * 0.022 - 0.04;
    const a004 = Math.min(r0 * r0, fresnelFalloff(nDotV)) * r0 + r1;
    const scaleA = -1.04 * a004 + r2,
      biasB = 1.04 * a004 + r3;
    const spec = this.spec;
    spec[0] = (0.04 + (baseR - 0.04) * metal) * scaleA + biasB;
    spec[1] = (0.04 + (baseG - 0.04) * metal) * scaleA + biasB;
    spec[2] = (0.04 + (baseB - 0.04) * metal) * scaleA + biasB;

    // What does not depend on the mirror direction: diffuse light and the gem's inner light.
    const rest = this.rest;
    rest[0] = rest[1] = rest[2] = 0;
    const transmission = material.transmission;
    const diffuseWeight = (1 - metal) * (1 - transmission);
    if (diffuseWeight > 0) {
      env.irradiance(nX, nY, nZ, rgb);
      rest[0] += baseR * diffuseWeight * rgb[0]!;
      rest[1] += baseG * diffuseWeight * rgb[1]!;
      rest[2] += baseB * diffuseWeight * rgb[2]!;
    }
    if (transmission > 0) {
      const through = this.traceStone(material, nX, nY, nZ, vX, vY, vZ, l0, l1, l2, a3, b3, c3);
      rest[0] += baseR * transmission * through[0]!;
      rest[1] += baseG * transmission * through[1]!;
      rest[2] += baseB * transmission * through[2]!;
    }
    if (occlusion) {
      // Baked ambient occlusion: less of the studio reaches into crevices, for diffuse and mirror light alike.
      const ao = occlusion[a]! * l0 + occlusion[b]! * l1 + occlusion[c]! * l2;
      spec[0] *= ao;
      spec[1] *= ao;
      spec[2] *= ao;
      rest[0] *= ao;
      rest[1] *= ao;
      rest[2] *= ao;
    }
    const coat = material.clearcoat > 0 ? (0.04 + 0.96 * Math.pow(1 - nDotV, 5)) * material.clearcoat : 0;

    // How far the normal turns across one pixel (the interpolation's screen gradient, per sample
    // step); the reflection sweeps twice that.
    const g = flip / nl;
    const dAx = (sy[b]! - sy[c]!) * invArea,
      dBx = (sy[c]! - sy[a]!) * invArea,
      dCx = (sy[a]! - sy[b]!) * invArea;
    const dAy = (sx[c]! - sx[b]!) * invArea,
      dBy = (sx[a]! - sx[c]!) * invArea,
      dCy = (sx[b]! - sx[a]!) * invArea;
    const gxX = (wn[a3]! * dAx + wn[b3]! * dBx + wn[c3]! * dCx) * g,
      gxY = (wn[a3 + 1]! * dAx + wn[b3 + 1]! * dBx + wn[c3 + 1]! * dCx) * g,
      gxZ = (wn[a3 + 2]! * dAx + wn[b3 + 2]! * dBx + wn[c3 + 2]! * dCx) * g;
    const gyX = (wn[a3]! * dAy + wn[b3]! * dBy + wn[c3]! * dCy) * g,
      gyY = (wn[a3 + 1]! * dAy + wn[b3 + 1]! * dBy + wn[c3 + 1]! * dCy) * g,
      gyZ = (wn[a3 + 2]! * dAy + wn[b3 + 2]! * dBy + wn[c3 + 2]! * dCy) * g;
    const ss = this.job.supersample;
    const footprint =
      2 * ss * Math.sqrt(gxX * gxX + gxY * gxY + gxZ * gxZ + gyX * gyX + gyY * gyY + gyZ * gyZ);

    // A light's edge crossing the pixel is sampled twice more, a quarter pixel either side of the
    // centre along a shallow diagonal (normals following the triangle's gradient).
    const dx = ss * 0.25,
      dy = -ss * 0.125;
    const surface = this.surface;
    surface[0] = nX;
    surface[1] = nY;
    surface[2] = nZ;
    if (material.anisotropy > 0) this.bendForBrushing(material.anisotropy, rough, pX, pZ, surface);
    surface[3] = vX;
    surface[4] = vY;
    surface[5] = vZ;
    surface[6] = rough;
    surface[7] = coat;
    surface[8] = footprint;
    surface[9] = gxX * dx + gyX * dy;
    surface[10] = gxY * dx + gyY * dy;
    surface[11] = gxZ * dx + gyZ * dy;

    // Only pixels covered by one surface: at silhouettes the gradient swings too far to follow.
    if (!this.reflect(0, out) || ss === 1 || !extend) {
      return !env.edgeNearby && coat === 0 && transmission === 0 && material.texture < 0;
    }
    // Averaged after tone mapping like separate samples; two cost half of a full grid and come
    // close to it.
    const sample = this.sample;
    this.reflect(1, out);
    this.reflect(-1, sample);
    out[0] = (out[0]! + sample[0]!) * 0.5;
    out[1] = (out[1]! + sample[1]!) * 0.5;
    out[2] = (out[2]! + sample[2]!) * 0.5;
    return false;
  }

  private readonly spec = new Float64Array(3);
  private readonly rest = new Float64Array(3);

  /**
   * What shade() hands reflect(): normal, view direction, roughness, coat, footprint, and the
   * normal's step to the extra samples. In an array, as doubles passed as arguments are boxed.
   */
  private readonly surface = new Float64Array(12);
  /** Environment.radiance()'s query: direction, roughness, footprint. */
  private readonly query = new Float64Array(5);

  /**
   * Display-encoded colour, into out, of the surface shaded so far (this.spec, this.rest,
   * this.surface) at the centre (step 0) or an extra sample (step ±1): its mirror lookup plus the
   * clear coat. At the centre, returns whether a light's edge passes within the pixel (see
   * Environment.edgeInPixel).
   */
  private reflect(step: number, out: Float64Array): boolean {
    const s = this.surface;
    let nX = s[0]! + s[9]! * step,
      nY = s[1]! + s[10]! * step,
      nZ = s[2]! + s[11]! * step;
    const vX = s[3]!,
      vY = s[4]!,
      vZ = s[5]!,
      coat = s[7]!;
    const nl = Math.sqrt(nX * nX + nY * nY + nZ * nZ) || 1;
    nX /= nl;
    nY /= nl;
    nZ /= nl;
    // Normals leaning away from the viewer mirror from the far side: clamp like the silhouette bend.
    const nDotV = Math.max(0.02, nX * vX + nY * vY + nZ * vZ);
    const rX = 2 * nDotV * nX - vX,
      rY = 2 * nDotV * nY - vY,
      rZ = 2 * nDotV * nZ - vZ;
    const env = this.lookup;
    const rgb = this.tmp;
    const spec = this.spec,
      rest = this.rest;
    const query = this.query;
    this.aim(query, rX, rY, rZ);
    query[3] = s[6]!;
    query[4] = step === 0 ? s[8]! : 0;
    env.radiance(query, rgb);
    const inPixel = env.edgeInPixel;
    let outR = rgb[0]! * spec[0]! + rest[0]!;
    let outG = rgb[1]! * spec[1]! + rest[1]!;
    let outB = rgb[2]! * spec[2]! + rest[2]!;
    if (coat > 0) {
      query[3] = 0.04;
      query[4] = 0;
      env.radiance(query, rgb);
      outR = outR * (1 - coat) + rgb[0]! * coat;
      outG = outG * (1 - coat) + rgb[1]! * coat;
      outB = outB * (1 - coat) + rgb[2]! * coat;
    }
    const exposure = this.job.exposure;
    out[0] = encodeSrgb(aces(outR * exposure));
    out[1] = encodeSrgb(aces(outG * exposure));
    out[2] = encodeSrgb(aces(outB * exposure));
    return inPixel;
  }

  /**
   * Bends the normal (surface[0..2]) of brushed metal for its mirror lookup towards Filament's bent
   * normal (as three.js does for anisotropic environment light): the brushing runs around the
   * vertical axis, and reflections stretch across it, so a turned face shows a radial sheen. The
   * pull is gentler than three.js's, whose lookup is blurred by roughness where this one is sharp.
   */
  private bendForBrushing(
    anisotropy: number,
    roughness: number,
    pX: number,
    pZ: number,
    s: Float64Array,
  ): void {
    const nX = s[0]!,
      nY = s[1]!,
      nZ = s[2]!,
      vX = s[3]!,
      vY = s[4]!,
      vZ = s[5]!;
    // The brushing: around the vertical axis, within the surface.
    let bX = pZ,
      bZ = -pX;
    let bl = Math.sqrt(bX * bX + bZ * bZ);
    if (bl < 1e-9) {
      bX = 1;
      bZ = 0;
      bl = 1;
    }
    bX /= bl;
    bZ /= bl;
    const along = bX * nX + bZ * nZ;
    let tX = bX - along * nX,
      tY = -along * nY,
      tZ = bZ - along * nZ;
    const tl = Math.sqrt(tX * tX + tY * tY + tZ * tZ);
    if (tl < 1e-6) return;
    tX /= tl;
    tY /= tl;
    tZ /= tl;
    // bent = (brushing × view) × brushing, pulled back towards the normal as the finish smooths.
    const cX = tY * vZ - tZ * vY,
      cY = tZ * vX - tX * vZ,
      cZ = tX * vY - tY * vX;
    let kX = cY * tZ - cZ * tY,
      kY = cZ * tX - cX * tZ,
      kZ = cX * tY - cY * tX;
    const kl = Math.sqrt(kX * kX + kY * kY + kZ * kZ) || 1;
    kX /= kl;
    kY /= kl;
    kZ /= kl;
    const keep = 1 - 0.5 * anisotropy * (1 - roughness);
    const mX = kX + (nX - kX) * keep,
      mY = kY + (nY - kY) * keep,
      mZ = kZ + (nZ - kZ) * keep;
    const ml = Math.sqrt(mX * mX + mY * mY + mZ * mZ) || 1;
    s[0] = mX / ml;
    s[1] = mY / ml;
    s[2] = mZ / ml;
  }

  private readonly stoneRgb = new Float64Array(3);
  private readonly stoneSample = new Float64Array(3);

  /**
   * Light that enters a transmissive part here and leaves it after bouncing inside: refracted in,
   * then followed from plane to plane of the part (see stonePlanes), each time partly reflected
   * (totally, past the critical angle) and partly refracted out, once per colour with its own
   * index (dispersion, a gem's fire) into the environment. The trace runs in model space (the
   * planes' space); n and v are world space.
   */
  private traceStone(
    material: ShaderMaterial,
    nX: number,
    nY: number,
    nZ: number,
    vX: number,
    vY: number,
    vZ: number,
    l0: number,
    l1: number,
    l2: number,
    a3: number,
    b3: number,
    c3: number,
  ): Float64Array {
    const out = this.stoneRgb;
    out[0] = out[1] = out[2] = 0;
    const planes = material.planes;
    if (!planes || planes.length === 0) return out;
    const turn = this.frame.turn;
    const cos = turn[0]!,
      sin = turn[1]!;
    const p = this.scene.positions;
    let pX = p[a3]! * l0 + p[b3]! * l1 + p[c3]! * l2,
      pY = p[a3 + 1]! * l0 + p[b3 + 1]! * l1 + p[c3 + 1]! * l2,
      pZ = p[a3 + 2]! * l0 + p[b3 + 2]! * l1 + p[c3 + 2]! * l2;
    // World to model: the inverse of the frame's turn.
    const mnX = cos * nX - sin * nZ,
      mnZ = sin * nX + cos * nZ;
    const eX = cos * vX - sin * vZ,
      eY = vY,
      eZ = sin * vX + cos * vZ;
    const ior = material.ior;
    const facing = Math.max(0, mnX * eX + nY * eY + mnZ * eZ);
    const eta = 1 / ior;
    const k = 1 - eta * eta * (1 - facing * facing);
    const cosIn = Math.sqrt(Math.max(0, k));
    let dX = -eta * eX + (eta * facing - cosIn) * mnX,
      dY = -eta * eY + (eta * facing - cosIn) * nY,
      dZ = -eta * eZ + (eta * facing - cosIn) * mnZ;
    const f0 = ((ior - 1) / (ior + 1)) ** 2;
    let weight = 1 - (f0 + (1 - f0) * (1 - facing) ** 5);
    const query = this.query;
    const sample = this.stoneSample;
    const env = this.lookup;
    const count = planes.length;
    for (let bounce = 0; bounce < STONE_BOUNCES && weight > 0.01; bounce++) {
      let nearest = Infinity,
        hit = -1;
      for (let i = 0; i < count; i += 4) {
        const towards = planes[i]! * dX + planes[i + 1]! * dY + planes[i + 2]! * dZ;
        if (towards <= 1e-6) continue;
        const t = (planes[i + 3]! - planes[i]! * pX - planes[i + 1]! * pY - planes[i + 2]! * pZ) / towards;
        if (t < nearest) {
          nearest = t;
          hit = i;
        }
      }
      if (hit < 0) break;
      const step = Math.max(0, nearest);
      pX += dX * step;
      pY += dY * step;
      pZ += dZ * step;
      const hX = planes[hit]!,
        hY = planes[hit + 1]!,
        hZ = planes[hit + 2]!;
      const cosI = hX * dX + hY * dY + hZ * dZ;
      const sin2 = ior * ior * (1 - cosI * cosI);
      if (sin2 < 1) {
        // Partly out: Schlick's reflectance on the air side's angle.
        const reflectance = f0 + (1 - f0) * (1 - Math.sqrt(1 - sin2)) ** 5;
        for (let channel = 0; channel < 3; channel++) {
          const n = ior * (1 + (channel - 1) * STONE_DISPERSION);
          const kc = 1 - n * n * (1 - cosI * cosI);
          if (kc <= 0) continue;
          const b = n * cosI - Math.sqrt(kc);
          const oX = n * dX - b * hX,
            oY = n * dY - b * hY,
            oZ = n * dZ - b * hZ;
          const ol = Math.sqrt(oX * oX + oY * oY + oZ * oZ) || 1;
          // Model to world for the lookup.
          this.aim(query, (cos * oX + sin * oZ) / ol, oY / ol, (-sin * oX + cos * oZ) / ol);
          query[3] = 0.02;
          query[4] = 0;
          env.radiance(query, sample);
          out[channel]! += weight * (1 - reflectance) * sample[channel]!;
        }
        weight *= reflectance;
      }
      // The rest reflects back inside.
      dX -= 2 * cosI * hX;
      dY -= 2 * cosI * hY;
      dZ -= 2 * cosI * hZ;
    }
    return out;
  }

  /** Bilinear, repeating sample of a material's texture; linear rgb. */
  private sampleTexture(material: ShaderMaterial, u: number, v: number, out: Float64Array): void {
    const texture = this.scene.textures[material.texture]!;
    const { width, height, data } = texture;
    const x = (u - Math.floor(u)) * width - 0.5;
    const y = (v - Math.floor(v)) * height - 0.5;
    const x0 = Math.floor(x),
      y0 = Math.floor(y);
    const fx = x - x0,
      fy = y - y0;
    const wrapX = (i: number): number => ((i % width) + width) % width;
    const wrapY = (i: number): number => ((i % height) + height) % height;
    const i00 = (wrapY(y0) * width + wrapX(x0)) * 4,
      i10 = (wrapY(y0) * width + wrapX(x0 + 1)) * 4;
    const i01 = (wrapY(y0 + 1) * width + wrapX(x0)) * 4,
      i11 = (wrapY(y0 + 1) * width + wrapX(x0 + 1)) * 4;
    for (let ch = 0; ch < 3; ch++) {
      const top = DECODE_BYTE[data[i00 + ch]!]! * (1 - fx) + DECODE_BYTE[data[i10 + ch]!]! * fx;
      const bottom = DECODE_BYTE[data[i01 + ch]!]! * (1 - fx) + DECODE_BYTE[data[i11 + ch]!]! * fx;
      out[ch] = top * (1 - fy) + bottom * fy;
    }
  }
}
