import { abortError } from '../../abort';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writePng } from '../../encode/png';
import { openVideoSink, turntableEncoding, type VideoSink } from '../../encode/video';
import {
  MAX_ERROR_PX,
  MIN_TRIANGLES_FOR_LOD,
  simplifyModel,
  simplifyWithin,
  unitsPerPixel,
} from '../../import/simplify';
import { frameCamera, framingPoints, type CameraPose } from '../../scene/framing';
import { outputNames, stillCameras, turntableCamera } from '../../scene/outputs';
import {
  RenderError,
  type Engine,
  type Model,
  type RenderRequest,
  type RenderResult,
  type Scene,
} from '../../types';
import { computeShadowMap } from './contact-shadow';
import { FramePreparer, type FrameGeometry } from './frame-geometry';
import type { FrameJob } from './frame-job';
import { packScene, type PackedScene } from './packed-scene';
import { changedRects, type Rect } from './post-process';
import { rasterPools, type RasterPool } from './raster-pool';
import { parseHexColor } from './shading';

export interface DraftEngineOptions {
  /** Worker threads; default: every core. */
  threads?: number;
  /**
   * Samples per pixel along each axis, 1 to 4, for stills (default 3 -> 9 samples) and video frames
   * (default 1, with FXAA smoothing the edges; 2 or more supersample instead).
   */
  stillSupersample?: number;
  videoSupersample?: number;
  /** Models above this many triangles are simplified first (drafts only). */
  triangleBudget?: number;
}

const PREVIEW_SIZE = outputNames.previewSize;
const BAND_HEIGHT = 16;
/**
 * Video frames rendered, smoothed or queued for ffmpeg at once: two with the workers (see
 * renderFrames), one being smoothed and handed to ffmpeg, one in the pipe.
 */
const VIDEO_BUFFERS = 4;

/** A frame to render: its job and the model's turn about +y (radians). */
interface TurnedFrame {
  job: FrameJob;
  rotation: number;
}

// Kept here too for engines that imported them from the draft engine first.
export { fileSafe, stillCameras } from '../../scene/outputs';

function cameraOf(pose: CameraPose): FrameJob['camera'] {
  const tanY = Math.tan((pose.fov * Math.PI) / 360);
  return {
    position: pose.position,
    right: pose.right,
    up: pose.up,
    back: pose.back,
    tanX: tanY * pose.aspect,
    tanY,
    near: pose.near,
  };
}

function backgroundOf(scene: Scene, forVideo: boolean): FrameJob['background'] {
  const bg = scene.background;
  if (bg.kind === 'transparent') {
    // mp4 has no alpha: videos of transparent scenes go on white.
    return forVideo ? { top: [1, 1, 1], bottom: [1, 1, 1] } : null;
  }
  if (bg.kind === 'color') {
    const c = parseHexColor(bg.color);
    return { top: c, bottom: c };
  }
  return { top: parseHexColor(bg.top), bottom: parseHexColor(bg.bottom) };
}

/**
 * The CPU engine: fast, deterministic, everywhere. Stills and video frames are rendered by a pool
 * of raster workers sharing the scene; video frames stream into ffmpeg as they finish.
 */
export class DraftEngine implements Engine {
  readonly name = 'draft' as const;

  private readonly stillSupersample: number;
  private readonly videoSupersample: number;

  constructor(private readonly options: DraftEngineOptions = {}) {
    // The resolve step keeps at most 16 distinct samples per pixel.
    const grid = (n: number | undefined, fallback: number): number =>
      Math.min(4, Math.max(1, Math.round(n ?? fallback)));
    this.stillSupersample = grid(options.stillSupersample, 3);
    this.videoSupersample = grid(options.videoSupersample, 1);
  }

