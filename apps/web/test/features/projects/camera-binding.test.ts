import type { StudioCamera } from '@atelier/contracts';
import { PerspectiveCamera, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { CAMERA_RANGES, orbitCamera, zoomCamera } from '../../../src/features/projects/camera-binding';
import { aimAsStill } from '../../../src/features/projects/model-viewer';

const front: StudioCamera = { name: 'front', azimuth: 0, elevation: 10, fov: 30 };

/** A bracket's corners and edge midpoints, as the viewer samples a mesh: bounds and points. */
function bracket() {
  const min = [-0.2, 0, -0.05] as [number, number, number];
  const max = [0.2, 0.03, 0.05] as [number, number, number];
  const points: number[] = [];
  for (const x of [min[0], 0, max[0]])
    for (const y of [min[1], max[1]]) for (const z of [min[2], max[2]]) points.push(x, y, z);
  return { bounds: { min, max }, points: Float32Array.from(points) };
}

/** The camera state the view's camera shows: its angles read back from where it looks. */
function anglesOf(view: PerspectiveCamera) {
  const back = view.getWorldDirection(new Vector3()).negate();
  return {
    azimuth: (Math.atan2(back.x, back.z) * 180) / Math.PI,
    elevation: (Math.asin(back.y) * 180) / Math.PI,
  };
}

/** How far the model reaches on screen (1 = the frame's edge). */
function extentOnScreen(view: PerspectiveCamera, points: Float32Array) {
  let extent = 0;
  for (let i = 0; i < points.length; i += 3) {
    const p = new Vector3(points[i], points[i + 1], points[i + 2]).project(view);
    extent = Math.max(extent, Math.abs(p.x), Math.abs(p.y));
  }
  return extent;
}

describe('dragging the view moves the camera sliders', () => {
  it('turns with the finger and looks from higher up when dragged down, in whole degrees', () => {
    const moved = orbitCamera(front, 100, 50, 400);
    // A drag as tall as the view is half a turn: 100 px of 400 is 45°, 50 px is 22.5°.
    expect(moved).toEqual({ ...front, azimuth: -45, elevation: 33 });
    expect(orbitCamera(front, -100, 0, 400).azimuth).toBe(45);
  });

  it('measures a drag from where it began, so the sliders end where one long drag would', () => {
    const stepwise = [10, 20, 30, 40].map((dx) => orbitCamera(front, dx, 0, 300)).pop();
    expect(stepwise).toEqual(orbitCamera(front, 40, 0, 300));
  });

  it('keeps the values inside the sliders: around wraps, height stops at its ends', () => {
    expect(orbitCamera({ ...front, azimuth: 170 }, -40, 0, 360).azimuth).toBe(-170);
    expect(orbitCamera(front, 0, 2000, 400).elevation).toBe(CAMERA_RANGES.elevation.max);
    expect(orbitCamera(front, 0, -2000, 400).elevation).toBe(CAMERA_RANGES.elevation.min);
  });

  it('zooms by a pinch or the wheel in the zoom slider’s steps and range', () => {
    expect(zoomCamera(front, 2).zoom).toBe(2);
    expect(zoomCamera({ ...front, zoom: 2 }, 1.04).zoom).toBe(2.1);
    expect(zoomCamera(front, 10).zoom).toBe(CAMERA_RANGES.zoom.max / 100);
    expect(zoomCamera(front, 0.1).zoom).toBe(CAMERA_RANGES.zoom.min / 100);
  });
});

describe('the view shows the camera the sliders hold', () => {
  const model = bracket();
  const cameras: StudioCamera[] = [
    orbitCamera(front, 120, -40, 400),
    orbitCamera({ ...front, azimuth: 150, fov: 45 }, -60, 90, 400),
    zoomCamera(orbitCamera(front, -30, 20, 400), 1.5),
  ];

  it('looks from the sliders’ angles and fills the frame to the margin, closer by the zoom', () => {
    for (const camera of cameras) {
      for (const aspect of [1, 16 / 9, 4 / 5]) {
        const view = new PerspectiveCamera();
        aimAsStill(view, model, camera, aspect, 0.12);
        const seen = anglesOf(view);
        expect(seen.azimuth).toBeCloseTo(camera.azimuth, 6);
        expect(seen.elevation).toBeCloseTo(camera.elevation, 6);
        expect(view.fov).toBe(camera.fov);
        expect(view.aspect).toBe(aspect);
        if ((camera.zoom ?? 1) === 1) expect(extentOnScreen(view, model.points)).toBeCloseTo(1 - 2 * 0.12, 3);
        else expect(extentOnScreen(view, model.points)).toBeGreaterThan(1 - 2 * 0.12);
      }
    }
  });

  it('changes with the camera and with nothing else', () => {
    const [camera] = cameras;
    const once = new PerspectiveCamera();
    const again = new PerspectiveCamera();
    aimAsStill(once, model, camera!, 1, 0.1);
    aimAsStill(again, model, { ...camera! }, 1, 0.1);
    expect(again.matrixWorld.toArray()).toEqual(once.matrixWorld.toArray());
    aimAsStill(again, model, orbitCamera(camera!, 10, 0, 400), 1, 0.1);
    expect(again.matrixWorld.toArray()).not.toEqual(once.matrixWorld.toArray());
  });
});
