import type { ShadowMap } from './contact-shadow';
import type { FrameJob } from './frame-job';
import type { PackedScene } from './packed-scene';

/**
 * One frame's transformed vertices and per-band triangle lists, in SharedArrayBuffers: prepared
 * once per frame (on the main thread, while the workers render the previous frame) and read by
 * every worker, instead of each worker transforming and binning the whole model again.
 */
export interface FrameGeometry {
  /** Screen position in sample units and 1/depth (-1 behind the near plane), per vertex. */
  sx: Float64Array;
  sy: Float64Array;
  iz: Float64Array;
  /** World position and normal (the model turned by the frame's rotation), per vertex. */
  wp: Float32Array;
  wn: Float32Array;
  /** Triangles of band b: bandTriangles[bandStart[b] .. bandStart[b + 1]), front faces only. */
  bandStart: Uint32Array;
  bandTriangles: Uint32Array;
  bands: number;
  /**
   * The frame's turn of the model about +y: its cosine and sine. In an array, not as two numbers:
   * a worker's copy of a number field is a small integer at a turn of 0 (stills) and a double in
   * between (video), and V8 threw away every raster method it had optimised at that switch.
   */
  turn: Float64Array;
  /** Screen rectangle (pixels) holding the contact shadow: x0, y0, x1, y1 (empty when x0 > x1). */
  shadowRect: [number, number, number, number];
  /** Screen rectangle (pixels) holding the binned triangles, the same way. */
  modelRect: [number, number, number, number];
}

function shared<T extends Float64Array | Float32Array | Uint32Array>(
  Kind: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number },
  length: number,
): T {
  return new Kind(new SharedArrayBuffer(Math.max(1, length) * Kind.BYTES_PER_ELEMENT));
}

/**
 * Prepares frames into three sets of buffers taken in turn, so one can be prepared while the
 * workers still read the other two (two frames in flight: see DraftEngine.renderFrames).
 */
export class FramePreparer {
  private readonly slots: FrameGeometry[];
  private next = 0;
  /** Model-space rectangle (x0, z0, x1, z1) where the contact shadow is visible at all. */
  private readonly shadowBounds: [number, number, number, number] | null;
  private readonly binned: Uint32Array;
  private readonly firstBand: Int32Array;
  private readonly lastBand: Int32Array;
  private readonly winding: Int8Array;

  constructor(
    private readonly scene: PackedScene,
    shadow: ShadowMap | null,
  ) {
    const vertices = scene.positions.length / 3;
    const triangles = scene.indices.length / 3;
    this.slots = [0, 1, 2].map(() => ({
      sx: shared(Float64Array, vertices),
      sy: shared(Float64Array, vertices),
      iz: shared(Float64Array, vertices),
      wp: shared(Float32Array, vertices * 3),
      wn: shared(Float32Array, vertices * 3),
      bandStart: shared(Uint32Array, 1),
      bandTriangles: shared(Uint32Array, triangles),
      bands: 0,
      turn: shared(Float64Array, 2),
      shadowRect: [1, 1, 0, 0],
      modelRect: [1, 1, 0, 0],
    }));
    this.binned = new Uint32Array(triangles);
    this.firstBand = new Int32Array(triangles);
    this.lastBand = new Int32Array(triangles);
    this.winding = Int8Array.from(scene.materials, (m) => m.visibleWinding);
    this.shadowBounds = shadow ? shadowExtent(shadow) : null;
  }

  /**
   * Transforms every vertex for this job, the model turned by `rotation` (radians about +y), and
   * bins its visible-side triangles into bands. Each long loop is a method of its own: V8 compiles a
   * running loop on the stack (OSR), and code after it that had no feedback yet sent the whole frame
   * back to the interpreter (up to two deopts a frame).
   */
  prepare(job: FrameJob, rotation: number): FrameGeometry {
    const g = this.slots[this.next]!;
    this.next = (this.next + 1) % this.slots.length;
    const c = Math.cos(rotation),
      s = Math.sin(rotation);
    g.turn[0] = c;
    g.turn[1] = s;
    this.transform(g, job, c, s);
    const bands = Math.ceil(job.height / job.bandHeight);
    if (g.bandStart.length < bands + 1) g.bandStart = shared(Uint32Array, bands + 1);
    const binnedCount = this.bin(g, job, bands);
    this.fillBands(g, bands, binnedCount);
    g.bands = bands;
    g.shadowRect = this.projectShadowBounds(job, c, s);
    const ss = job.supersample;
    const box = this.modelBox;
    g.modelRect =
      binnedCount === 0
        ? [1, 1, 0, 0]
        : [
            Math.max(0, Math.floor(box[0]! / ss)),
            Math.max(0, Math.floor(box[1]! / ss)),
            Math.min(job.width - 1, Math.floor(box[2]! / ss)),
            Math.min(job.height - 1, Math.floor(box[3]! / ss)),
          ];
    return g;
  }

