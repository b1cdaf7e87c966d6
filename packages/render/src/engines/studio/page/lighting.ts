import * as THREE from 'three';
import type { Scene } from '../../../types';
import { lensDirection, STONE_LIGHTS, STONE_ROOM } from '../../../scene/stones';
import type { Vec3 } from './protocol';

export type EnvironmentPreset = Scene['environment']['preset'];

/**
 * One preset's studio: grey levels of the dome, softbox, overhead and front-card gains, PMREM blur,
 * black flags.
 */
export interface StudioLook {
  top: number;
  horizon: number;
  floor: number;
  boxes: number;
  overhead: number;
  /** The graduated card low in front's gain, which flat faces turned to the camera mirror. */
  frontCard: number;
  blur: number;
  flags: boolean;
}

export const STUDIO_LOOKS: Record<EnvironmentPreset, StudioLook> = {
  // High contrast: black flags at the horizon and bright strips, so polished metal shows its colour.
  jewellery: {
    top: 0.55,
    horizon: 0.015,
    floor: 0.9,
    boxes: 1.0,
    overhead: 1.0,
    frontCard: 1,
    blur: 0.015,
    flags: true,
  },
  studio: {
    top: 0.7,
    horizon: 0.22,
    floor: 0.55,
    boxes: 0.7,
    overhead: 0.8,
    frontCard: 0.7,
    blur: 0.03,
    flags: false,
  },
  // Even light, but dark enough around the horizon, and a dim enough overhead box for flat
  // faces, that steel still reads as metal, not paint.
  neutral: {
    top: 0.4,
    horizon: 0.07,
    floor: 0.3,
    boxes: 0.3,
    overhead: 0.5,
    frontCard: 0.4,
    blur: 0.04,
    flags: false,
  },
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
  /**
   * A graduated card: its radiance scaled from `low` to `high` along `towards` (a world
   * direction), so a flat polished face mirroring it carries a gradient instead of one flat tone.
   */
  gradient?: { low: number; high: number; towards: Vec3 };
}

// Softboxes: [x, y, z, width, height, radiance]. The overhead one is graduated, brighter at the
// back, so faces turned up mirror a falloff.
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

const OVERHEAD_GRADIENT = { low: 0.25, high: 1.5, towards: [0, 0, -1] as Vec3 };
/** Low in front, below the camera's line: bright at its top, nearly black at its foot. */
const FRONT_CARD: Card = {
  position: [1.2, -5.8, 24],
  width: 34,
  height: 10,
  radiance: 2,
  gradient: { low: 0.08, high: 1, towards: [0, 1, 0] },
};

/** The light rig of a preset: its softboxes (the overhead one graduated), front card, then flags. */
export function studioCards(look: StudioLook): Card[] {
  const boxes = SOFTBOXES.map(([x, y, z, width, height, radiance], i): Card => ({
    position: [x, y, z],
    width,
    height,
    radiance: radiance * look.boxes * (i === 0 ? look.overhead : 1),
    ...(i === 0 ? { gradient: OVERHEAD_GRADIENT } : {}),
  }));
  const front = { ...FRONT_CARD, radiance: FRONT_CARD.radiance * look.frontCard };
  const flags = look.flags
    ? FLAGS.map(([x, y, z, width, height]): Card => ({ position: [x, y, z], width, height, radiance: 0 }))
    : [];
  return [...boxes, front, ...flags];
}

/** A dome shaded by `shade(height)` (-1 nadir .. 1 zenith), seen from inside. */
function domeMesh(shade: (y: number) => number): THREE.Mesh {
  const dome = new THREE.SphereGeometry(DOME_RADIUS, 48, 24);
  const colors: number[] = [];
  const position = dome.getAttribute('position');
  for (let i = 0; i < position.count; i++) {
    const v = shade(position.getY(i) / DOME_RADIUS);
    colors.push(v, v, v * 0.98);
  }
  dome.setAttribute('color', new THREE.Float32BufferAttribute(colors, 3));
  return new THREE.Mesh(dome, new THREE.MeshBasicMaterial({ side: THREE.BackSide, vertexColors: true }));
}

/** A card as an emissive plane facing the origin, graduated by vertex colour where it asks. */
function cardMesh(card: Card): THREE.Mesh {
  const geometry = new THREE.PlaneGeometry(card.width, card.height);
  const material = new THREE.MeshBasicMaterial({ side: THREE.DoubleSide });
  material.color.setScalar(card.radiance);
  const mesh = new THREE.Mesh(geometry, material);
  mesh.position.set(...card.position);
  mesh.lookAt(0, 0, 0);
  if (card.gradient) {
    const { low, high, towards } = card.gradient;
    const axis = new THREE.Vector3(...towards).normalize();
    mesh.updateMatrixWorld();
    const position = geometry.getAttribute('position');
    const corner = new THREE.Vector3();
    const along = Array.from({ length: position.count }, (_, i) =>
      corner.fromBufferAttribute(position, i).applyMatrix4(mesh.matrixWorld).dot(axis),
    );
    const [min, max] = [Math.min(...along), Math.max(...along)];
    const colors = along.flatMap((a) => {
      const v = low + ((high - low) * (a - min)) / (max - min || 1);
      return [v, v, v];
    });
    geometry.setAttribute('color', new THREE.Float32BufferAttribute(colors, 3));
    material.vertexColors = true;
  }
  return mesh;
}

/** The studio as a scene: a gradient dome plus emissive softboxes (and flags), each facing the origin. */
export function studioEnvironmentScene(look: StudioLook): THREE.Scene {
  const env = new THREE.Scene();
  env.add(domeMesh((y) => domeShade(look, y)));
  for (const card of studioCards(look)) env.add(cardMesh(card));
  return env;
}

/**
 * The stone light set (see STONE_LIGHTS) as a scene in view space — x right, y up, z towards the
 * camera — so gem materials look it up with view-space directions and every view lights a stone
 * alike.
 */
export function stoneEnvironmentScene(): THREE.Scene {
  const env = new THREE.Scene();
  env.add(domeMesh(() => STONE_ROOM));
  for (const [roll, offAxis, half, radiance] of STONE_LIGHTS) {
    const [x, y, z] = lensDirection(roll, offAxis);
    // A square whose half size, seen from the centre, is `half` (a tangent) at the card's distance.
    const distance = 24;
    env.add(
      cardMesh({
        position: [x * distance, y * distance, z * distance],
        width: 2 * half * distance,
        height: 2 * half * distance,
        radiance,
      }),
    );
  }
  return env;
}

/** A scene pre-filtered by PMREM into an environment texture, then the scene's meshes freed. */
function prefilter(pmrem: THREE.PMREMGenerator, env: THREE.Scene, blur: number): THREE.Texture {
  const target = pmrem.fromScene(env, blur, 0.1, 200);
  env.traverse((o) => {
    const mesh = o as THREE.Mesh;
    if (mesh.isMesh) {
      mesh.geometry.dispose();
      (mesh.material as THREE.Material).dispose();
    }
  });
  return target.texture;
}

/** The preset's studio pre-filtered by PMREM into the texture a scene's `environment` takes. */
export function buildEnvironment(pmrem: THREE.PMREMGenerator, preset: EnvironmentPreset): THREE.Texture {
  const look = STUDIO_LOOKS[preset];
  return prefilter(pmrem, studioEnvironmentScene(look), look.blur);
}

/** The stone light set pre-filtered for gem materials (sharp: its lights are small). */
export function buildStoneEnvironment(pmrem: THREE.PMREMGenerator): THREE.Texture {
  return prefilter(pmrem, stoneEnvironmentScene(), 0.01);
}
