import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import type { PartLevels } from '../src/engines/studio/page/model';
import { aimCamera, indexFor, turntableAngle } from '../src/engines/studio/page/view';

describe('studio camera and turntable', () => {
  it('aims the camera at the target from the pose, with the output aspect', () => {
    const camera = new THREE.PerspectiveCamera();
    aimCamera(camera, {
      width: 320,
      height: 240,
      position: [0, 0.02, 0.1],
      target: [0, 0.01, 0],
      up: [0, 1, 0],
      fov: 30,
      near: 0.01,
      far: 1,
      modelRotation: 0,
      environmentRotation: 0,
    });
    expect([camera.fov, camera.aspect, camera.near, camera.far]).toEqual([30, 320 / 240, 0.01, 1]);
    camera.updateMatrixWorld();
    const looking = camera.getWorldDirection(new THREE.Vector3());
    const towards = new THREE.Vector3(0, -0.01, -0.1).normalize();
    expect(looking.dot(towards)).toBeCloseTo(1, 9);
    // The projection matrix follows the new fov and aspect.
    expect(camera.projectionMatrix.elements[5]).toBeCloseTo(1 / Math.tan((15 * Math.PI) / 180), 9);
  });

  it('draws the coarsest level of detail made for the output size or a larger one', () => {
    const full = new THREE.BufferAttribute(new Uint32Array(3), 1);
    const for1080 = new THREE.BufferAttribute(new Uint32Array(3), 1);
    const for512 = new THREE.BufferAttribute(new Uint32Array(3), 1);
    const levels: PartLevels = {
      geometry: new THREE.BufferGeometry(),
      full,
      lods: [
        { size: 1080, index: for1080 },
        { size: 512, index: for512 },
      ],
    };
    expect(indexFor(levels, 512)).toBe(for512);
    expect(indexFor(levels, 400)).toBe(for512);
    expect(indexFor(levels, 513)).toBe(for1080);
    expect(indexFor(levels, 2048)).toBe(full);
  });

  it('turns the model clockwise seen from above, one full turn over the frames', () => {
    expect(turntableAngle(0, 240)).toBe(-0);
    expect(turntableAngle(60, 240)).toBeCloseTo(-Math.PI / 2, 12);
    expect(turntableAngle(239, 240)).toBeCloseTo((-239 / 240) * 2 * Math.PI, 12);
  });
});
