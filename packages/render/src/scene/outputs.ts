import type { CameraAngle, Scene } from '../types';

/** Still cameras: the category's, then evenly spread extra angles when more stills are asked for. */
export function stillCameras(scene: Scene, count: number): CameraAngle[] {
  const cameras = scene.cameras.slice(0, count);
  const first = scene.cameras[0]!;
  for (let i = cameras.length; i < count; i++) {
    const azimuth =
      first.azimuth + (360 * (i - scene.cameras.length + 1)) / (count - scene.cameras.length + 1);
    cameras.push({ name: `angle-${i + 1}`, azimuth, elevation: scene.turntable.elevation, fov: first.fov });
  }
  return cameras;
}

/** The turntable camera: the first still's azimuth and lens at the turntable's elevation. */
export function turntableCamera(scene: Scene): CameraAngle {
  const first = scene.cameras[0]!;
  return { name: 'turntable', azimuth: first.azimuth, elevation: scene.turntable.elevation, fov: first.fov };
}

/** A camera name as a file name part: lower-case words joined by dashes. */
export const fileSafe = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'view';

/** Output file names shared by every engine, so jobs and galleries find them the same way. */
export const outputNames = {
  still: (index: number, camera: CameraAngle): string =>
    `still-${String(index + 1).padStart(2, '0')}-${fileSafe(camera.name)}.png`,
  preview: 'preview.png',
  video: 'turntable.mp4',
  previewSize: 512,
} as const;