  /** Screen rectangle (samples) of the triangles the last bin() kept: x0, y0, x1, y1. */
  private readonly modelBox = new Float64Array(4);

  /** Every vertex turned by the frame's rotation (c, s) and projected for its camera, into g. */
  private transform(g: FrameGeometry, job: FrameJob, c: number, s: number): void {
    const { positions, normals } = this.scene;
    const { camera, supersample: ss } = job;
    const sampleWidth = job.width * ss;
    const sampleHeight = job.height * ss;
    const [px, py, pz] = camera.position;
    const [rx, ry, rz] = camera.right;
    const [ux, uy, uz] = camera.up;
    const [bx, by, bz] = camera.back;
    const halfW = sampleWidth / 2,
      halfH = sampleHeight / 2;
    const scaleX = halfW / camera.tanX,
      scaleY = halfH / camera.tanY;
    const { sx, sy, iz, wp, wn } = g;
    const vertexCount = positions.length / 3;
    for (let v = 0; v < vertexCount; v++) {
      const o = v * 3;
      const x = positions[o]!,
        y = positions[o + 1]!,
        z = positions[o + 2]!;
      const wx = c * x + s * z,
        wz = -s * x + c * z;
      wp[o] = wx;
      wp[o + 1] = y;
      wp[o + 2] = wz;
      const nx = normals[o]!,
        nz = normals[o + 2]!;
      wn[o] = c * nx + s * nz;
      wn[o + 1] = normals[o + 1]!;
      wn[o + 2] = -s * nx + c * nz;
      const qx = wx - px,
        qy = y - py,
        qz = wz - pz;
      const depth = -(qx * bx + qy * by + qz * bz);
      const inv = 1 / depth;
      iz[v] = depth > camera.near ? inv : -1;
      sx[v] = halfW + (qx * rx + qy * ry + qz * rz) * inv * scaleX;
      sy[v] = halfH - (qx * ux + qy * uy + qz * uz) * inv * scaleY;
    }
  }

  /**
   * Counts the visible-side triangles of each band into g.bandStart[band + 1] and lists them, with
   * their first and last band, in binned/firstBand/lastBand; returns how many there are.
   */
  private bin(g: FrameGeometry, job: FrameJob, bands: number): number {
    const { indices, triangleMaterial } = this.scene;
    const ss = job.supersample;
    const sampleWidth = job.width * ss;
    const sampleHeight = job.height * ss;
    const { sx, sy, iz } = g;
    const bandRows = job.bandHeight * ss;
    const triangleCount = indices.length / 3;
    const counts = g.bandStart;
    counts.fill(0, 0, bands + 1);
    // Binned triangles in order, with their first and last band.
    const { binned, firstBand: first, lastBand: last } = this;
    let binnedCount = 0;
    const winding = this.winding;
    // Written as it grows: nothing after the loop but the return (see prepare).
    const box = this.modelBox;
    box[0] = box[1] = Infinity;
    box[2] = box[3] = -Infinity;
    for (let t = 0; t < triangleCount; t++) {
      const a = indices[t * 3]!,
        b = indices[t * 3 + 1]!,
        d = indices[t * 3 + 2]!;
      if (iz[a]! < 0 || iz[b]! < 0 || iz[d]! < 0) continue;
      const ax = sx[a]!,
        ay = sy[a]!,
        bx = sx[b]!,
        by = sy[b]!,
        dx = sx[d]!,
        dy = sy[d]!;
      // Back faces of closed parts are hidden behind their front faces: never binned.
      const area = (bx - ax) * (dy - ay) - (dx - ax) * (by - ay);
      if (!(area !== 0 && Number.isFinite(area))) continue;
      const w = winding[triangleMaterial[t]!]!;
      if (w !== 0 && (area < 0 ? -1 : 1) !== w) continue;
      const minY = Math.min(ay, by, dy),
        maxY = Math.max(ay, by, dy);
      const minX = Math.min(ax, bx, dx),
        maxX = Math.max(ax, bx, dx);
      if (maxY < 0 || minY >= sampleHeight || maxX < 0 || minX >= sampleWidth) continue;
      // Small triangles that fall between sample centres cover nothing.
      if (Math.ceil(minX - 0.5) > Math.floor(maxX - 0.5) || Math.ceil(minY - 0.5) > Math.floor(maxY - 0.5))
        continue;
      if (minX < box[0]!) box[0] = minX;
      if (minY < box[1]!) box[1] = minY;
      if (maxX > box[2]!) box[2] = maxX;
      if (maxY > box[3]!) box[3] = maxY;
      const f = Math.max(0, Math.floor(minY / bandRows));
      const l = Math.min(bands - 1, Math.floor(maxY / bandRows));
      binned[binnedCount] = t;
      first[binnedCount] = f;
      last[binnedCount++] = l;
      for (let band = f; band <= l; band++) counts[band + 1]!++;
    }
    return binnedCount;
  }

