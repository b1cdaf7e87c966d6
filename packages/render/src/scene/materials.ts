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
  'plastic-matte': { baseColor: [0.42, 0.45, 0.5], metalness: 0, roughness: 0.7 },
  'plastic-glossy': { baseColor: [0.05, 0.2, 0.55], metalness: 0, roughness: 0.18, clearcoat: 1 },
  'brushed-steel': { baseColor: [0.56, 0.57, 0.58], metalness: 1, roughness: 0.32 },
} satisfies Record<string, PbrMaterial>;

export type MaterialName = keyof typeof MATERIALS;

export const material = (name: MaterialName): PbrMaterial => structuredClone(MATERIALS[name]) as PbrMaterial;
