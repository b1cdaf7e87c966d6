import type { PbrMaterial } from '../types';

/**
 * Named finishes. Metal colours are measured reflectances at normal incidence (linear RGB), which
 * is what makes gold read as gold rather than yellow paint.
 */
export const MATERIALS = {
  'yellow-gold': { baseColor: [1.0, 0.66, 0.24], metalness: 1, roughness: 0.12 },
  'white-gold': { baseColor: [0.86, 0.84, 0.79], metalness: 1, roughness: 0.1 },
  'rose-gold': { baseColor: [0.97, 0.62, 0.48], metalness: 1, roughness: 0.12 },
  silver: { baseColor: [0.97, 0.96, 0.92], metalness: 1, roughness: 0.08 },
  platinum: { baseColor: [0.67, 0.64, 0.59], metalness: 1, roughness: 0.1 },
  gem: { baseColor: [0.98, 0.99, 1.0], metalness: 0, roughness: 0.0, transmission: 1, ior: 2.42 },
  ruby: { baseColor: [0.75, 0.02, 0.06], metalness: 0, roughness: 0.0, transmission: 1, ior: 1.77 },
  sapphire: { baseColor: [0.03, 0.12, 0.7], metalness: 0, roughness: 0.0, transmission: 1, ior: 1.77 },
  emerald: { baseColor: [0.02, 0.55, 0.2], metalness: 0, roughness: 0.0, transmission: 1, ior: 1.58 },
  'plastic-matte': { baseColor: [0.42, 0.45, 0.5], metalness: 0, roughness: 0.7 },
  'plastic-glossy': { baseColor: [0.05, 0.2, 0.55], metalness: 0, roughness: 0.18, clearcoat: 1 },
  'painted-metal': { baseColor: [0.6, 0.05, 0.04], metalness: 0, roughness: 0.35, clearcoat: 0.6 },
  'anodised-aluminium': { baseColor: [0.1, 0.22, 0.45], metalness: 1, roughness: 0.28 },
  'brushed-aluminium': { baseColor: [0.91, 0.92, 0.92], metalness: 1, roughness: 0.36, anisotropy: 0.8 },
  'brushed-steel': { baseColor: [0.56, 0.57, 0.58], metalness: 1, roughness: 0.32, anisotropy: 0.7 },
  chrome: { baseColor: [0.55, 0.56, 0.55], metalness: 1, roughness: 0.04 },
  brass: { baseColor: [0.91, 0.78, 0.42], metalness: 1, roughness: 0.22 },
  copper: { baseColor: [0.95, 0.64, 0.54], metalness: 1, roughness: 0.2 },
  rubber: { baseColor: [0.03, 0.03, 0.03], metalness: 0, roughness: 0.92 },
  glass: { baseColor: [0.96, 0.98, 0.98], metalness: 0, roughness: 0.02, transmission: 1, ior: 1.5 },
  wood: { baseColor: [0.45, 0.26, 0.12], metalness: 0, roughness: 0.6 },
} satisfies Record<string, PbrMaterial>;

export type MaterialName = keyof typeof MATERIALS;

/**
 * Finishes that come in any colour (plastics, paints, anodising, rubber, wood): a material with
 * another base colour is still the finish. The others are defined by their colour (gold, steel).
 */
export const COLOURABLE_FINISHES: ReadonlySet<MaterialName> = new Set<MaterialName>([
  'plastic-matte',
  'plastic-glossy',
  'painted-metal',
  'anodised-aluminium',
  'rubber',
  'wood',
]);

export const material = (name: MaterialName): PbrMaterial => structuredClone(MATERIALS[name]) as PbrMaterial;

const sameColour = (a: PbrMaterial['baseColor'], b: PbrMaterial['baseColor']) =>
  a.every((channel, i) => Math.abs(channel - b[i]!) < 1e-6);

/**
 * The finish a material is among `names`: its surface (metalness, roughness, transmission,
 * index, clear coat, brushing) matches, and so does its colour unless the finish is colourable.
 */
export function finishOf(candidate: PbrMaterial, names: readonly MaterialName[]): MaterialName | undefined {
  return names.find((name) => {
    const finish: PbrMaterial = MATERIALS[name];
    return (
      candidate.metalness === finish.metalness &&
      candidate.roughness === finish.roughness &&
      candidate.transmission === finish.transmission &&
      candidate.ior === finish.ior &&
      candidate.clearcoat === finish.clearcoat &&
      // Brushed finishes saved before they carried their brushing still count (see withBrushing).
      (candidate.anisotropy ?? finish.anisotropy) === finish.anisotropy &&
      (COLOURABLE_FINISHES.has(name) || sameColour(candidate.baseColor, finish.baseColor))
    );
  });
}

const BRUSHED_FINISHES = (Object.keys(MATERIALS) as MaterialName[]).filter(
  (name) => (MATERIALS[name] as PbrMaterial).anisotropy,
);

/** A brushed finish saved before finishes carried their brushing, with its brushing back. */
export function withBrushing(candidate: PbrMaterial): PbrMaterial {
  if (candidate.anisotropy !== undefined) return candidate;
  const brushed = finishOf(candidate, BRUSHED_FINISHES);
  return brushed ? { ...candidate, anisotropy: (MATERIALS[brushed] as PbrMaterial).anisotropy } : candidate;
}
