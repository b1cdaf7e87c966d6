// The instance's accent colour made readable in each theme. Nothing here imports zod: the web app applies
// the accent before its first paint, through `@atelier/contracts/constants`, without loading a schema.

/** An accent colour as the admin picks it, once trimmed and lower-cased: `#rrggbb`. */
export const ACCENT_COLOR_PATTERN = /^#[0-9a-f]{6}$/;

/** WCAG AA for body text: what the accent must reach as text on the app's surfaces, and under its own labels. */
export const MIN_TEXT_CONTRAST = 4.5;

/**
 * The surfaces the accent sits on in each theme (index.css): the darkest light one and the lightest
 * dark one, where its contrast is lowest, and the two labels a button can carry.
 */
const THEME = {
  light: { surface: '#f5f2ed', fill: '#ffffff', ink: '#1b1d24', towards: '#000000' },
  dark: { surface: '#1d2027', fill: '#14171d', ink: '#14171d', towards: '#ffffff' },
} as const;

/** The CSS variables one theme's accent sets, as `#rrggbb`. */
export interface AccentTones {
  accent: string;
  /** Hover and pressed: a step further from the surface. */
  strong: string;
  /** A wash behind accent icons and badges. */
  soft: string;
  /** Text and icons on an accent fill. */
  onAccent: string;
  /** The accent against its theme's surfaces, and its label against it (each at least MIN_TEXT_CONTRAST). */
  contrast: number;
  labelContrast: number;
  /** True when the picked colour was too light (light theme) or too dark (dark theme) and was moved. */
  adjusted: boolean;
}

export interface AccentPalette {
  light: AccentTones;
  dark: AccentTones;
}

type Rgb = [number, number, number];

const toRgb = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as Rgb;
const toHex = (rgb: Rgb) =>
  `#${rgb
    .map((c) =>
      Math.round(c * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
const mix = (from: Rgb, to: Rgb, amount: number): Rgb => from.map((c, i) => c + (to[i]! - c) * amount) as Rgb;

function luminance([r, g, b]: Rgb): number {
  const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The WCAG contrast ratio of two `#rrggbb` colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [high, low] = [luminance(toRgb(a)), luminance(toRgb(b))].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/** The label (white or ink) that reads best on the fill. */
function labelFor(fill: string, ink: string): string {
  return contrastRatio('#ffffff', fill) >= contrastRatio(ink, fill) ? '#ffffff' : ink;
}

function tonesFor(picked: string, theme: (typeof THEME)[keyof typeof THEME]): AccentTones {
  const towards = toRgb(theme.towards);
  const readable = (hex: string) =>
    contrastRatio(hex, theme.surface) >= MIN_TEXT_CONTRAST &&
    contrastRatio(labelFor(hex, theme.ink), hex) >= MIN_TEXT_CONTRAST;
  // Darkened (light theme) or lightened (dark theme) in small steps until it reads: the hue stays.
  let step = 0;
  let accent = picked;
  while (!readable(accent) && step < 50) {
    step += 1;
    accent = toHex(mix(toRgb(picked), towards, step / 50));
  }
  const onAccent = labelFor(accent, theme.ink);
  return {
    accent,
    strong: toHex(mix(toRgb(accent), towards, 0.15)),
    soft: toHex(mix(toRgb(accent), toRgb(theme.fill), theme === THEME.light ? 0.88 : 0.75)),
    onAccent,
    contrast: contrastRatio(accent, theme.surface),
    labelContrast: contrastRatio(onAccent, accent),
    adjusted: accent !== picked,
  };
}

/** The accent's tones for both themes, each moved only as far as it must to keep text readable. */
export function accentPalette(color: string): AccentPalette {
  const picked = color.trim().toLowerCase();
  if (!ACCENT_COLOR_PATTERN.test(picked)) throw new RangeError(`not an accent colour: ${color}`);
  return { light: tonesFor(picked, THEME.light), dark: tonesFor(picked, THEME.dark) };
}

/** The id of the style element carrying the accent: the server writes it into the first page, the web app replaces it. */
export const ACCENT_STYLE_ID = 'instance-accent';

/** The CSS variables of the web app's index.css that one theme's accent tones replace. */
export function accentVariables(tones: AccentTones): Record<string, string> {
  return {
    '--accent': tones.accent,
    '--accent-strong': tones.strong,
    '--accent-soft': tones.soft,
    '--on-accent': tones.onAccent,
  };
}

const declarations = (variables: Record<string, string>) =>
  Object.entries(variables)
    .map(([name, value]) => `${name}:${value}`)
    .join(';');

/**
 * The style sheet that makes the accent the app's primary colour in both themes. Its doubled selectors
 * outrank index.css's :root and .dark wherever the style sheets load. Only `#rrggbb` tones reach it.
 */
export function accentStyleSheet(palette: AccentPalette): string {
  return `:root:root{${declarations(accentVariables(palette.light))}}:root.dark{${declarations(accentVariables(palette.dark))}}`;
}
