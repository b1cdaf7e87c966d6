import { Box3, PerspectiveCamera, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { framedCamera } from '../../../src/features/projects/model-viewer';

/** Where each corner of the box lands on screen, in normalised device coordinates (-1..1). */
function cornersOnScreen(
  box: Box3,
  angle: { azimuth: number; elevation: number; fov: number },
  aspect: number,
  margin: number,
) {
  const { position, target } = framedCamera(box, angle, aspect, margin);
  const camera = new PerspectiveCamera(angle.fov, aspect, 0.001, 1000);
  camera.position.copy(position);
  camera.lookAt(target);
  camera.updateMatrixWorld();
  const corners = [];
  for (let i = 0; i < 8; i++) {
    corners.push(
      new Vector3(
        i & 1 ? box.max.x : box.min.x,
        i & 2 ? box.max.y : box.min.y,
        i & 4 ? box.max.z : box.min.z,
      ).project(camera),
    );
  }
  return corners;
}

describe('viewer framing', () => {
  const shapes = {
    ring: new Box3(new Vector3(-0.011, 0, -0.0025), new Vector3(0.011, 0.022, 0.0025)),
    bracket: new Box3(new Vector3(-0.2, 0, -0.05), new Vector3(0.2, 0.03, 0.05)),
    tower: new Box3(new Vector3(-0.1, 0, -0.1), new Vector3(0.1, 2, 0.1)),
  };
  const angles = [
    { azimuth: 35, elevation: 24, fov: 30 },
    { azimuth: 0, elevation: 0, fov: 26 },
    { azimuth: 200, elevation: 62, fov: 40 },
  ];

  for (const [name, box] of Object.entries(shapes)) {
    for (const aspect of [1, 16 / 9, 4 / 5]) {
      it(`keeps every corner of a ${name} inside the margin and touches it at ${aspect.toFixed(2)}`, () => {
        for (const angle of angles) {
          const margin = 0.12;
          const limit = 1 - 2 * margin;
          const corners = cornersOnScreen(box, angle, aspect, margin);
          const extent = Math.max(...corners.map((c) => Math.max(Math.abs(c.x), Math.abs(c.y))));
          // Inside the margin, and tight: the farthest corner sits on the margin line, not well inside it.
          expect(extent).toBeLessThanOrEqual(limit + 1e-6);
          expect(extent).toBeGreaterThan(limit - 0.02);
        }
      });
    }
  }
});
