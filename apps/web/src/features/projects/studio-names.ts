import type { StudioMaterial } from '@atelier/contracts';
import type { TFunction } from 'i18next';
import type { StudioFinish } from './projects-api';

/** The names the presets' cameras had before they were named as people say them. */
const RENAMED_CAMERAS: Record<string, string> = {
  hero: 'three-quarter-front',
  'three-quarter': 'three-quarter-front',
  'back-three-quarter': 'three-quarter-back',
  'other-three-quarter': 'three-quarter-left',
  low: 'low-angle',
  'back-isometric': 'isometric-back',
};
/** What older outputs carried after the model's name: `ring-still-05-hero`, `ring-turntable`. */
const OLDER_OUTPUT = /^[a-z]+-(?:still-\d+-(.+)|(turntable))$/;

/**
 * A camera's name as people read it. Cameras are named by lower-case English slugs (the words of
 * the output files, `three-quarter-back`); the studio's own are translated, older names (of saved
 * settings and earlier outputs) read as today's, and any other (an extra `angle-7`, a camera of the
 * person's own) is read out as its words.
 */
export function cameraLabel(t: TFunction, name: string): string {
  const older = OLDER_OUTPUT.exec(name);
  const slug = older ? (older[1] ?? older[2]!) : name;
  const current = RENAMED_CAMERAS[slug] ?? slug;
  const angle = /^angle-(\d+)$/.exec(current);
  if (angle) return t('projects.camera.angle', { number: angle[1] });
  const words = current.replace(/[-_]+/g, ' ').trim();
  return t(`projects.camera.${current}`, { defaultValue: words.charAt(0).toUpperCase() + words.slice(1) });
}

const sameColour = (a: StudioMaterial['baseColor'], b: StudioMaterial['baseColor']) =>
  a.every((channel, i) => Math.abs(channel - b[i]!) < 1e-6);

/** Which of the finishes a material is, the way the server tells (see finishOf in the render package). */
export function finishOf(material: StudioMaterial | undefined, finishes: readonly StudioFinish[]) {
  if (!material) return undefined;
  return finishes.find(
    ({ material: finish, colourable }) =>
      material.metalness === finish.metalness &&
      material.roughness === finish.roughness &&
      material.transmission === finish.transmission &&
      material.ior === finish.ior &&
      material.clearcoat === finish.clearcoat &&
      (material.anisotropy ?? finish.anisotropy) === finish.anisotropy &&
      (colourable || sameColour(material.baseColor, finish.baseColor)),
  );
}

/** Linear RGB (how materials hold colour) to the sRGB hex a colour input shows, and back. */
export const linearToHex = (rgb: readonly number[]) =>
  `#${rgb
    .map((c) =>
      Math.round(Math.min(1, Math.max(0, c ** (1 / 2.2))) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

export const hexToLinear = (hex: string): [number, number, number] => {
  const channel = (at: number) => Number(((parseInt(hex.slice(at, at + 2), 16) / 255) ** 2.2).toFixed(4));
  return [channel(1), channel(3), channel(5)];
};
