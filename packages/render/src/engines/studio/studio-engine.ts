import { mkdir, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { withTimeout } from '../../abort';
import { writePng } from '../../encode/png';
import { openVideoSink, turntableEncoding, type VideoSink } from '../../encode/video';
import { frameCamera, framingPoints, type CameraPose } from '../../scene/framing';
import {
  RenderError,
  type CameraAngle,
  type Engine,
  type RenderRequest,
  type RenderResult,
  type Scene,
} from '../../types';
// Both engines shoot the same angles under the same file names.
import { outputNames, stillCameras, turntableCamera } from '../../scene/outputs';
import { parseHexColor } from '../draft/shading';
import { flipRows, layYuvRegion, unpremultiply } from './frame-pixels';
import { packModel } from './model-payload';
import type { PageJob, PageView, StudioPageApi } from './page/protocol';
import { turntableRegion } from './page/turntable';
import { acquireSession, closeStudio, releaseSession, type StudioSession } from './studio-runtime';

const LOAD_TIMEOUT_MS = 120_000;
/** Per frame: a 2048² still on a slow two-core box takes a few seconds; a minute means it is stuck. */
const FRAME_TIMEOUT_MS = 60_000;
const PREVIEW_SIZE = outputNames.previewSize;
/** Frames the page renders ahead of the encoder: enough to overlap readback, transfer and x264. */
const TURNTABLE_WINDOW = 3;

const DEG = Math.PI / 180;

type StudioGlobal = { atelierStudio: StudioPageApi };

function backgroundOf(scene: Scene): PageJob['background'] {
  const bg = scene.background;
  if (bg.kind === 'transparent') return null;
  if (bg.kind === 'color') return { top: parseHexColor(bg.color), bottom: parseHexColor(bg.color) };
  return { top: parseHexColor(bg.top), bottom: parseHexColor(bg.bottom) };
}

function viewOf(pose: CameraPose, width: number, height: number, environmentRotation: number): PageView {
  return {
    width,
    height,
    position: pose.position,
    target: pose.target,
    up: pose.up,
    fov: pose.fov,
    near: pose.near,
    far: pose.far,
    modelRotation: 0,
    environmentRotation,
  };
}

/** The farthest any vertex lies from the vertical axis the turntable turns the model about. */
function sweepRadius(model: RenderRequest['model']): number {
  let farthest = 0;
  for (const { positions } of model.parts)
    for (let i = 0; i < positions.length; i += 3)
      farthest = Math.max(farthest, positions[i]! * positions[i]! + positions[i + 2]! * positions[i + 2]!);
  return Math.sqrt(farthest);
}

function cancelledError(): RenderError {
  return new RenderError('cancelled', 'render cancelled');
}

/** Runs a page call; a page-side failure fails the frame wait at once instead of after its timeout. */
function inPage<T>(session: StudioSession, call: Promise<T>): Promise<T> {
  call.catch((error: Error) =>
    session.channel.interrupt(new RenderError('engine_unavailable', `studio page failed: ${error.message}`)),
  );
  return call;
}

async function renderJob(
  request: RenderRequest,
  session: StudioSession,
  written: string[],
): Promise<Omit<RenderResult, 'seconds'>> {
  const { model, scene, outDir, signal, onProgress } = request;
  const { page, channel, server } = session;
  const checkAbort = (): void => {
    if (signal?.aborted) throw cancelledError();
  };

  onProgress?.({ stage: 'prepare' });
  const lodSizes = [Math.min(scene.resolution.width, scene.resolution.height)];
  if (request.video) lodSizes.push(Math.min(request.video.width, request.video.height));
  if (request.preview) lodSizes.push(PREVIEW_SIZE);
  const { blob, parts } = await packModel(model, scene, lodSizes);
  const published = server.publish(blob, 'application/octet-stream');
  const job: PageJob = {
    url: published.url,
    parts,
    bounds: model.bounds,
    environment: scene.environment,
    background: backgroundOf(scene),
    groundShadow: scene.groundShadow,
    exposure: scene.exposure ?? 1,
  };
  try {
    await withTimeout(
      page.evaluate((j) => (globalThis as unknown as StudioGlobal).atelierStudio.load(j), job),
      LOAD_TIMEOUT_MS,
      'loading the model into the studio page',
    );
  } finally {
    published.unpublish();
  }
  checkAbort();

  const points = framingPoints(model);
  const transparent = scene.background.kind === 'transparent';
  const renderStill = async (angle: CameraAngle, width: number, height: number): Promise<Buffer> => {
    const pose = frameCamera(model, angle, width / height, scene.margin, { points });
    const view = viewOf(pose, width, height, (angle.azimuth + scene.environment.rotation) * DEG);
    const [frame] = await Promise.all([
      channel.next(FRAME_TIMEOUT_MS, signal),
      inPage(
        session,
        page.evaluate((v) => (globalThis as unknown as StudioGlobal).atelierStudio.still(v), view),
      ),
    ]);
    flipRows(frame, width, height);
    return transparent ? unpremultiply(frame) : frame;
  };

  const stills: string[] = [];
  let previewSource: { width: number; height: number; data: Buffer } | undefined;
  const { width, height } = scene.resolution;
  const cameras = stillCameras(scene, request.stills);
  const png = { opaque: !transparent };
  for (const [i, angle] of cameras.entries()) {
    checkAbort();
    onProgress?.({ stage: 'stills', frame: i, frames: cameras.length });
    const pixels = await renderStill(angle, width, height);
    const path = join(outDir, outputNames.still(i, angle));
    written.push(path);
    await writePng({ width, height, channels: 4, data: pixels }, path, png);
    stills.push(path);
    if (i === 0) previewSource = { width, height, data: pixels };
  }
  if (cameras.length > 0) onProgress?.({ stage: 'stills', frame: cameras.length, frames: cameras.length });

  let preview: string | undefined;
  if (request.preview) {
    checkAbort();
    onProgress?.({ stage: 'preview' });
    if (!previewSource) {
      const aspect = width / height;
      const w = aspect >= 1 ? PREVIEW_SIZE : Math.round(PREVIEW_SIZE * aspect);
      const h = aspect >= 1 ? Math.round(PREVIEW_SIZE / aspect) : PREVIEW_SIZE;
      previewSource = { width: w, height: h, data: await renderStill(scene.cameras[0]!, w, h) };
    }
    preview = join(outDir, outputNames.preview);
    written.push(preview);
    await writePng({ ...previewSource, channels: 4 }, preview, { ...png, maxSize: PREVIEW_SIZE });
  }

  let video: string | undefined;
  if (request.video) {
    checkAbort();
    video = await renderTurntable(request, session, written);
  }
  return { stills, preview, video };
}

async function renderTurntable(
  request: RenderRequest,
  session: StudioSession,
  written: string[],
): Promise<string> {
  const { model, scene, outDir, signal, onProgress } = request;
  const { width, height, seconds, fps } = request.video!;
  const { page, channel } = session;
  const frames = Math.max(1, Math.round(seconds * fps));
  const angle = turntableCamera(scene);
  const pose = frameCamera(model, angle, width / height, scene.margin, { turntable: true });
  // Sizes that pack into whole RGBA texels (width ÷ 8, height ÷ 4) go over as GPU-converted yuv420p.
  const yuv = width % 8 === 0 && height % 4 === 0;
  const still = viewOf(pose, width, height, (angle.azimuth + scene.environment.rotation) * DEG);
  // Only this part of a yuv frame changes after the first (the page sends it alone).
  const region = turntableRegion(model.bounds, sweepRadius(model), still, scene.groundShadow);
  const view = { ...still, frames, window: TURNTABLE_WINDOW, yuv, region };
  const path = join(outDir, outputNames.video);
  written.push(path);
  // Encoded beside the browser, which keeps every core busy.
  const sink: VideoSink = openVideoSink({
    path,
    width,
    height,
    fps,
    signal,
    pixelFormat: yuv ? 'yuv420p' : 'rgba',
    ...turntableEncoding(availableParallelism()),
  });
  try {
    if (scene.background.kind === 'transparent') {
      // mp4 has no alpha: a transparent scene turns on white.
      await page.evaluate(() =>
        (globalThis as unknown as StudioGlobal).atelierStudio.background({
          top: [1, 1, 1],
          bottom: [1, 1, 1],
        }),
      );
    }
    const run = inPage(
      session,
      page.evaluate((v) => (globalThis as unknown as StudioGlobal).atelierStudio.turntable(v), view),
    );
    let whole: Buffer | undefined;
    for (let f = 0; f < frames; f++) {
      onProgress?.({ stage: 'video', frame: f, frames });
      const frame = await channel.next(FRAME_TIMEOUT_MS, signal);
      if (!yuv) await sink.write(flipRows(frame, width, height));
      else {
        whole = whole ? layYuvRegion(whole, width, height, region, frame) : Buffer.from(frame);
        await sink.write(whole);
      }
      channel.ack();
    }
    await run;
    await sink.finish();
    onProgress?.({ stage: 'video', frame: frames, frames });
    return path;
  } catch (error) {
    await sink.abort();
    throw error;
  }
}

/**
 * The studio engine: three.js WebGLRenderer (physically based materials, a pre-filtered studio
 * environment, a soft contact shadow, ACES filmic tone mapping, MSAA) in the process's shared
 * headless Chromium, with frames read back as raw pixels.
 */
export class StudioEngine implements Engine {
  readonly name = 'studio' as const;

  async render(request: RenderRequest): Promise<RenderResult> {
    const started = performance.now();
    const { model, signal } = request;
    if (signal?.aborted) throw cancelledError();
    if (model.parts.length === 0 || model.triangleCount === 0)
      throw new RenderError('empty_model', 'the model has no triangles to render');
    await mkdir(request.outDir, { recursive: true });
    const session = await acquireSession();
    const onAbort = (): void => {
      session.page
        .evaluate(() => (globalThis as unknown as StudioGlobal).atelierStudio.cancel())
        .catch(() => undefined);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const written: string[] = [];
    // Only a tab that finished its job cleanly is reused: after a failure or a cancel, a frame still
    // in flight could reach the next job.
    let healthy = false;
    try {
      const result = await renderJob(request, session, written);
      healthy = true;
      request.onProgress?.({ stage: 'done' });
      return { ...result, seconds: (performance.now() - started) / 1000 };
    } catch (error) {
      // Leave no half-finished outputs behind.
      await Promise.all(written.map((path) => rm(path, { force: true })));
      if (signal?.aborted) throw cancelledError();
      if (error instanceof RenderError) throw error;
      throw new RenderError('engine_unavailable', `studio render failed: ${(error as Error).message}`);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (healthy) {
        await session.page
          .evaluate(() => (globalThis as unknown as StudioGlobal).atelierStudio.unload())
          .catch(() => (healthy = false));
      }
      await releaseSession(session, healthy);
    }
  }

  /** Closes the shared browser and its tabs (every studio engine of the process shares them). */
  close(): Promise<void> {
    return closeStudio();
  }
}
