import type * as THREE from 'three';
import type { PartLevels } from './model';
import type { PageView } from './protocol';

/** Points the perspective camera as the view asks. */
export function aimCamera(camera: THREE.PerspectiveCamera, view: PageView): void {
  camera.fov = view.fov;
  camera.aspect = view.width / view.height;
  camera.near = view.near;
  camera.far = view.far;
  camera.position.set(...view.position);
  camera.up.set(...view.up);
  camera.lookAt(...view.target);
  camera.updateProjectionMatrix();
}

/** The coarsest level of detail made for this output size (min of width and height) or a larger one. */
export function indexFor(levels: PartLevels, size: number): THREE.BufferAttribute {
  const fit = levels.lods.filter((l) => l.size >= size).sort((a, b) => a.size - b.size)[0];
  return fit?.index ?? levels.full;
}

/** The model's rotation about +y for frame `i` of a turntable: clockwise seen from above, like the draft engine's. */
export function turntableAngle(i: number, frames: number): number {
  return (-i / frames) * Math.PI * 2;
}
