// Tone mapping and transfer curves, shared by the rasteriser's per-sample shading.

/** ACES filmic curve (Narkowicz's fit), linear scene value -> display-linear 0..1. */
export function aces(x: number): number {
  const v = (x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14);
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

const LUT_SIZE = 4096;
/** Display-linear 0..1 -> sRGB-encoded 0..1, tabulated (pow per sample is the costliest call here). */
const ENCODE = new Float32Array(LUT_SIZE + 1);
for (let i = 0; i <= LUT_SIZE; i++) {
  const c = i / LUT_SIZE;
  ENCODE[i] = c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
}
export const encodeSrgb = (c: number): number => ENCODE[(c * LUT_SIZE + 0.5) | 0]!;

const FALLOFF_SIZE = 1024;
const FALLOFF = Float64Array.from({ length: FALLOFF_SIZE + 2 }, (_, i) =>
  Math.exp((-6.4324 * i) / FALLOFF_SIZE),
);
/** exp(-6.4324 · nDotV) for nDotV in 0..1, the environment BRDF's falloff, interpolated from a table. */
export function fresnelFalloff(nDotV: number): number {
  const u = (nDotV < 0 ? 0 : nDotV > 1 ? 1 : nDotV) * FALLOFF_SIZE;
  const i = u | 0;
  return FALLOFF[i]! + (FALLOFF[i + 1]! - FALLOFF[i]!) * (u - i);
}

/** sRGB byte -> linear, for textures. */
export const DECODE_BYTE = Float32Array.from({ length: 256 }, (_, i) => {
  const c = i / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/** Parses #rgb / #rrggbb into sRGB-encoded 0..1 components. */
export function parseHexColor(hex: string): [number, number, number] {
  const h = hex.replace('#', '');
  const full =
    h.length === 3
      ? h
          .split('')
          .map((c) => c + c)
          .join('')
      : h;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255) as [number, number, number];
}