  async render(request: RenderRequest): Promise<RenderResult> {
    const started = performance.now();
    const { scene, signal, onProgress } = request;
    const progress = onProgress ?? (() => undefined);
    const written: string[] = [];
    let sink: VideoSink | undefined;
    const encoding: Array<Promise<unknown>> = [];
    let pool: RasterPool | undefined;
    // Handled at once (no unhandled rejection while later stills render), awaited together below.
    const encode = (write: Promise<unknown>): void => {
      write.catch(() => undefined);
      encoding.push(write);
    };
    try {
      if (signal?.aborted) throw abortError(signal, 'render');
      progress({ stage: 'prepare' });
      // Taken first: a new pool's workers start while the model is simplified.
      pool = rasterPools.take(this.options.threads);
      await mkdir(request.outDir, { recursive: true });
      const model = await simplifyModel(request.model, this.options.triangleBudget ?? 2_000_000);
      if (model.triangleCount === 0) throw new RenderError('empty_model', 'the model has no triangles');
      const shadow = scene.groundShadow ? computeShadowMap(model) : null;
      // Each output size draws the model at the detail it resolves (MAX_ERROR_PX), as the studio does:
      // a 200,000-triangle ring keeps about a quarter of its triangles for 2048² stills, an eighth at 1080p.
      const detailFor = async (size: number): Promise<PackedScene> => {
        const error = MAX_ERROR_PX * unitsPerPixel(model.bounds, scene.margin, size);
        return packScene(await simplifyWithin(model, error, MIN_TRIANGLES_FOR_LOD), scene);
      };
      const use = async (packed: PackedScene): Promise<FramePreparer> => {
        await pool!.setScene({ type: 'scene', scene: packed, shadow, environment: scene.environment });
        return new FramePreparer(packed, shadow);
      };
      const preparer = await use(await detailFor(Math.min(scene.resolution.width, scene.resolution.height)));
      // The video's level of detail is made on this thread while the workers render the stills
      // (from the first still's hand-off), not between the stills and the first frame.
      let videoDetail: Promise<PackedScene> | undefined;
      const startVideoDetail = (video: NonNullable<RenderRequest['video']>): Promise<PackedScene> => {
        videoDetail ??= detailFor(Math.min(video.width, video.height));
        // Handled at once (the stills may fail first), awaited before the video.
        videoDetail.catch(() => undefined);
        return videoDetail;
      };
      const points = framingPoints(model);
      const result: RenderResult = { stills: [], seconds: 0 };

      const cameras = stillCameras(scene, request.stills);
      const { width, height } = scene.resolution;
      // Three outputs take turns: the next two stills render while this one is copied out.
      const stillOutputs = Array.from(
        { length: Math.min(3, cameras.length) },
        () => new SharedArrayBuffer(width * height * 4),
      );
      const still = (i: number): TurnedFrame => {
        const pose = frameCamera(model, cameras[i]!, width / height, scene.margin, { points });
        return { job: this.job(scene, pose, width, height, this.stillSupersample, null), rotation: 0 };
      };
      const onStill = (i: number): void => {
        if (i === 0 && request.video) startVideoDetail(request.video);
        const angle = cameras[i]!;
        const path = join(request.outDir, outputNames.still(i, angle));
        // PNG encoding (sharp, off the main thread) overlaps the next still; it gets its own copy.
        const image = {
          width,
          height,
          channels: 4 as const,
          data: new Uint8Array(stillOutputs[i % 3]!).slice(),
        };
        const opaque = scene.background.kind !== 'transparent';
        written.push(path);
        encode(writePng(image, path, { opaque }));
        result.stills.push(path);
        if (i === 0 && request.preview) {
          progress({ stage: 'preview' });
          const preview = join(request.outDir, outputNames.preview);
          written.push(preview);
          result.preview = preview;
          encode(writePng(image, preview, { maxSize: PREVIEW_SIZE, opaque }));
        }
      };
      const stillProgress = (i: number): void =>
        progress({ stage: 'stills', frame: i + 1, frames: cameras.length });
      await this.renderFrames(
        pool,
        preparer,
        cameras.length,
        still,
        (i) => stillOutputs[i % 3]!,
        signal,
        stillProgress,
        onStill,
      );
      if (request.preview && !result.preview) {
        progress({ stage: 'preview' });
        result.preview = await this.renderPreview(pool, preparer, model, scene, points, request, written);
      }

      if (request.video) {
        const { seconds, fps, width: vw, height: vh } = request.video;
        const frames = Math.max(1, Math.round(seconds * fps));
        const angle = turntableCamera(scene);
        const pose = frameCamera(model, angle, vw / vh, scene.margin, { points, turntable: true });
        const path = join(request.outDir, outputNames.video);
        written.push(path);
        // Encoded beside the raster workers, which keep every core of the pool busy. Even sizes go
        // to ffmpeg as yuv420p, converted by the workers: ffmpeg's own conversion of RGBA cost it
        // more CPU than ours costs. Its malloc (glibc) then keeps 64 MiB spare at the heap's
        // top, else it gives back and faults in each frame's packet again.
        const yuv = vw % 2 === 0 && vh % 2 === 0;
        sink = openVideoSink({
          path,
          width: vw,
          height: vh,
          fps,
          signal,
          ...turntableEncoding(pool.size),
          ...(yuv ? { pixelFormat: 'yuv420p' as const, env: { MALLOC_TOP_PAD_: String(64 << 20) } } : {}),
        });
        // Frames are rendered into a few shared buffers taken in turn, so the workers render ahead
        // while the encoder (sharing the cores) catches up; a buffer is rendered into again once
        // its last frame has been handed to ffmpeg (as it is, or converted into its yuv buffer).
        const outputs = Array.from({ length: VIDEO_BUFFERS }, () => new SharedArrayBuffer(vw * vh * 4));
        const yuvOutputs = outputs.map((): SharedArrayBuffer | null =>
          yuv ? new SharedArrayBuffer((vw * vh * 3) / 2) : null,
        );
        // What each buffer's last frame changed (the first frame converts the whole frame).
        const changed = outputs.map((): Rect[] => [[0, 0, vw - 1, vh - 1]]);
        const writes: Array<Promise<void>> = [];
        const outputAt = async (f: number): Promise<SharedArrayBuffer> => {
          await writes[f % VIDEO_BUFFERS];
          return outputs[f % VIDEO_BUFFERS]!;
        };
        // Frames come back finished (FXAA for single-sampled ones, yuv420p) by the worker that drew
        // their last band, while the others render the next: this thread only prepares and writes.
        const onFrame = (f: number, geometry: FrameGeometry): void => {
          const b = f % VIDEO_BUFFERS;
          changed[b] = changedRects(geometry);
          const write = sink!.write(new Uint8Array(yuvOutputs[b] ?? outputs[b]!));
          // Awaited before its buffer is reused and at the end; not unhandled meanwhile.
          write.catch(() => undefined);
          writes[b] = write;
        };
        // Handed out after done(f - 4), whose frame last used these buffers.
        const videoFrame = (f: number): TurnedFrame => ({
          job: this.job(scene, pose, vw, vh, this.videoSupersample, {
            fxaa: this.videoSupersample === 1,
            yuv: yuvOutputs[f % VIDEO_BUFFERS] ?? null,
            previous: changed[f % VIDEO_BUFFERS]!,
          }),
          rotation: (-2 * Math.PI * f) / frames,
        });
        await this.renderFrames(
          pool,
          await use(await startVideoDetail(request.video)),
          frames,
          videoFrame,
          outputAt,
          signal,
          (f) => progress({ stage: 'video', frame: f + 1, frames }),
          onFrame,
        );
        await Promise.all(writes);
        await sink.finish();
        result.video = path;
      }
      // PNG encoding of the last stills overlaps the video.
      await Promise.all(encoding);
      progress({ stage: 'done' });
      result.seconds = (performance.now() - started) / 1000;
      return result;
    } catch (error) {
      await sink?.abort();
      // Let PNG writes in flight land before their files are removed.
      await Promise.allSettled(encoding);
      await Promise.all(written.map((path) => rm(path, { force: true })));
      // However the stop surfaced (a worker, ffmpeg), report it as the signal meant it.
      throw signal?.aborted ? abortError(signal, 'render') : error;
    } finally {
      // Nothing of this job is in flight any more (each stage awaits its frames, even failing).
      if (pool) await rasterPools.giveBack(pool);
    }
  }

