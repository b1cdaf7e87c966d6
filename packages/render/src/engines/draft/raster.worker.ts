// Worker thread of the draft engine: keeps the current scene and renders the bands of each
// (already prepared) frame it manages to claim from the shared counter, straight into the shared
// output image.
import { parentPort } from 'node:worker_threads';
import type { ShadowMap } from './contact-shadow';
import { Environment, type EnvironmentPreset } from './environment';
import type { FrameGeometry } from './frame-geometry';
import {
  CONTROL_ABORT,
  CONTROL_BANDS_DONE,
  CONTROL_NEXT_BAND,
  CONTROL_STRIDE,
  type FrameJob,
} from './frame-job';
import type { PackedScene } from './packed-scene';
import { PostProcessor } from './post-process';
import { FrameRenderer } from './rasterizer';

export type WorkerMessage =
  | {
      type: 'scene';
      scene: PackedScene;
      shadow: ShadowMap | null;
      environment: { preset: EnvironmentPreset; intensity: number; rotation: number };
    }
  | {
      type: 'frame';
      job: FrameJob;
      geometry: FrameGeometry;
      output: SharedArrayBuffer;
      control: SharedArrayBuffer;
      /** Which of the control block's slots counts this frame's bands. */
      slot: number;
    }
  // The job is over: the pool waits idle for the next, without holding on to this one's scene.
  | { type: 'release' };

let renderer: FrameRenderer | null = null;
let postProcessor: PostProcessor | null = null;

parentPort!.on('message', (message: WorkerMessage) => {
  try {
    if (message.type === 'scene') {
      const { preset, intensity, rotation } = message.environment;
      renderer = new FrameRenderer(
        message.scene,
        new Environment(preset, intensity, rotation),
        new Environment('stones', intensity, 0),
        message.shadow,
      );
      parentPort!.postMessage({ type: 'ready' });
      return;
    }
    if (message.type === 'release') {
      renderer = null;
      parentPort!.postMessage({ type: 'ready' });
      return;
    }
    if (!renderer) throw new Error('frame before scene');
    const control = new Int32Array(message.control);
    const base = message.slot * CONTROL_STRIDE;
    const output = new Uint8Array(message.output);
    renderer.setFrame(message.job, message.geometry);
    const bands = message.geometry.bands;
    let rendered = 0;
    for (;;) {
      if (Atomics.load(control, base + CONTROL_ABORT)) break;
      const band = Atomics.add(control, base + CONTROL_NEXT_BAND, 1);
      if (band >= bands) break;
      renderer.renderBand(band, output);
      rendered++;
      // The worker that draws the frame's last band finishes it; the others go on to the next frame.
      if (Atomics.add(control, base + CONTROL_BANDS_DONE, 1) === bands - 1 && message.job.post)
        (postProcessor ??= new PostProcessor()).run(output, message.job, message.geometry);
    }
    parentPort!.postMessage({ type: 'done', rendered });
  } catch (error) {
    parentPort!.postMessage({ type: 'failed', message: (error as Error).stack ?? String(error) });
  }
});
