import { afterAll, describe, expect, it } from 'vitest';
import { computeShadowMap } from '../src/engines/draft/contact-shadow';
import { Environment } from '../src/engines/draft/environment';
import { FramePreparer } from '../src/engines/draft/frame-geometry';
import type { FrameJob } from '../src/engines/draft/frame-job';
import { packScene } from '../src/engines/draft/packed-scene';
import { RasterPool } from '../src/engines/draft/raster-pool';
import { FrameRenderer } from '../src/engines/draft/rasterizer';
import { buildScene, frameCamera, turntableCamera } from '../src/index';
import { goldKnot } from './fixtures/gold-knot';

const W = 480,
  H = 270;

// Small, with enough bands and shading for two workers to split every frame.
const model = goldKnot(120, 16);
const scene = buildScene('ring', { resolution: { width: W, height: H } });
const shadow = computeShadowMap(model);
const packed = packScene(model, scene);
const pose = frameCamera(model, turntableCamera(scene), W / H, scene.margin, { turntable: true });
const tanY = Math.tan((pose.fov * Math.PI) / 360);
const jobAt = (turn: number): FrameJob => ({
  width: W,
  height: H,
  supersample: 1,
  camera: { ...pose, tanX: tanY * pose.aspect, tanY },
  rotation: turn,
  background: { top: [0.98, 0.98, 0.98], bottom: [0.9, 0.9, 0.9] },
  exposure: 1,
  groundShadow: true,
  bandHeight: 16,
  coarseShading: true,
});

/** The frame drawn band by band on this thread. */
function reference(job: FrameJob): Uint8Array {
  const { preset, intensity, rotation } = scene.environment;
  const renderer = new FrameRenderer(
    packed,
    new Environment(preset, intensity, rotation),
    new Environment('stones', intensity, 0),
    shadow,
  );
  const geometry = new FramePreparer(packed, shadow).prepare(job);
  const out = new Uint8Array(W * H * 4);
  renderer.setFrame(job, geometry);
  for (let band = 0; band < geometry.bands; band++) renderer.renderBand(band, out);
  return out;
}

const pool = new RasterPool(2);
afterAll(() => pool.close());

describe('draft raster pool with frames in flight', () => {
  it('draws each of several frames handed out at once as it draws it alone', async () => {
    await pool.setScene({ type: 'scene', scene: packed, shadow, environment: scene.environment });
    const preparer = new FramePreparer(packed, shadow);
    const turns = [0.3, 1.1, 2.0, 2.9, 3.7, 4.6];
    const outputs = turns.map(() => new SharedArrayBuffer(W * H * 4));
    // Two frames with the workers at a time, as the engine hands them out; each checked the moment
    // its own promise resolves, while the next one is still being drawn.
    const seen: Uint8Array[] = [];
    const inFlight: Array<Promise<void>> = [];
    const handOut = (i: number): void => {
      const job = jobAt(turns[i]!);
      inFlight.push(pool.renderFrame(job, preparer.prepare(job), outputs[i]!));
    };
    handOut(0);
    handOut(1);
    for (let i = 0; i < turns.length; i++) {
      await inFlight[i];
      seen.push(new Uint8Array(outputs[i]!).slice());
      if (i + 2 < turns.length) handOut(i + 2);
    }
    for (let i = 0; i < turns.length; i++) {
      const expected = reference(jobAt(turns[i]!));
      expect(seen[i]!.length).toBe(expected.length);
      expect(Buffer.from(seen[i]!).equals(Buffer.from(expected)), `frame ${i}`).toBe(true);
    }
    expect(pool.reusable).toBe(true);
  });
});
