import { afterEach, describe, expect, it, vi } from 'vitest';
import { computeShadowMap } from '../src/engines/draft/contact-shadow';
import { Environment } from '../src/engines/draft/environment';
import { FramePreparer } from '../src/engines/draft/frame-geometry';
import type { FrameJob } from '../src/engines/draft/frame-job';
import { packScene } from '../src/engines/draft/packed-scene';
import { FrameRenderer } from '../src/engines/draft/rasterizer';
import { buildScene, frameCamera, turntableCamera } from '../src/index';
import { goldKnot } from './fixtures/gold-knot';

const W = 960,
  H = 540;

/** Renders one turntable frame on this thread; returns its RGBA bytes. */
function render(coarseShading: boolean | undefined, turn: number, supersample = 1): Uint8Array {
  const model = goldKnot(300, 40);
  const scene = buildScene('ring', { resolution: { width: W, height: H } });
  const shadow = computeShadowMap(model);
  const packed = packScene(model, scene);
  const { preset, intensity, rotation } = scene.environment;
  const renderer = new FrameRenderer(
    packed,
    new Environment(preset, intensity, rotation),
    new Environment('stones', intensity, 0),
    shadow,
  );
  const pose = frameCamera(model, turntableCamera(scene), W / H, scene.margin, { turntable: true });
  const tanY = Math.tan((pose.fov * Math.PI) / 360);
  const job: FrameJob = {
    width: W,
    height: H,
    supersample,
    camera: { ...pose, tanX: tanY * pose.aspect, tanY },
    rotation: turn,
    background: { top: [0.98, 0.98, 0.98], bottom: [0.9, 0.9, 0.9] },
    exposure: 1,
    groundShadow: true,
    bandHeight: 16,
    coarseShading,
  };
  const geometry = new FramePreparer(packed, shadow).prepare(job);
  const out = new Uint8Array(W * H * 4);
  renderer.setFrame(job, geometry);
  for (let band = 0; band < geometry.bands; band++) renderer.renderBand(band, out);
  return out;
}

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
      const fine = render(undefined, turn);
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
    const a = render(undefined, 0.4, 2);
    const b = render(true, 0.4, 2);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});
