import * as THREE from 'three';
import type { Scene } from '../../../types';
import type { Vec3 } from './protocol';

export type EnvironmentPreset = Scene['environment']['preset'];

/** One preset's studio: grey levels of the dome, softbox and overhead gains, PMREM blur, black flags. */
export interface StudioLook {
  top: number;
  horizon: number;
  floor: number;
  boxes: number;
  overhead: number;
  blur: number;
  flags: boolean;
}

export const STUDIO_LOOKS: Record<EnvironmentPreset, StudioLook> = {
  // High contrast: black flags at the horizon and bright strips, so polished metal shows its colour.
  jewellery: { top: 0.55, horizon: 0.015, floor: 0.9, boxes: 1.0, overhead: 1.0, blur: 0.015, flags: true },
  studio: { top: 0.7, horizon: 0.22, floor: 0.55, boxes: 0.7, overhead: 0.8, blur: 0.03, flags: false },
  // Even light, but dark enough around the horizon, and a dim enough overhead box for flat
  // faces, that steel still reads as metal, not paint.
  neutral: { top: 0.4, horizon: 0.07, floor: 0.3, boxes: 0.3, overhead: 0.5, blur: 0.04, flags: false },
};

const DOME_RADIUS = 60;

/** Grey level of the dome at height `y` (-1 nadir, 0 horizon, 1 zenith). */
export function domeShade(look: StudioLook, y: number): number {
  return y >= 0
    ? look.horizon + (look.top - look.horizon) * Math.pow(y, 0.6)
    : look.horizon + (look.floor - look.horizon) * Math.pow(-y, 0.35);
}

/** An emissive card facing the origin; radiance 0 is a black flag. */
export interface Card {
  position: Vec3;
  width: number;
  height: number;
  radiance: number;
}

// Softboxes: [x, y, z, width, height, radiance].
const SOFTBOXES: Array<[number, number, number, number, number, number]> = [
  [0, 24, 2, 22, 16, 9], // overhead
  [-20, 8, 14, 7, 26, 14], // key strip, front left
  [22, 6, 6, 7, 22, 9], // fill strip, right
  [4, 10, -22, 24, 6, 11], // rim strip, behind
  [-14, 2, -14, 5, 12, 5], // kicker, back left
];

// Black cards, as a jewellery photographer sets them: one around the camera and two high at the
// sides. Stones need dark to sparkle against, and gold needs it to look deep. [x, y, z, width, height].
const FLAGS: Array<[number, number, number, number, number]> = [
  [0, 9, 24, 18, 12],
  [-17, 16, -4, 7, 14],
  [18, 15, -10, 7, 14],
];

/** The light rig of a preset: its softboxes, then its flags. */
export function studioCards(look: StudioLook): Card[] {
  const boxes = SOFTBOXES.map(([x, y, z, width, height, radiance], i): Card => ({
    position: [x, y, z],
    width,
    height,
    radiance: radiance * look.boxes * (i === 0 ? look.overhead : 1),
  }));
  const flags = look.flags
    ? FLAGS.map(([x, y, z, width, height]): Card => ({ position: [x, y, z], width, height, radiance: 0 }))
    : [];
  return [...boxes, ...flags];
}

/** The studio as a scene: a gradient dome plus emissive softboxes (and flags), each facing the origin. */
export function studioEnvironmentScene(look: StudioLook): THREE.Scene {
  const env = new THREE.Scene();
  const dome = new THREE.SphereGeometry(DOME_RADIUS, 48, 24);
  const colors: number[] = [];
  const position = dome.getAttribute('position');
  for (let i = 0; i < position.count; i++) {
    const v = domeShade(look, position.getY(i) / DOME_RADIUS);
    colors.push(v, v, v * 0.98);
  }
  dome.setAttribute('color', new THREE.Float32BufferAttribute(colors, 3));
  env.add(new THREE.Mesh(dome, new THREE.MeshBasicMaterial({ side: THREE.BackSide, vertexColors: true })));
  for (const card of studioCards(look)) {
    const material = new THREE.MeshBasicMaterial({ side: THREE.DoubleSide });
    material.color.setScalar(card.radiance);
    const mesh = new THREE.Mesh(new THREE.PlaneGeometry(card.width, card.height), material);
    mesh.position.set(...card.position);
    mesh.lookAt(0, 0, 0);
    env.add(mesh);
  }
  return env;
}

/** The preset's studio pre-filtered by PMREM into the texture a scene's `environment` takes. */
export function buildEnvironment(pmrem: THREE.PMREMGenerator, preset: EnvironmentPreset): THREE.Texture {
  const look = STUDIO_LOOKS[preset];
  const env = studioEnvironmentScene(look);
  const target = pmrem.fromScene(env, look.blur, 0.1, 200);
  env.traverse((o) => {
    const mesh = o as THREE.Mesh;
    if (mesh.isMesh) {
      mesh.geometry.dispose();
      (mesh.material as THREE.Material).dispose();
    }
  });
  return target.texture;
}