  /**
   * Renders frames 0 … count - 1, frameAt(i) into outputAt(i), calling start(i) before and done(i)
   * with its geometry after each. Two frames are with the workers at once: when frame i is done,
   * frame i + 1 is already queued there (a worker goes on to it as soon as it finds no band of
   * frame i left, without waiting for this thread), and frame i + 2 is prepared on this thread and
   * handed out before done(i) runs. So outputAt(i) must not give frame i a buffer that frame i - 1
   * or i - 2 still uses (three or more buffers taken in turn).
   */
  private async renderFrames(
    pool: RasterPool,
    preparer: FramePreparer,
    count: number,
    frameAt: (i: number) => TurnedFrame,
    outputAt: (i: number) => SharedArrayBuffer | Promise<SharedArrayBuffer>,
    signal: AbortSignal | undefined,
    start: (i: number) => void,
    done: (i: number, geometry: FrameGeometry) => Promise<void> | void,
  ): Promise<void> {
    if (count === 0) return;
    // The preparer's three buffers are taken in turn: frame i's stays intact until frame i + 3 is
    // prepared, after done(i).
    const inFlight: Array<{ rendering: Promise<void>; geometry: FrameGeometry }> = [];
    const handOut = (i: number): void => {
      const { job, rotation } = frameAt(i);
      const geometry = preparer.prepare(job, rotation);
      const rendering = (async () => pool.renderFrame(job, geometry, await outputAt(i), signal))();
      // Awaited in turn below; not unhandled while done() runs.
      rendering.catch(() => undefined);
      inFlight.push({ rendering, geometry });
    };
    start(0);
    try {
      handOut(0);
      if (count > 1) handOut(1);
      for (let i = 0; i < count; i++) {
        const { rendering, geometry } = inFlight[0]!;
        await rendering;
        inFlight.shift();
        if (i + 2 < count) handOut(i + 2);
        await done(i, geometry);
        if (i + 1 < count) start(i + 1);
      }
    } finally {
      // Frames still in flight after a failure must finish before the pool takes other work.
      await Promise.all(inFlight.map(({ rendering }) => rendering.catch(() => undefined)));
    }
  }

