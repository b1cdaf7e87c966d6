import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { layYuvRegion } from '../src/engines/studio/frame-pixels';
import { shadowReach } from '../src/engines/studio/page/contact-shadow';
import type { PageView } from '../src/engines/studio/page/protocol';
import { turntableRegion } from '../src/engines/studio/page/turntable';
import { aimCamera } from '../src/engines/studio/page/view';
import type { Bounds } from '../src/types';

describe('studio turntable region', () => {
  it('lays a region yuv420p image over the same place of each plane of a whole frame', () => {
    // A 16 × 8 frame of zeros; a 4 × 2 region at (6, 2) whose Y bytes are 1..8, U 9..10, V 11..12.
    const frame = Buffer.alloc((16 * 8 * 3) / 2);
    const image = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    layYuvRegion(frame, 16, 8, { x: 6, y: 2, width: 4, height: 2 }, image);
    const y = frame.subarray(0, 128);
    const u = frame.subarray(128, 160);
    const v = frame.subarray(160, 192);
    expect([...y.subarray(2 * 16 + 6, 2 * 16 + 10)]).toEqual([1, 2, 3, 4]);
    expect([...y.subarray(3 * 16 + 6, 3 * 16 + 10)]).toEqual([5, 6, 7, 8]);
    expect([...u.subarray(1 * 8 + 3, 1 * 8 + 5)]).toEqual([9, 10]);
    expect([...v.subarray(1 * 8 + 3, 1 * 8 + 5)]).toEqual([11, 12]);
    // Nothing else changed.
    const sum = (b: Buffer): number => b.reduce((a, c) => a + c, 0);
    expect(sum(frame)).toBe(sum(image));
  });

  // A ring 26 mm across, 27 mm high and 12 mm deep, seen as the ring studio's turntable sees it.
  const bounds: Bounds = { min: [-0.013, 0, -0.006], max: [0.013, 0.027, 0.006] };
  const radius = Math.hypot(0.013, 0.006);
  const view: PageView = {
    width: 1920,
    height: 1080,
    position: [0, 0.035, 0.09],
    target: [0, 0.0135, 0],
    up: [0, 1, 0],
    fov: 30,
    near: 0.001,
    far: 1,
    modelRotation: 0,
    environmentRotation: 0,
  };
  const toPixel = (camera: THREE.PerspectiveCamera, p: THREE.Vector3): THREE.Vector2 => {
    const ndc = p.clone().project(camera);
    return new THREE.Vector2(((ndc.x + 1) / 2) * view.width, ((1 - ndc.y) / 2) * view.height);
  };

  it('holds every point the model and its shadow reach at any angle, in whole 8 × 4 blocks', () => {
    const camera = new THREE.PerspectiveCamera();
    aimCamera(camera, view);
    camera.updateMatrixWorld();
    for (const shadow of [false, true]) {
      const region = turntableRegion(bounds, radius, view, shadow);
      expect(region.x % 8).toBe(0);
      expect(region.width % 8).toBe(0);
      expect(region.y % 4).toBe(0);
      expect(region.height % 4).toBe(0);
      // Smaller than the frame: the backdrop beyond it is left out.
      expect(region.width * region.height).toBeLessThan(0.7 * view.width * view.height);
      const reach = shadow ? shadowReach(bounds, radius) : radius;
      for (let a = 0; a < 360; a += 7) {
        const c = Math.cos((a * Math.PI) / 180);
        const s = Math.sin((a * Math.PI) / 180);
        for (const [r, y] of [
          [radius, bounds.max[1]],
          [radius, 0],
          [reach, 0],
        ] as const) {
          const p = toPixel(camera, new THREE.Vector3(r * c, y, r * s));
          expect(p.x).toBeGreaterThanOrEqual(region.x);
          expect(p.x).toBeLessThanOrEqual(region.x + region.width);
          expect(p.y).toBeGreaterThanOrEqual(region.y);
          expect(p.y).toBeLessThanOrEqual(region.y + region.height);
        }
      }
    }
    // The shadow widens it.
    expect(turntableRegion(bounds, radius, view, true).width).toBeGreaterThan(
      turntableRegion(bounds, radius, view, false).width,
    );
  });

  it('is the whole frame when the swept cylinder reaches behind the camera', () => {
    const inside: PageView = { ...view, position: [0, 0.01, 0.005] };
    expect(turntableRegion(bounds, radius, inside, false)).toEqual({ x: 0, y: 0, width: 1920, height: 1080 });
  });
});