  /** Turns the bands' counts into offsets and writes each band's list of triangles. */
  private fillBands(g: FrameGeometry, bands: number, binnedCount: number): void {
    const { binned, firstBand: first, lastBand: last } = this;
    const counts = g.bandStart;
    for (let band = 0; band < bands; band++) counts[band + 1]! += counts[band]!;
    const fill = counts.slice(0, bands);
    if (g.bandTriangles.length < counts[bands]!)
      g.bandTriangles = shared(Uint32Array, Math.ceil(counts[bands]! * 1.25));
    const list = g.bandTriangles;
    for (let k = 0; k < binnedCount; k++) {
      for (let band = first[k]!; band <= last[k]!; band++) list[fill[band]!++] = binned[k]!;
    }
  }

  /** Screen rectangle of the shadow's model-space bounds on the floor, for this frame's camera and turn. */
  private projectShadowBounds(job: FrameJob, cos: number, sin: number): [number, number, number, number] {
    if (!job.groundShadow || !this.shadowBounds) return [1, 1, 0, 0];
    const { position: p, right: r, up: u, back: b, tanX, tanY } = job.camera;
    const [x0, z0, x1, z1] = this.shadowBounds;
    let minX = Infinity,
      minY = Infinity,
      maxX = -Infinity,
      maxY = -Infinity;
    for (const [mx, mz] of [
      [x0, z0],
      [x1, z0],
      [x0, z1],
      [x1, z1],
    ] as const) {
      const wx = cos * mx + sin * mz - p[0],
        wy = -p[1],
        wz = -sin * mx + cos * mz - p[2];
      const depth = -(wx * b[0] + wy * b[1] + wz * b[2]);
      // A corner behind the camera: the floor patch may cover anything.
      if (depth <= 1e-9) return [0, 0, job.width - 1, job.height - 1];
      const sx = ((wx * r[0] + wy * r[1] + wz * r[2]) / (depth * tanX) + 1) * 0.5 * job.width;
      const sy = (1 - (wx * u[0] + wy * u[1] + wz * u[2]) / (depth * tanY)) * 0.5 * job.height;
      minX = Math.min(minX, sx);
      maxX = Math.max(maxX, sx);
      minY = Math.min(minY, sy);
      maxY = Math.max(maxY, sy);
    }
    return [
      Math.max(0, Math.floor(minX) - 1),
      Math.max(0, Math.floor(minY) - 1),
      Math.min(job.width - 1, Math.ceil(maxX) + 1),
      Math.min(job.height - 1, Math.ceil(maxY) + 1),
    ];
  }
}

/** Model-space rectangle of the shadow map's visible (non-negligible) texels. */
function shadowExtent(shadow: ShadowMap): [number, number, number, number] | null {
  let x0 = shadow.size,
    z0 = shadow.size,
    x1 = -1,
    z1 = -1;
  for (let z = 0; z < shadow.size; z++) {
    for (let x = 0; x < shadow.size; x++) {
      if (shadow.data[z * shadow.size + x]! < 1 / 1024) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (z < z0) z0 = z;
      if (z > z1) z1 = z;
    }
  }
  if (x1 < 0) return null;
  const texel = shadow.extent / shadow.size;
  return [
    shadow.originX + (x0 - 1) * texel,
    shadow.originZ + (z0 - 1) * texel,
    shadow.originX + (x1 + 2) * texel,
    shadow.originZ + (z1 + 2) * texel,
  ];
}