  private async renderPreview(
    pool: RasterPool,
    preparer: FramePreparer,
    model: Model,
    scene: Scene,
    points: Float32Array,
    request: RenderRequest,
    written: string[],
  ): Promise<string> {
    const aspect = scene.resolution.width / scene.resolution.height;
    const width = aspect >= 1 ? PREVIEW_SIZE : Math.round(PREVIEW_SIZE * aspect);
    const height = aspect >= 1 ? Math.round(PREVIEW_SIZE / aspect) : PREVIEW_SIZE;
    const output = new SharedArrayBuffer(width * height * 4);
    const pose = frameCamera(model, scene.cameras[0]!, width / height, scene.margin, { points });
    const job = this.job(scene, pose, width, height, this.stillSupersample, null);
    await pool.renderFrame(job, preparer.prepare(job, 0), output, request.signal);
    const path = join(request.outDir, outputNames.preview);
    written.push(path);
    return writePng({ width, height, channels: 4, data: new Uint8Array(output) }, path, {
      opaque: scene.background.kind !== 'transparent',
    });
  }

  private job(
    scene: Scene,
    pose: CameraPose,
    width: number,
    height: number,
    supersample: number,
    /** What the worker finishing a video frame does to it next; null for stills. */
    post: FrameJob['post'],
  ): FrameJob {
    const forVideo = post !== null;
    return {
      width,
      height,
      supersample,
      camera: cameraOf(pose),
      background: backgroundOf(scene, forVideo),
      exposure: scene.exposure ?? 1,
      groundShadow: scene.groundShadow,
      bandHeight: BAND_HEIGHT,
      // Single-sampled video frames shade the smooth parts of a surface on a coarser grid (about a
      // fifth fewer shading calls on the bench's ring; PSNR against the fine grid about 62 dB).
      coarseShading: forVideo,
      post,
    };
  }

  /** Nothing to end: each render gives the process's raster pool back (closeDraftWorkers ends it). */
  async close(): Promise<void> {}
}
