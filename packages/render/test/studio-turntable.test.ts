import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { layYuvRegion } from '../src/engines/studio/frame-pixels';
import { contactShadowLayout, shadowBlur, shadowReach } from '../src/engines/studio/page/contact-shadow';
import type { PageView } from '../src/engines/studio/page/protocol';
import { modelFootprint, shadowFootprint, turntableRegion } from '../src/engines/studio/page/turntable';
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

  // A lopsided model: a tall post off the axis and a flat bar across it.
  const positions = [
    new Float32Array([0.004, 0, 0.002, 0.004, 0.027, 0.002, 0.005, 0.027, 0.003]),
    new Float32Array([-0.013, 0.001, -0.006, 0.013, 0.001, 0.006, 0.0, 0.002, 0.0]),
  ];
  const inside = (r: { x: number; y: number; width: number; height: number }, p: THREE.Vector2): boolean =>
    p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height;

  it("holds the model's vertices and its shadow's reach as it turns, tighter than the region", () => {
    const region = turntableRegion(bounds, radius, view, true);
    const { half } = contactShadowLayout(bounds);
    const blur = shadowBlur(bounds);
    for (let a = 0; a < 360; a += 11) {
      const turned = { ...view, modelRotation: (a * Math.PI) / 180 };
      const camera = new THREE.PerspectiveCamera();
      aimCamera(camera, turned);
      camera.updateMatrixWorld();
      const turn = new THREE.Matrix4().makeRotationY(turned.modelRotation);
      const model = modelFootprint(positions, turned);
      const shadow = shadowFootprint(bounds, turned);
      for (const p of positions)
        for (let i = 0; i < p.length; i += 3) {
          const vertex = new THREE.Vector3(p[i], p[i + 1], p[i + 2]).applyMatrix4(turn);
          // Two pixels of margin on every side: FXAA reaches one pixel past the model.
          const pixel = toPixel(camera, vertex);
          for (const [dx, dy] of [
            [-2, -2],
            [2, 2],
          ] as const)
            expect(inside(model, pixel.clone().add(new THREE.Vector2(dx, dy)))).toBe(true);
          // The shadow of that vertex, blurred, on the ground (within the patch).
          for (const [dx, dz] of [
            [-blur, 0],
            [blur, 0],
            [0, -blur],
            [0, blur],
          ] as const) {
            const ground = new THREE.Vector3(p[i]! + dx, 0, p[i + 2]! + dz);
            if (Math.max(Math.abs(ground.x), Math.abs(ground.z)) > half) continue;
            expect(inside(shadow, toPixel(camera, ground.applyMatrix4(turn)))).toBe(true);
          }
        }
      expect(model.width * model.height).toBeLessThan(0.6 * region.width * region.height);
    }
    // A model with nothing in it touches nothing.
    expect(modelFootprint([], view)).toEqual({ x: 0, y: 0, width: 0, height: 0 });
  });

  it('is the whole frame when the swept cylinder reaches behind the camera', () => {
    const close: PageView = { ...view, position: [0, 0.01, 0.005] };
    expect(turntableRegion(bounds, radius, close, false)).toEqual({ x: 0, y: 0, width: 1920, height: 1080 });
    const whole = { x: 0, y: 0, width: 1920, height: 1080 };
    expect(modelFootprint(positions, close)).toEqual(whole);
    expect(shadowFootprint(bounds, close)).toEqual(whole);
  });
});
